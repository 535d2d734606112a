/**
 * Check: a config × its data file → issues. Does the file fit the config, before anything
 * is uploaded? The public entry of this stage.
 */
import {
  detectFormat,
  emptyFileIssue,
  type FileFormat,
  InspectError,
  openForInspection,
} from '../inspect/index.js';
import {
  CONFIG_KINDS,
  type ConfigKind,
  type ImportDocument,
  kindOfKey,
} from '../model/document.js';
import type { Issue } from '../model/issue.js';
import { issue } from '../model/make-issue.js';

export { checkBatch } from './batch.js';
export type { CsvRecord } from './csv-scan.js';
export { fieldText, scanCsvFile } from './csv-scan.js';
export { checkTdms } from './tdms.js';

export type { UlogCheckOptions } from './ulog.js';
export { checkUlog } from './ulog.js';

export interface CheckOptions {
  /** Read every row (CSV), row group (Parquet) or element (HDF5) instead of samples. */
  full?: boolean;
  /** Progress of long reads: done of total (bytes for CSV, members for a batch, rows for the others). */
  onProgress?: (done: number, total: number) => void;
  /** HDF5: time limit of each read of the HDF5 library, in ms (default 60 000). */
  timeoutMs?: number;
  /** CSV: the delimiter (`,` `;` `\t` `|`) instead of detecting it. */
  delimiter?: string;
  /** CSV: the 1-based header row (0: none) instead of detecting it. */
  headerRow?: number;
  /**
   * CSV `full`: worker threads (default: the cores; 1 reads in this thread). A batch: members
   * checked at once (default 2), sharing the jobs.
   */
  jobs?: number;
  /** CSV `full`: bytes per range a worker scans (default: 8 to 64 MiB). */
  rangeBytes?: number;
}

/** The file format each config kind reads. */
const FORMAT_OF: Partial<Record<ConfigKind, FileFormat>> = {
  csv: 'csv',
  parquet: 'parquet',
  hdf5: 'hdf5',
  tdms: 'tdms',
  ulog: 'ulog',
  ch10: 'ch10',
};

/**
 * Checks a config document (canonical: camelCase, full enum names) against the data file
 * it will import. Issues about the data carry `source: { file, row, line, column, dataset }`
 * and a `path` into the document. Throws InspectError when the file cannot be read.
 */
export async function checkConfig(
  document: ImportDocument,
  dataPath: string,
  options: CheckOptions = {},
): Promise<Issue[]> {
  const key = Object.keys(document).find((k) => kindOfKey(k) !== undefined);
  const kind = key ? kindOfKey(key) : undefined;
  if (!key || !kind) return [];
  if (kind === 'batch') {
    const { checkBatch } = await import('./batch.js');
    return checkBatch(document.batchConfig ?? {}, dataPath, options);
  }
  const source = await openForInspection(dataPath);
  let format: FileFormat;
  try {
    if (source.size === 0) {
      throw new InspectError({ ...emptyFileIssue(dataPath), source: { file: dataPath } });
    }
    format = (await detectFormat(source)).format;
  } finally {
    await source.close();
  }
  const expected = FORMAT_OF[kind];
  if (expected && format !== expected) {
    return [
      issue(
        'data_format_mismatch',
        `/${key}`,
        `${dataPath} is ${format === 'unknown' ? 'not a format importkit knows' : `a ${format.toUpperCase()} file`}, but the config is a ${CONFIG_KINDS[kind].title}`,
        {
          hint: 'Check the file against a config of its own kind (`importkit infer <file>` drafts one).',
          source: { file: dataPath },
        },
      ),
    ];
  }
  switch (kind) {
    case 'csv': {
      const { checkCsv } = await import('./csv.js');
      return checkCsv(document.csvConfig ?? {}, dataPath, { ...options, key });
    }
    case 'parquet': {
      const { checkParquet } = await import('./parquet.js');
      return checkParquet(document.parquetConfig ?? {}, dataPath, { ...options, key });
    }
    case 'hdf5': {
      const { checkHdf5 } = await import('./hdf5.js');
      return checkHdf5(document.hdf5Config ?? {}, dataPath, { ...options, key });
    }
    case 'tdms': {
      const { checkTdms } = await import('./tdms.js');
      return checkTdms(document.tdmsConfig ?? {}, dataPath, { key });
    }
    case 'ulog': {
      const { checkUlog } = await import('./ulog.js');
      return checkUlog(document.ulogConfig ?? {}, dataPath, { ...options, key });
    }
    default:
      return [
        issue(
          'check_kind_not_supported',
          `/${key}`,
          `importkit cannot check a ${CONFIG_KINDS[kind].title} against its file yet; only the config was checked`,
          { source: { file: dataPath } },
        ),
      ];
  }
}

export type {
  ConfigRows,
  RowBatch,
  RowChannel,
  RowReadOptions,
  RowsRead,
} from './rows.js';
export { readConfigRows } from './rows.js';
