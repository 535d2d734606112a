/**
 * HDF5 inspection: the tree of groups and datasets, each dataset's type, shape, chunking,
 * filters and attributes, and the first and last few elements of the datasets that may
 * hold time. Everything else stays on disk.
 *
 * h5wasm (the HDF5 C library compiled to wasm) does its own positioned reads on the host
 * path, so it cannot go through our ByteSource. The byte source is still used first: the
 * signature, the superblock and the end-of-file address are checked there, so an empty,
 * foreign or truncated file gets a clear error without loading the wasm module at all.
 */
import type { Dataset, Group, Metadata } from 'h5wasm/node';
import type { Issue } from '../model/issue.js';
import { discardH5, type H5Module, isWasmFailure, lastReason, loadH5, quietly } from './hdf5/h5.js';
import { readSuperblock, type Superblock } from './hdf5/superblock.js';
import { openForInspection } from './inspect-file.js';
import { type BaseProfile, type FieldProfile, InspectError } from './profile.js';

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

export interface Hdf5Profile extends BaseProfile {
  format: 'hdf5';
  superblock: Superblock;
  groups: Hdf5Group[];
  datasets: Hdf5Dataset[];
  links: Hdf5Link[];
}

export interface Hdf5InspectOptions {
  /** Datasets to sample besides those that look like time (for `--time-dataset`). */
  sample?: string[];
  /** Rows read at each end of a sampled dataset (default 3). */
  sampleRows?: number;
}

/** Attributes larger than this are listed without their value. */
const MAX_ATTRIBUTE_BYTES = 4096;
/** [N, k] datasets with more columns than this are not sampled (images, matrices). */
export const MAX_TWO_D_COLUMNS = 64;
/** Compound rows larger than this are not sampled. */
const MAX_SAMPLED_ROW_BYTES = 4096;
/** Files with more objects than this are listed up to it (with a warning). */
const MAX_OBJECTS = 100_000;

const TYPE_CLASSES: Hdf5TypeClass[] = [
  'integer',
  'float',
  'time',
  'string',
  'bitfield',
  'opaque',
  'compound',
  'reference',
  'enum',
  'vlen',
  'array',
];

/** The neutral type of h5wasm's metadata. */
export function typeOfMetadata(m: Metadata): Hdf5Type {
  const cls = TYPE_CLASSES[m.type] ?? 'unknown';
  const t: Hdf5Type = { class: cls, size: m.size };
  if (cls === 'integer' || cls === 'float' || cls === 'bitfield') {
    t.littleEndian = m.littleEndian;
  }
  if (cls === 'integer') t.signed = m.signed;
  if (cls === 'string') t.variableLength = m.vlen;
  if (cls === 'enum' && m.enum_type) {
    t.enumMembers = Object.entries(m.enum_type.members)
      .map(([name, value]) => ({ name, value }))
      .sort((a, b) => a.value - b.value || a.name.localeCompare(b.name));
    t.signed = t.enumMembers.some((e) => e.value < 0);
    t.base = { class: TYPE_CLASSES[m.enum_type.type] ?? 'unknown', size: m.size };
  }
  if (cls === 'compound' && m.compound_type) {
    t.members = m.compound_type.members.map((member) => ({
      name: member.name,
      type: typeOfMetadata(member),
    }));
  }
  if (cls === 'array' && m.array_type) t.base = typeOfMetadata(m.array_type);
  if (cls === 'vlen' && m.vlen_type) t.base = typeOfMetadata(m.vlen_type);
  return t;
}

