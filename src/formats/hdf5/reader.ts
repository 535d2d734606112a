/**
 * Every read of an HDF5 file through h5wasm, for inspection and for the check stage:
 * - `tree`: groups, datasets (type, shape, chunking, filters, attributes, dimension
 *   scales) and the first and last rows of the datasets that may hold time;
 * - `slice`: rows [start, end) of one dataset (1-D, one column of an [N, k] one, or one
 *   compound member), as the library decodes them: `check --full` reads whole datasets
 *   one slice at a time, so memory stays bounded however long the dataset;
 * - `rows`: ranges of rows of one dataset, as numbers or text.
 *
 * These functions run only in the HDF5 worker thread (thread.ts, started by worker.ts), so
 * that a damaged file on which the HDF5 library loops forever can be stopped (the worker
 * is terminated) instead of hanging the process.
 */
import fs from 'node:fs';
import type { Dataset, Group, Metadata } from 'h5wasm';
import type { Place } from '../../inspect/shared.js';
import { isKept, openKept } from './kept-file.js';
import { type H5Module, LentRows } from './lent-rows.js';
import type {
  Hdf5Attribute,
  Hdf5Dataset,
  Hdf5Group,
  Hdf5Link,
  Hdf5Type,
  Hdf5TypeClass,
  Hdf5Value,
} from './types.js';

export type { H5Module };

export interface ReadOptions {
  /** Datasets to sample besides those that look like time. */
  sample: string[];
  /** Rows read at each end of a sampled dataset. */
  sampleRows: number;
  /** [N, k] datasets with more columns than this are not sampled. */
  maxColumns: number;
}

export interface RawTree {
  groups: Hdf5Group[];
  datasets: Hdf5Dataset[];
  links: Hdf5Link[];
  /** Objects in the file (only the first 100,000 are read). */
  objects: number;
  /** Bytes the library read from the file for the tree and its samples (the thread counts). */
  bytesRead?: number;
}

/** Rows [start, end) of one dataset: a 1-D one, a column of an [N, k] one, or a compound member. */
export interface SliceRequest {
  /** Absolute path of the dataset. */
  dataset: string;
  /** The column of an [N, k] dataset, else null. */
  column: number | null;
  /** The index of the member of a compound dataset, else null. */
  member: number | null;
  start: number;
  end: number;
}

/**
 * The values of a slice: the typed array the library decodes numbers into (64-bit integers
 * as bigints), else one value a row (a compound member's or text; booleans as 0/1).
 */
export interface SliceValues {
  values: ArrayLike<number> | ArrayLike<bigint> | Array<number | bigint | string | null>;
  /** Set when the library failed on the slice: why (no values then). */
  error?: string;
}

/** Ranges of rows of one dataset (a 1-D one, a column of an [N, k] one, or a compound member). */
export interface RowsRequest {
  dataset: string;
  /** The column of an [N, k] dataset, else null. */
  column: number | null;
  /** The index of the member of a compound dataset, else null. */
  member: number | null;
  /** [start, end) row ranges; their values come back one array per range. */
  ranges: Array<[number, number]>;
}

/** Values of each range: numbers (also booleans as 0/1, 64-bit integers rounded), text or null. */
export interface RowValues {
  values: Array<Array<number | string | null>>;
  /** Set when the library failed on a range: why (the ranges after it are not read). */
  error?: string;
}

/**
 * What a job reads: a file by its path (all of it), or a place (a file's range, a zip
 * member's deflate data, a tar.gz member) of `size` bytes.
 */
export type Hdf5Target = { target: string; size?: undefined } | { target: Place; size: number };

export type Hdf5Job = Hdf5Target &
  (
    | { kind: 'tree'; options: ReadOptions }
    | { kind: 'slice'; request: SliceRequest }
    | { kind: 'rows'; request: RowsRequest }
  );

export type JobResult<T> =
  | { ok: true; value: T }
  | { ok: false; reason: string; wasmFailure: boolean };

/** Attributes larger than this are listed without their value. */
const MAX_ATTRIBUTE_BYTES = 4096;
/** Compound rows larger than this are not sampled. */
const MAX_SAMPLED_ROW_BYTES = 4096;
/** Files with more objects than this are read up to it. */
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

type H5File = InstanceType<H5Module['File']>;

