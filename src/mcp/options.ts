/**
 * The tools' arguments for reading a data file, turned into the library's options: the
 * same names (`timeFormat`, `headerRow`), the same accepted values as the command line's
 * flags, and the same refusal of an option the file's format does not read. Runs in the
 * job's thread, where the infer stage is loaded.
 */

import { formatsReading, type InferOptions, type Layout, optionsNotRead } from '../infer/index.js';
import { detectFileFormat, formatById } from '../inspect/index.js';
import {
  isRfc3339,
  parseDelimiter,
  parseTimeFormatName,
  TIME_FORMAT_SHORT_NAMES,
} from '../model/plain.js';
import { fail } from './failure.js';

/** Reading arguments as the tools take them (each optional). */
export interface ReadArgs {
  assetName?: string | undefined;
  runName?: string | undefined;
  timeColumn?: string | number | undefined;
  timeFormat?: string | undefined;
  relativeStartTime?: string | undefined;
  delimiter?: string | undefined;
  headerRow?: number | undefined;
  layout?: Layout | undefined;
  complexTypes?: string | undefined;
  timeDataset?: string | undefined;
  full?: boolean | undefined;
}

const invalid = (message: string, hint?: string) => fail('tool_argument_invalid', message, hint);

/** The CSV dialect arguments (`delimiter` by name: `,` `;` `tab` `|`). */
export function dialectOf(args: ReadArgs): { delimiter?: string; headerRow?: number } {
  const out: { delimiter?: string; headerRow?: number } = {};
  if (args.delimiter !== undefined) {
    const d = parseDelimiter(args.delimiter);
    if (d === undefined) throw invalid(`delimiter '${args.delimiter}' is not one of , ; tab |`);
    out.delimiter = d;
  }
  if (args.headerRow !== undefined) out.headerRow = args.headerRow;
  return out;
}

/** The arguments as InferOptions, checked as the command line checks its flags. */
export function inferOptionsOf(args: ReadArgs): InferOptions {
  const options: InferOptions = { ...dialectOf(args) };
  if (args.assetName !== undefined) options.assetName = args.assetName;
  if (args.runName !== undefined) options.runName = args.runName;
  if (args.timeColumn !== undefined) {
    const t = args.timeColumn;
    options.timeColumn = typeof t === 'string' && /^\d+$/.test(t) ? Number(t) : t;
    if (options.timeColumn === 0) throw invalid('timeColumn numbers start at 1');
  }
  if (args.timeFormat !== undefined) {
    const f = parseTimeFormatName(args.timeFormat);
    if (!f)
      throw invalid(
        `timeFormat '${args.timeFormat}' is not a time format`,
        `one of ${TIME_FORMAT_SHORT_NAMES.join(', ')} (TIME_FORMAT_ prefix optional)`,
      );
    options.timeFormat = f;
  }
  if (args.relativeStartTime !== undefined) {
    if (!isRfc3339(args.relativeStartTime))
      throw invalid(
        `relativeStartTime '${args.relativeStartTime}' is not an RFC 3339 time`,
        'e.g. 2024-01-01T00:00:00Z',
      );
    options.relativeStartTime = args.relativeStartTime;
  }
  if (args.layout !== undefined) options.layout = args.layout;
  if (args.complexTypes !== undefined)
    options.complexTypes = `PARQUET_COMPLEX_TYPES_IMPORT_MODE_${args.complexTypes}`;
  if (args.timeDataset !== undefined) options.timeDataset = args.timeDataset;
  if (args.full === true) options.full = true;
  return options;
}

/** Refuses an option the file's format does not read, naming the formats that do. */
export async function refuseOptionsOfOtherFormats(
  path: string,
  shown: string,
  options: InferOptions,
): Promise<void> {
  const format = await detectFileFormat(path).catch(() => undefined);
  if (format === undefined || formatById(format) === undefined) return;
  const [option] = optionsNotRead(format, options);
  if (option === undefined) return;
  const title = (id: string) => formatById(id as typeof format)?.title ?? id;
  const readers = formatsReading(option).map(title);
  throw invalid(
    `${option} does not apply to ${shown}, a ${title(format)} file`,
    readers.length > 0
      ? `${option} is for ${readers.join(', ')} files; leave it out`
      : `leave out ${option}`,
  );
}