/** A short name of a type, for people (`float64`, `int8`, `string`, `enum(int8)`). */
export function typeName(t: Hdf5Type): string {
  switch (t.class) {
    case 'integer':
      return `${t.signed ? 'int' : 'uint'}${t.size * 8}`;
    case 'float':
      return `float${t.size * 8}`;
    case 'string':
      return t.variableLength ? 'string' : `string[${t.size}]`;
    case 'enum':
      return `enum(${(t.enumMembers ?? []).map((e) => e.name).join('|')})`;
    case 'compound':
      return `compound{${(t.members ?? []).map((m) => `${m.name}: ${typeName(m.type)}`).join(', ')}}`;
    case 'opaque':
      return `opaque[${t.size}]`;
    case 'bitfield':
      return `bitfield${t.size * 8}`;
    case 'array':
      return `array(${t.base ? typeName(t.base) : '?'})`;
    case 'vlen':
      return `vlen(${t.base ? typeName(t.base) : '?'})`;
    default:
      return t.class;
  }
}

/** A name that may mean time (the inspector samples such datasets; inference decides). */
function mayBeTimeName(name: string): boolean {
  return /time|stamp|epoch|elapsed|^t$|^ts$|^t[_\-. ]|date/i.test(name);
}

function isNumeric(t: Hdf5Type): boolean {
  return t.class === 'integer' || t.class === 'float';
}

/** Text of one value h5wasm returned: exact for 64-bit integers. */
function text(v: unknown): string {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Uint8Array) return Buffer.from(v).toString('hex');
  if (ArrayBuffer.isView(v) || Array.isArray(v)) {
    return `[${Array.from(v as ArrayLike<unknown>, text).join(', ')}]`;
  }
  return String(v);
}

function jsonValue(v: unknown, depth = 0): Hdf5Value {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (depth > 4) return text(v);
  if (ArrayBuffer.isView(v) || Array.isArray(v)) {
    return Array.from(v as ArrayLike<unknown>, (x) => jsonValue(x, depth + 1));
  }
  return text(v);
}

function attributeType(m: Metadata): Hdf5Type {
  return typeOfMetadata(m);
}

function hasReference(t: Hdf5Type): boolean {
  if (t.class === 'reference') return true;
  if (t.base && hasReference(t.base)) return true;
  return (t.members ?? []).some((m) => hasReference(m.type));
}

function readAttributes(obj: Dataset | Group): Hdf5Attribute[] {
  const out: Hdf5Attribute[] = [];
  const attrs = obj.attrs;
  for (const name of Object.keys(attrs)) {
    const attr = attrs[name];
    if (!attr) continue;
    const type = attributeType(attr.metadata);
    const shape = attr.metadata.shape ?? [];
    const a: Hdf5Attribute = { name, type, shape };
    const bytes = attr.metadata.size * Math.max(1, attr.metadata.total_size);
    if (!hasReference(type) && bytes <= MAX_ATTRIBUTE_BYTES && attr.metadata.shape !== null) {
      const v = quietly(() => attr.value);
      if (v.error === undefined) a.value = jsonValue(v.value);
    }
    out.push(a);
  }
  return out;
}

/** Rows of a slice: 1-D values one per row, [N, k] flat values k per row, compound rows as they come. */
function rowsOf(value: unknown, dataset: { type: Hdf5Type; shape: number[] }): string[][] {
  if (value === null || value === undefined) return [];
  const items: unknown[] =
    ArrayBuffer.isView(value) || Array.isArray(value)
      ? Array.from(value as ArrayLike<unknown>)
      : [value];
  if (dataset.type.class === 'compound') {
    return items.map((row) => (Array.isArray(row) ? row.map(text) : [text(row)]));
  }
  const width = dataset.shape.length === 2 ? (dataset.shape[1] ?? 1) : 1;
  const rows: string[][] = [];
  for (let i = 0; i + width <= items.length; i += width) {
    rows.push(items.slice(i, i + width).map(text));
  }
  return rows;
}

function shouldSample(ds: Hdf5Dataset, wanted: Set<string>): boolean {
  const shape = ds.shape;
  if (!shape || shape.length === 0 || (shape[0] ?? 0) === 0) return false;
  if (wanted.has(ds.path)) return shape.length <= 2;
  if (shape.length === 1) {
    if (ds.type.class === 'compound') return ds.type.size <= MAX_SAMPLED_ROW_BYTES;
    if (!isNumeric(ds.type) && ds.type.class !== 'string') return false;
    const units = ds.attributes.find((a) => /^units?$/i.test(a.name))?.value;
    return (
      ds.isDimensionScale ||
      mayBeTimeName(ds.name) ||
      (typeof units === 'string' && /since|^\s*(n|u|µ|m)?s(ec(onds?)?)?\s*$/i.test(units))
    );
  }
  if (shape.length === 2) {
    const k = shape[1] ?? 0;
    return isNumeric(ds.type) && k >= 2 && k <= MAX_TWO_D_COLUMNS;
  }
  return false;
}