/**
 * Runs one job on the file at `path` in h5wasm's file system (where the worker made the
 * job's target readable). `progress` is called with the rows read so far after each range
 * of a `rows` job. Never throws: a file the library cannot read gives `ok: false`.
 */
export function runHdf5Job(
  h5: H5Module,
  path: string,
  job: Hdf5Job,
  progress: (done: number) => void,
): JobResult<RawTree | SliceValues | RowValues> {
  return asJobResult((): RawTree | SliceValues | RowValues =>
    job.kind === 'tree'
      ? readTree(h5, path, job.options)
      : job.kind === 'rows'
        ? rowsOfRanges(h5, path, job.request, progress)
        : readSlice(h5, path, job.request),
  );
}

/**
 * Runs one read with the library's diagnostics captured: its value, or why it failed (and
 * whether the wasm runtime itself failed, after which the thread is not used again).
 */
export function asJobResult<T>(read: () => T): JobResult<T> {
  const run = quietly(read);
  if (run.error === undefined && run.value) return { ok: true, value: run.value };
  const message = run.error instanceof Error ? run.error.message : String(run.error);
  const wasmFailure =
    (run.error instanceof Error && run.error.name === 'RuntimeError') ||
    /^(Aborted|abort)\b|RuntimeError|memory access out of bounds|unreachable/.test(message);
  return {
    ok: false,
    reason: (lastReason(run.diagnostics) ?? message).split('\n')[0] ?? '',
    wasmFailure,
  };
}

// ---- types and values ----------------------------------------------------------------

/** The neutral type of h5wasm's metadata. */
function typeOfMetadata(m: Metadata): Hdf5Type {
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

function hasReference(t: Hdf5Type): boolean {
  if (t.class === 'reference') return true;
  if (t.base && hasReference(t.base)) return true;
  return (t.members ?? []).some((m) => hasReference(m.type));
}

/** One value as rows carry it. */
function rowValue(v: unknown): number | string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') return v;
  return text(v);
}

// ---- the tree ----------------------------------------------------------------------------

function readTree(h5: H5Module, path: string, options: ReadOptions): RawTree {
  const file = openKept(h5, path);
  const tree: RawTree = { groups: [], datasets: [], links: [], objects: 0 };
  const wanted = new Set(options.sample);
  const rows = Math.max(1, options.sampleRows);
  try {
    tree.groups.push({ path: '/', attributes: readAttributes(file) });
    let names = file.paths();
    tree.objects = names.length;
    if (names.length > MAX_OBJECTS) names = names.slice(0, MAX_OBJECTS);
    for (const name of names) {
      readObject(h5, file, `/${name.replace(/^\/+/, '')}`, tree, (ds, full) =>
        readDataset(ds, full, wanted, rows, options.maxColumns),
      );
    }
  } finally {
    release(file);
  }
  return tree;
}

/** One object of the file: a link, a group or a dataset, added to the tree. */
function readObject(
  h5: H5Module,
  file: H5File,
  full: string,
  tree: RawTree,
  dataset: (ds: Dataset, full: string) => Hdf5Dataset,
): void {
  const symbolic = quietly(() => file.get_link(full));
  if (typeof symbolic.value === 'string' && symbolic.value !== '') {
    tree.links.push({ path: full, kind: 'soft', target: symbolic.value });
    return;
  }
  const e = quietly(() => file.get(full)).value;
  if (!e) return;
  if (e instanceof h5.Group) {
    tree.groups.push({ path: full, attributes: readAttributes(e) });
  } else if (e instanceof h5.Dataset) {
    tree.datasets.push(dataset(e, full));
  } else if ('filename' in e && 'obj_path' in e) {
    tree.links.push({ path: full, kind: 'external', target: `${e.filename}:${e.obj_path}` });
  } else if ('target' in e) {
    tree.links.push({ path: full, kind: 'broken', target: String(e.target) });
  }
}

