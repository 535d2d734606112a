/** The Parquet profile: what inspection says of a file and of each of its top-level columns. */

import type { BaseProfile, FieldProfile } from '../../inspect/shared.js';

/** What a nested (group or repeated) top-level column is. */
export type NestedKind = 'struct' | 'list' | 'map';

/** One top-level column of a Parquet file. */
export interface ParquetFieldProfile extends FieldProfile {
  name: string;
  /** Dotted path of the column (the top-level name; leaves of nested columns in `leaves`). */
  path: string;
  /** 0-based position among the top-level columns. */
  index: number;
  /** BOOLEAN, INT32, INT64, INT96, FLOAT, DOUBLE, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, or GROUP. */
  physicalType: string;
  /** The logical type in words: `STRING`, `TIMESTAMP(MICROS, UTC)`, `INTEGER(16, unsigned)`... */
  logicalType?: string;
  repetition: 'REQUIRED' | 'OPTIONAL' | 'REPEATED';
  /** Set for nested columns (groups or repeated fields), which are not plain channels. */
  nested?: NestedKind;
  /** Leaf paths under a nested column. */
  leaves?: string[];
  /** Integer width and sign from the logical or converted type. */
  integer?: { bitWidth: number; signed: boolean };
  /** TIMESTAMP and TIME details. */
  temporal?: {
    kind: 'TIMESTAMP' | 'TIME' | 'DATE' | 'INT96';
    unit?: 'MILLIS' | 'MICROS' | 'NANOS';
    utc?: boolean;
  };
  decimal?: { precision: number; scale: number };
  typeLength?: number;
  /** True when every row group has min and max statistics for this column. */
  statsComplete: boolean;
  /** True when the first row group stores the column with a dictionary page. */
  dictionary: boolean;
  /** Field metadata from the embedded Arrow schema (`unit`, `description`, ...). */
  arrowMetadata?: Record<string, string>;
}

export interface ParquetProfile extends BaseProfile {
  format: 'parquet';
  fields: ParquetFieldProfile[];
  /** Byte offset of the footer metadata, as a decimal string (fileSize - footerLength - 8). */
  footerOffset: string;
  footerLength: number;
  rowCount: number;
  rowGroups: number;
  createdBy?: string;
  /** Keys of the file's key-value metadata (`ARROW:schema`, `pandas`...). */
  metadataKeys: string[];
}
