import type { ConfigKind, ImportDocument } from '../model/index.js';
import type { Issue } from '../model/plain.js';

export type Confidence = 'high' | 'medium' | 'low';

/** Why inference chose what it chose, for one place in the draft. */
export interface Evidence {
  /** JSON pointer into the draft document. */
  path: string;
  /** What was chosen, as text (`column 1`, `TIME_FORMAT_ABSOLUTE_DATETIME`). */
  choice: string;
  reason: string;
  confidence: Confidence;
  /** Other choices that were weighed, with why they lost. */
  alternatives?: string[];
}

/** A draft config: the document, the evidence for each choice, and what is still wrong. */
export interface Draft {
  document: ImportDocument;
  kind: ConfigKind;
  evidence: Evidence[];
  /** Validation issues of the draft plus what inference could not decide. */
  issues: Issue[];
}

export type Layout = 'flat' | 'single-channel' | 'multi-channel';

/** How TDMS channels are named in a draft (see `InferOptions.tdmsNames`). */
export type TdmsNames = 'qualified' | 'plain';

/** Options that override any choice inference would make. Each inferer reads the ones it knows. */
export interface InferOptions {
  assetName?: string;
  runName?: string;
  /** The time column, by 1-based number or by name (CSV, Parquet). */
  timeColumn?: string | number;
  /** Full or short TimeFormat name (`ABSOLUTE_UNIX_SECONDS`, `TIME_FORMAT_...`). */
  timeFormat?: string;
  /** RFC 3339 start time for relative formats. */
  relativeStartTime?: string;
  /** CSV: the delimiter (`,` `;` `\t` `|`). */
  delimiter?: string;
  /** CSV: the 1-based header row (0: no header). */
  headerRow?: number;
  /** Scan the whole file instead of the head and slices. */
  full?: boolean;
  /** Parquet layout. */
  layout?: Layout;
  /** Parquet complexTypesImportMode (full or short name). */
  complexTypes?: string;
  /** HDF5: the time dataset path. */
  timeDataset?: string;
  /**
   * TDMS channel names: `qualified` (the default) `<group>.<channel>`, complex parts
   * `.real` and `.imag`, as the platform's own command line and Python client name them;
   * `plain` the channel's name, `<group>.<channel>` only where groups share a name, complex
   * parts `.real` and `.imaginary` (importkit's names before it followed the platform's).
   */
  tdmsNames?: TdmsNames;
  /** Progress for long reads (a terminal progress bar); not called when undefined. */
  onProgress?: (done: number, total: number) => void;
}