function inspectError(
  path: string,
  code: Issue['code'],
  message: string,
  hint?: string,
  cause?: unknown,
): InspectError {
  return new InspectError(
    {
      code,
      severity: 'error',
      path: '',
      message,
      ...(hint ? { hint } : {}),
      source: { file: path },
    },
    cause === undefined ? undefined : { cause },
  );
}

/** Checks the file through the byte source; throws InspectError for empty, foreign and cut files. */
export async function checkHdf5File(
  path: string,
): Promise<{ size: number; bytesRead: number; superblock: Superblock }> {
  const source = await openForInspection(path);
  try {
    const result = await readSuperblock(source);
    if (!result.ok) {
      const p = result.problem;
      switch (p.kind) {
        case 'empty':
          throw inspectError(path, 'hdf5_empty_file', `${path}: the file is empty (0 bytes)`);
        case 'signature':
          throw inspectError(
            path,
            'hdf5_signature_missing',
            `${path}: not an HDF5 file (no HDF5 signature at byte 0, 512, 1024 ...)`,
            'Check that this is the data file you meant; netCDF-3 files are not HDF5.',
          );
        case 'invalid':
          throw inspectError(
            path,
            'hdf5_superblock_invalid',
            `${path}: the HDF5 superblock is invalid (${p.detail})`,
          );
        case 'truncated':
          throw inspectError(
            path,
            'hdf5_truncated',
            `${path}: truncated HDF5 file: ${p.actual} bytes, but its superblock says it ends at byte ${p.expected}`,
            'Copy the file again; it was cut short.',
          );
      }
    }
    return { size: source.size, bytesRead: source.bytesRead, superblock: result.superblock };
  } finally {
    await source.close();
  }
}

/**
 * Inspects an HDF5 file (also netCDF-4). Throws InspectError when the file is empty, not
 * HDF5, truncated or unreadable; never lets the HDF5 library's diagnostics reach stderr.
 */
export async function inspectHdf5(
  path: string,
  options: Hdf5InspectOptions = {},
): Promise<Hdf5Profile> {
  const checked = await checkHdf5File(path);
  const h5 = await loadH5();
  const result = quietly(() => readTree(h5, path, checked, options));
  if (result.error !== undefined) {
    if (result.error instanceof InspectError) throw result.error;
    if (isWasmFailure(result.error)) discardH5();
    const reason =
      lastReason(result.diagnostics) ??
      (result.error instanceof Error ? result.error.message : String(result.error));
    throw inspectError(
      path,
      'hdf5_unreadable',
      `${path}: the HDF5 library cannot read the file (${reason.split('\n')[0]})`,
      'Check that the file opens with `h5dump -H`; write it again if it does not.',
      result.error,
    );
  }
  return result.value as Hdf5Profile;
}

