/**
 * Which format reads which infer option, from the format table (`inferOptions` of each
 * entry): the command line and the MCP tools refuse an option the file's format does not
 * read instead of ignoring it.
 */
import { type FileFormat, type FormatOption, formatById, formats } from '../inspect/index.js';
import type { InferOptions } from './types.js';

/** Every format option, in the order messages list them. */
const ALL_FORMAT_OPTIONS: readonly FormatOption[] = [
  'timeColumn',
  'timeFormat',
  'relativeStartTime',
  'delimiter',
  'headerRow',
  'layout',
  'complexTypes',
  'timeDataset',
];

/** The options in `options` that the format's inferer does not read. */
export function optionsNotRead(id: FileFormat, options: InferOptions): FormatOption[] {
  const read = new Set(formatById(id)?.inferOptions ?? []);
  const given = Object.keys(options).filter((k) => options[k as keyof InferOptions] !== undefined);
  return ALL_FORMAT_OPTIONS.filter((o) => given.includes(o) && !read.has(o));
}

/** The formats whose inferer reads `option`. */
export function formatsReading(option: FormatOption): FileFormat[] {
  return formats()
    .filter((f) => f.inferOptions?.includes(option))
    .map((f) => f.id);
}
