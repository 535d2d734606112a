import type { Issue } from '../model/plain.js';

/**
 * A format's id in the format table (`formats/index.ts`): one importkit reads itself, or one
 * registered with `registerFormat`; `unknown` when none fits.
 */
export type FileFormat =
  | 'csv'
  | 'parquet'
  | 'hdf5'
  | 'tdms'
  | 'ulog'
  | 'ch10'
  | 'unknown'
  | (string & {});

/**
 * What one column, dataset or member of a file is: neutral facts, no config knowledge.
 * Tabular inspectors fill `name`/`path`/`column`; HDF5 fills `path`.
 */
export interface FieldProfile {
  name?: string;
  path?: string;
  /** 1-based column number (text formats). */
  column?: number;
  physicalType: string;
  logicalType?: string;
  units?: string;
  description?: string;
  nullCount?: number;
  stats?: { min?: string | number; max?: string | number };
  /** The dimensions of an array dataset (HDF5): [rows] or [rows, columns]; [] for a scalar. */
  shape?: number[];
  /** A few values as text, for people and for inference. */
  samples: string[];
}

/** What every inspector reports. Each format extends it with its own details. */
export interface BaseProfile {
  format: FileFormat;
  file: { path: string; size: number };
  /** Bytes read from the file to build this profile. */
  bytesRead: number;
  rowCount?: number;
  fields: FieldProfile[];
  /** What the inspector noticed (warnings, info) without failing. */
  issues: Issue[];
}

/**
 * An inspection that cannot go on (not the format it claims, truncated, unreadable):
 * carries one Issue so the CLI prints a clear line, never a stack trace.
 */
export class InspectError extends Error {
  /** The issue code (`file_not_found`, `file_empty`, `hdf5_unreadable`, ...), as `issue.code`. */
  readonly code: string;
  readonly issue: Issue;
  /** The one issue, as a list (the same shape as ConfigValidationError's). */
  readonly issues: Issue[];
  constructor(issue: Issue, options?: { cause?: unknown }) {
    super(issue.message, options);
    this.name = 'InspectError';
    this.code = issue.code;
    this.issue = issue;
    this.issues = [issue];
  }
}
