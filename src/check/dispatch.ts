/**
 * A config × its data file, dispatched through the format table (`formats/index.ts`): the
 * single-file check (a batch checks each member with it) and the rows as a config reads
 * them.
 */

import type { FormatEntry } from '../formats/index.js';
import {
  aFileOf,
  type ByteSource,
  detectFormat,
  type FileFormat,
  openForInspection,
  refuseEmptyFile,
} from '../inspect/index.js';
import type { ImportDocument } from '../model/index.js';
import { type Issue, issue } from '../model/plain.js';
import { configOfDocument } from './document.js';
import type { CheckOptions } from './options.js';
import type { ConfigRows, RowReadOptions } from './rows.js';
import type { Timeline } from './timeline.js';

function formatMismatch(dataPath: string, key: string, format: FileFormat, entry: FormatEntry) {
  return issue(
    'data_format_mismatch',
    `/${key}`,
    `${dataPath} is ${aFileOf(format)}, but the config is a ${entry.config.title}`,
    {
      hint: 'Check the file against a config of its own kind (`importkit infer <file>` drafts one).',
      source: { file: dataPath },
    },
  );
}

/**
 * `checkConfig` for a document of one data file (not a batch): the file must be of the
 * config's format, then that format's check runs. [] for a document without such a config.
 */
export async function checkFile(
  document: ImportDocument,
  dataPath: string,
  options: CheckOptions = {},
): Promise<Issue[]> {
  if (!configOfDocument(document)?.format) return [];
  const source = await openForInspection(dataPath);
  try {
    return await checkSource(document, source, options);
  } finally {
    await source.close();
  }
}

/**
 * `checkFile` over a source: a file, or a member of a folder or an archive read in place
 * (issues name `source.name`). An empty source is refused first.
 */
export async function checkSource(
  document: ImportDocument,
  source: ByteSource,
  options: CheckOptions = {},
): Promise<Issue[]> {
  const found = configOfDocument(document);
  if (!found?.format) return [];
  const { key, format: entry } = found;
  refuseEmptyFile(source);
  const format = (await detectFormat(source)).format;
  if (format !== entry.id) return [formatMismatch(source.name, key, format, entry)];
  if (!entry.check) {
    return [
      issue(
        'check_kind_not_supported',
        `/${key}`,
        `importkit cannot check a ${entry.config.title} against its file yet; only the config was checked`,
        { source: { file: source.name } },
      ),
    ];
  }
  const config = (document as Record<string, unknown>)[key] as Record<string, unknown> | undefined;
  return entry.check(config ?? {}, source, { ...options, key });
}

/**
 * The rows of a data file as `document` reads them, or undefined for a document of a kind
 * no reader exists for. Throws InspectError when the file cannot be read.
 */
export async function readConfigRows(
  document: ImportDocument,
  dataPath: string,
  options: RowReadOptions = {},
): Promise<ConfigRows | undefined> {
  const found = configOfDocument(document);
  const load = found?.format?.rows;
  if (!found || !load) return undefined;
  const config = (document as Record<string, unknown>)[found.key] as Record<string, unknown>;
  return (await load())(config ?? {}, found.key, dataPath, options);
}

/**
 * Where each channel of a data file has data, for a document of a format whose rows
 * cannot be shown and that has a timeline reader (CH10); undefined otherwise. Throws
 * InspectError when the file cannot be read.
 */
export async function readConfigTimeline(
  document: ImportDocument,
  dataPath: string,
): Promise<Timeline | undefined> {
  const found = configOfDocument(document);
  const load = found?.format?.timeline;
  if (!found || !load) return undefined;
  const config = (document as Record<string, unknown>)[found.key] as Record<string, unknown>;
  return (await load())(config ?? {}, dataPath);
}