function readTree(
  h5: H5Module,
  path: string,
  checked: { size: number; bytesRead: number; superblock: Superblock },
  options: Hdf5InspectOptions,
): Hdf5Profile {
  const file = new h5.File(path, 'r');
  if (file.file_id < 0n) {
    throw new Error('the file could not be opened');
  }
  const issues: Issue[] = [];
  const groups: Hdf5Group[] = [{ path: '/', attributes: readAttributes(file) }];
  const datasets: Hdf5Dataset[] = [];
  const links: Hdf5Link[] = [];
  const wanted = new Set(options.sample ?? []);
  const rows = Math.max(1, options.sampleRows ?? 3);
  try {
    let names = file.paths();
    if (names.length > MAX_OBJECTS) {
      issues.push({
        code: 'hdf5_dataset_skipped',
        severity: 'warning',
        path: '',
        message: `${path}: ${names.length} objects; only the first ${MAX_OBJECTS} were inspected`,
        source: { file: path },
      });
      names = names.slice(0, MAX_OBJECTS);
    }
    for (const name of names) {
      const full = `/${name.replace(/^\/+/, '')}`;
      const symbolic = quietly(() => file.get_link(full));
      if (typeof symbolic.value === 'string' && symbolic.value !== '') {
        links.push({ path: full, kind: 'soft', target: symbolic.value });
        continue;
      }
      const entity = quietly(() => file.get(full));
      const e = entity.value;
      if (!e) continue;
      if (e instanceof h5.Group) {
        groups.push({ path: full, attributes: readAttributes(e) });
      } else if (e instanceof h5.Dataset) {
        datasets.push(readDataset(e, full, wanted, rows));
      } else if ('filename' in e && 'obj_path' in e) {
        links.push({ path: full, kind: 'external', target: `${e.filename}:${e.obj_path}` });
      } else if ('target' in e) {
        links.push({ path: full, kind: 'broken', target: String(e.target) });
      }
    }
  } finally {
    file.close();
  }
  const fields: FieldProfile[] = datasets.map((d) => {
    const field: FieldProfile = {
      path: d.path,
      name: d.name,
      physicalType: typeName(d.type),
      samples: [...(d.head ?? []), ...(d.tail ?? [])].map((r) =>
        r.length === 1 ? (r[0] ?? '') : `[${r.join(', ')}]`,
      ),
    };
    const units = stringAttribute(d, ['units', 'unit', 'Units', 'Unit']);
    const description = stringAttribute(d, ['description', 'Description', 'long_name']);
    if (units !== undefined) field.units = units;
    if (description !== undefined) field.description = description;
    return field;
  });
  return {
    format: 'hdf5',
    file: { path, size: checked.size },
    bytesRead: checked.bytesRead,
    fields,
    issues,
    superblock: checked.superblock,
    groups,
    datasets,
    links,
  };
}

function stringAttribute(d: Hdf5Dataset, names: string[]): string | undefined {
  for (const n of names) {
    const v = d.attributes.find((a) => a.name === n)?.value;
    if (typeof v === 'string') return v;
  }
  return undefined;
}

function readDataset(ds: Dataset, path: string, wanted: Set<string>, rows: number): Hdf5Dataset {
  const meta = ds.metadata;
  const type = typeOfMetadata(meta);
  const attributes = readAttributes(ds);
  const filters = quietly(() => ds.filters).value ?? [];
  const out: Hdf5Dataset = {
    path,
    name: path.slice(path.lastIndexOf('/') + 1),
    type,
    shape: meta.shape,
    maxshape: meta.maxshape,
    chunks: meta.chunks,
    filters: filters.map((f) => f.name || `filter ${f.id}`),
    attributes,
    isDimensionScale: attributes.some((a) => a.name === 'CLASS' && a.value === 'DIMENSION_SCALE'),
  };
  if (attributes.some((a) => a.name === 'DIMENSION_LIST') && meta.shape) {
    const scales: string[][] = [];
    for (let i = 0; i < meta.shape.length; i++) {
      scales.push(quietly(() => ds.get_attached_scales(i)).value ?? []);
    }
    out.dimensionScales = scales;
  }
  if (shouldSample(out, wanted) && meta.shape) {
    const n = meta.shape[0] ?? 0;
    const shape = meta.shape;
    const width: Array<[] | [number, number]> = shape.length === 2 ? [[]] : [];
    const head = quietly(() => ds.slice([[0, Math.min(rows, n)], ...width]));
    if (head.error === undefined) out.head = rowsOf(head.value, { type, shape });
    if (n > rows) {
      const tail = quietly(() => ds.slice([[Math.max(rows, n - rows), n], ...width]));
      if (tail.error === undefined) out.tail = rowsOf(tail.value, { type, shape });
    }
  }
  return out;
}
