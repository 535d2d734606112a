/**
 * A flag for one format given with a file of another (`--layout` with a CSV file) is a
 * usage error naming the flag, the file's format and the formats it is for, instead of
 * being silently ignored. What each format reads is in the format table (infer's part,
 * `FormatEntry.inferOptions`).
 */
import { formatsReading, type InferOptions, optionsNotRead } from '../../infer/index.js';
import { detectFileFormat, type FileFormat, formatById } from '../../inspect/index.js';
import { listSome } from '../../validate/index.js';
import { UsageError } from '../errors.js';
import { flagOf } from '../option-flags.js';

const title = (id: FileFormat) => formatById(id)?.title ?? id;

/** Throws the usage error for the first option in `options` the file's format does not read. */
export async function refuseFlagsOfOtherFormats(
  path: string,
  shown: string,
  options: InferOptions,
): Promise<void> {
  const given = Object.keys(options).some((k) => options[k as keyof InferOptions] !== undefined);
  if (!given) return;
  const format = await detectFileFormat(path).catch(() => undefined);
  if (format === undefined || formatById(format) === undefined) return;
  const [option] = optionsNotRead(format, options);
  if (option === undefined) return;
  const readers = formatsReading(option).map(title);
  throw new UsageError(
    `${flagOf(option)} does not apply to ${shown}, a ${title(format)} file`,
    readers.length > 0
      ? `${flagOf(option)} is for ${listSome(readers, readers.length)} files; leave it out`
      : `leave out ${flagOf(option)}`,
  );
}
