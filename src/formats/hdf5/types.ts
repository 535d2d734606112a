/** The neutral shapes of an HDF5 profile (plain data, JSON-serialisable). */
export type Hdf5TypeClass =
  | 'integer'
  | 'float'
  | 'time'
  | 'string'
  | 'bitfield'
  | 'opaque'
  | 'compound'
  | 'reference'
  | 'enum'
  | 'vlen'
  | 'array'
  | 'unknown';

/** An HDF5 datatype, as plain data. */
export interface Hdf5Type {
  class: Hdf5TypeClass;
  /** Size in bytes of one element (4 for a variable-length string: the pointer). */
  size: number;
  signed?: boolean;
  littleEndian?: boolean;
  /** Strings: variable length (true) or fixed (false). */
  variableLength?: boolean;
  /** Enums: the members in value order. */
  enumMembers?: Array<{ name: string; value: number }>;
  /** Compounds: the members in file order. */
  members?: Array<{ name: string; type: Hdf5Type }>;
  /** Arrays and variable-length sequences: the element type. */
  base?: Hdf5Type;
}

/** JSON-safe attribute values (64-bit integers as decimal strings). */
export type Hdf5Value = string | number | boolean | null | Hdf5Value[];

export interface Hdf5Attribute {
  name: string;
  type: Hdf5Type;
  shape: number[];
  /** Left out for references and for values over 4 KiB. */
  value?: Hdf5Value;
}

export interface Hdf5Group {
  path: string;
  attributes: Hdf5Attribute[];
}

export interface Hdf5Dataset {
  /** Absolute path (`/sensors/voltage`). */
  path: string;
  name: string;
  type: Hdf5Type;
  /** Dimensions; [] for a scalar, null for a dataset with no dataspace (H5S_NULL). */
  shape: number[] | null;
  maxshape: Array<number | null> | null;
  chunks: number[] | null;
  filters: string[];
  attributes: Hdf5Attribute[];
  /** True when the dataset is a dimension scale (`CLASS=DIMENSION_SCALE`). */
  isDimensionScale: boolean;
  /** For each dimension, the paths of the dimension scales attached to it (`DIMENSION_LIST`). */
  dimensionScales?: string[][];
  /**
   * The first and last few rows (1-D: one value per row; [N, k]: k values; compound: one
   * value per member), as text: only for datasets that may hold time.
   */
  head?: string[][];
  tail?: string[][];
}

export interface Hdf5Link {
  path: string;
  kind: 'soft' | 'external' | 'broken';
  target: string;
}
