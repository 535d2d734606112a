import { formatById, formats, type InspectOptions } from '../formats/index.js';
import { openForInspection, refuseEmptyFile } from './byte-source.js';
import { detectFormat } from './detect.js';
import { type BaseProfile, type FileFormat, InspectError } from './profile.js';

/**
 * The format of the file at `path`, decided from its head (opened and closed here); an
 * empty file is refused first.
 */
export async function detectFileFormat(path: string): Promise<FileFormat> {
  const source = await openForInspection(path);
  try {
    refuseEmptyFile(source, path);
    return (await detectFormat(source)).format;
  } finally {
    await source.close();
  }
}

/** The error for a file of no format in the table: "not a CSV, Parquet, ... or ULog file". */
export function unknownFormatError(path: string): InspectError {
  const titles = formats().map((f) => f.title);
  const names = `${titles.slice(0, -1).join(', ')} or ${titles.at(-1)}`;
  return new InspectError({
    code: 'unknown_format',
    severity: 'error',
    path: '',
    message: `${path}: not a ${names} file`,
    hint: 'Check that this is the data file you meant.',
    source: { file: path },
  });
}

/**
 * Inspects any file importkit knows: detects the format by content first, then runs that
 * format's inspector from the format table (which loads only the inspector it needs).
 */
export async function inspectFile(
  path: string,
  options: InspectOptions = {},
): Promise<BaseProfile> {
  const format = formatById(await detectFileFormat(path));
  if (!format) throw unknownFormatError(path);
  return format.inspect(path, options);
}