function readAttributes(obj: Dataset | Group): Hdf5Attribute[] {
  const out: Hdf5Attribute[] = [];
  const attrs = obj.attrs;
  for (const name of Object.keys(attrs)) {
    const attr = attrs[name];
    if (!attr) continue;
    const type = typeOfMetadata(attr.metadata);
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

function readDataset(
  ds: Dataset,
  path: string,
  wanted: Set<string>,
  rows: number,
  maxColumns: number,
): Hdf5Dataset {
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
  if (shouldSample(out, wanted, maxColumns) && meta.shape) {
    sampleEnds(ds, out, meta.shape, rows);
  }
  return out;
}

/** The first and last `rows` rows of a dataset, as text. */
function sampleEnds(ds: Dataset, out: Hdf5Dataset, shape: number[], rows: number): void {
  const n = shape[0] ?? 0;
  const width: Array<[] | [number, number]> = shape.length === 2 ? [[]] : [];
  const dataset = { type: out.type, shape };
  const head = quietly(() => ds.slice([[0, Math.min(rows, n)], ...width]));
  if (head.error === undefined) out.head = rowsOf(head.value, dataset);
  if (n > rows) {
    const tail = quietly(() => ds.slice([[Math.max(rows, n - rows), n], ...width]));
    if (tail.error === undefined) out.tail = rowsOf(tail.value, dataset);
  }
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

function shouldSample(ds: Hdf5Dataset, wanted: Set<string>, maxColumns: number): boolean {
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
    return isNumeric(ds.type) && k >= 2 && k <= maxColumns;
  }
  return false;
}

// ---- the library's diagnostics ---------------------------------------------------------

/**
 * Runs one call with the library's error stack captured: the HDF5 library prints it to
 * stderr, which the Node build of the wasm runtime writes with `fs.writeSync(2, ...)`, and
 * the in-memory build hands to `console.error`, which writes to `process.stderr`.
 */
function quietly<T>(fn: () => T): { value?: T; error?: unknown; diagnostics: string } {
  const stderr = process.stderr;
  const originals = { writeSync: fs.writeSync, write: stderr.write };
  let diagnostics = '';
  const patched = (fd: number, buffer: unknown, ...rest: unknown[]): number => {
    if (fd !== 2) return (originals.writeSync as (...a: unknown[]) => number)(fd, buffer, ...rest);
    if (typeof buffer === 'string') {
      diagnostics += buffer;
      return Buffer.byteLength(buffer);
    }
    if (ArrayBuffer.isView(buffer)) {
      const offset = typeof rest[0] === 'number' ? rest[0] : 0;
      const length = typeof rest[1] === 'number' ? rest[1] : buffer.byteLength - offset;
      diagnostics += Buffer.from(buffer.buffer, buffer.byteOffset + offset, length).toString(
        'utf8',
      );
      return length;
    }
    return 0;
  };
  (fs as { writeSync: unknown }).writeSync = patched;
  stderr.write = ((chunk: unknown) => {
    diagnostics += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString();
    return true;
  }) as typeof stderr.write;
  try {
    return { value: fn(), diagnostics };
  } catch (error) {
    return { error, diagnostics };
  } finally {
    (fs as { writeSync: unknown }).writeSync = originals.writeSync;
    stderr.write = originals.write;
  }
}

/** The most specific reason in an HDF5 error stack (its last `minor:` line), if any. */
function lastReason(diagnostics: string): string | undefined {
  const minors = [...diagnostics.matchAll(/minor:\s*(.+)/g)].map((m) => m[1]?.trim() ?? '');
  const details = [...diagnostics.matchAll(/#\d+:.*?\bin \w+\(\): (.+)/g)].map(
    (m) => m[1]?.trim() ?? '',
  );
  const detail = details.at(-1);
  const minor = minors.at(-1);
  if (detail && minor) return `${detail}: ${minor.toLowerCase()}`;
  return detail ?? minor;
}

/** The first line of why a read failed (cut at 200 characters). */
function failure(error: unknown): string {
  const why = error instanceof Error ? error.message : String(error);
  return why.split('\n')[0]?.slice(0, 200) ?? '';
}

// ---- reading rows ------------------------------------------------------------------------

/** Closes `file` unless the thread keeps it open for its next job (kept-file.ts). */
function release(file: H5File): void {
  if (!isKept(file)) quietly(() => file.close());
}

/** Runs `read` on the dataset at `dataset` (undefined when not one), then releases the file. */
function withDataset<T>(
  h5: H5Module,
  path: string,
  dataset: string,
  read: (ds: Dataset | undefined) => T,
): T {
  const file = openKept(h5, path);
  try {
    const ds = quietly(() => file.get(dataset)).value;
    return read(ds instanceof h5.Dataset ? ds : undefined);
  } finally {
    release(file);
  }
}

/** The slice arguments of rows [a, b) of a 1-D dataset, or of one column of an [N, k] one. */
function rowRanges(a: number, b: number, column: number | null): Array<[number, number]> {
  return column === null
    ? [[a, b]]
    : [
        [a, b],
        [column, column + 1],
      ];
}

function readSlice(h5: H5Module, path: string, r: SliceRequest): SliceValues {
  return withDataset(h5, path, r.dataset, (ds) => {
    // The values leave with the job: copied ones only, no view of the library's memory.
    const lent = LentRows.of(h5);
    try {
      return sliceOf(ds, r, r.start, r.end, lent, false);
    } finally {
      lent?.close();
    }
  });
}

/**
 * Rows [a, b) of the part of `ds` that `r` names; with `lent`, integers and floats through
 * its buffer (LentRows.rows: with `views`, a view of it valid until its next read).
 */
function sliceOf(
  ds: Dataset | undefined,
  r: SliceRequest,
  a: number,
  b: number,
  lent?: LentRows,
  views = true,
): SliceValues {
  if (!ds) return { values: [] };
  const ranges = rowRanges(a, b, r.column);
  if (lent) {
    const direct = quietly(() => lent.rows(ds, ranges, r.member, views));
    if (direct.error !== undefined) return { values: [], error: failure(direct.error) };
    if (direct.value) return { values: direct.value };
  }
  const got = quietly(() => ds.slice(ranges));
  // Say why reading stopped: a scan that ends early must not pass as a clean one.
  if (got.error !== undefined) return { values: [], error: failure(got.error) };
  const v = got.value;
  if (r.member === null && ArrayBuffer.isView(v) && !(v instanceof DataView)) {
    return { values: v as unknown as ArrayLike<number> | ArrayLike<bigint> };
  }
  const items: unknown[] = Array.isArray(v) ? v : [v];
  return {
    values: items.map((x) => sliceValue(r.member !== null && Array.isArray(x) ? x[r.member] : x)),
  };
}

/**
 * Reads rows [start, end) of what `r` names `step` rows at a time, the file opened once,
 * handing each slice to `each` (its values and first row) and its end to `progress`: one
 * slice in memory at a time, its values valid only during `each`. Returns where the library
 * failed, if it did (the rows from there are not read).
 */
export function readSliceRange(
  h5: H5Module,
  path: string,
  r: SliceRequest,
  step: number,
  each: (values: SliceValues['values'], start: number) => void,
  progress: (done: number) => void,
): { from: number; error: string } | undefined {
  return withDataset(h5, path, r.dataset, (ds) => {
    // Each slice is done with before the next is read: one buffer serves them all.
    const lent = LentRows.of(h5);
    try {
      for (let a = r.start; a < r.end; a += step) {
        const b = Math.min(r.end, a + step);
        const got = sliceOf(ds, r, a, b, lent);
        if (got.error !== undefined) return { from: a, error: got.error };
        each(got.values, a);
        progress(b);
      }
      return undefined;
    } finally {
      lent?.close();
    }
  });
}

/** One value of a slice that is not a typed array. */
function sliceValue(v: unknown): number | bigint | string | null {
  return typeof v === 'bigint' ? v : rowValue(v);
}

function rowsOfRanges(
  h5: H5Module,
  path: string,
  r: RowsRequest,
  progress: (done: number) => void,
): RowValues {
  const out: RowValues = { values: [] };
  return withDataset(h5, path, r.dataset, (ds) => {
    if (!ds) return out;
    for (const [a, b] of r.ranges) {
      const got = quietly(() => ds.slice(rowRanges(a, b, r.column)));
      if (got.error !== undefined) {
        out.error = failure(got.error);
        break;
      }
      const items =
        ArrayBuffer.isView(got.value) || Array.isArray(got.value)
          ? Array.from(got.value as ArrayLike<unknown>)
          : [got.value];
      out.values.push(
        items.map((v) => rowValue(r.member !== null && Array.isArray(v) ? v[r.member] : v)),
      );
      progress(b);
    }
    return out;
  });
}
