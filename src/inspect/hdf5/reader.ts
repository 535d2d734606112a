/**
 * Every read of an HDF5 file through h5wasm, for inspection and for the check stage:
 * - `tree`: groups, datasets (type, shape, chunking, filters, attributes, dimension
 *   scales) and the first and last rows of the datasets that may hold time;
 * - `time-order`: one time dataset (1-D, one column of an [N, k] one, or one compound
 *   member) read whole in slices, counting where time goes backwards; only the counts
 *   leave the function, so memory stays bounded however long the dataset.
 *
 * `runHdf5Job` is self-contained on purpose (it uses nothing from outside its own body
 * but its arguments): the worker runs its source text in a worker thread, so that a
 * damaged file on which the HDF5 library loops forever can be stopped (the worker is
 * terminated) instead of hanging the process.
 */
import type fsModule from 'node:fs';
import type { Dataset, Group, Metadata } from 'h5wasm/node';
import type {
  Hdf5Attribute,
  Hdf5Dataset,
  Hdf5Group,
  Hdf5Link,
  Hdf5Type,
  Hdf5TypeClass,
  Hdf5Value,
} from './types.js';

export type H5Module = typeof import('h5wasm/node')['default'];

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
}

export interface TimeOrderRequest {
  /** Absolute path of the time dataset. */
  dataset: string;
  /** Its rows (the first dimension). */
  rows: number;
  /** The column of an [N, k] dataset, else null. */
  column: number | null;
  /** The index of the member of a compound dataset, else null. */
  member: number | null;
  /** Rows per slice (memory stays bounded by one slice). */
  sliceRows: number;
}

export interface TimeOrder {
  /** Times a value is smaller than the one before it. */
  decreases: number;
  /** 0-based index of the first such value. */
  firstDecrease?: number;
  /** Set when the library failed on a slice: the first row not read, and why. */
  unreadFrom?: number;
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

export type Hdf5Job =
  | { kind: 'tree'; path: string; options: ReadOptions }
  | { kind: 'time-order'; path: string; request: TimeOrderRequest }
  | { kind: 'rows'; path: string; request: RowsRequest };

export type JobResult<T> =
  | { ok: true; value: T }
  | { ok: false; reason: string; wasmFailure: boolean };

/**
 * Runs one job. `progress` is called with the rows read so far after each slice of a
 * `time-order` job. Never throws: a file the library cannot read gives `ok: false`.
 * One long body on purpose: the worker runs this function's source text, so it cannot
 * call module-level steps; it can be split once the worker loads a module file instead.
 */
export function runHdf5Job(
  h5: H5Module,
  fs: typeof fsModule,
  job: Hdf5Job,
  progress: (done: number) => void,
): JobResult<RawTree | TimeOrder | RowValues> {
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

  /** Runs one call with fd 2 captured (the HDF5 library prints its error stack there). */
  function quietly<T>(fn: () => T): { value?: T; error?: unknown; diagnostics: string } {
    const original = fs.writeSync;
    let diagnostics = '';
    const patched = (fd: number, buffer: unknown, ...rest: unknown[]): number => {
      if (fd !== 2) return (original as (...a: unknown[]) => number)(fd, buffer, ...rest);
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
    try {
      return { value: fn(), diagnostics };
    } catch (error) {
      return { error, diagnostics };
    } finally {
      (fs as { writeSync: unknown }).writeSync = original;
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

  function readTree(path: string, options: ReadOptions): RawTree {
    const file = open(path);
    const groups: Hdf5Group[] = [];
    const datasets: Hdf5Dataset[] = [];
    const links: Hdf5Link[] = [];
    const wanted = new Set(options.sample);
    const rows = Math.max(1, options.sampleRows);
    let objects = 0;
    try {
      groups.push({ path: '/', attributes: readAttributes(file) });
      let names = file.paths();
      objects = names.length;
      if (names.length > MAX_OBJECTS) names = names.slice(0, MAX_OBJECTS);
      for (const name of names) {
        const full = `/${name.replace(/^\/+/, '')}`;
        const symbolic = quietly(() => file.get_link(full));
        if (typeof symbolic.value === 'string' && symbolic.value !== '') {
          links.push({ path: full, kind: 'soft', target: symbolic.value });
          continue;
        }
        const e = quietly(() => file.get(full)).value;
        if (!e) continue;
        if (e instanceof h5.Group) {
          groups.push({ path: full, attributes: readAttributes(e) });
        } else if (e instanceof h5.Dataset) {
          datasets.push(readDataset(e, full, wanted, rows, options.maxColumns));
        } else if ('filename' in e && 'obj_path' in e) {
          links.push({ path: full, kind: 'external', target: `${e.filename}:${e.obj_path}` });
        } else if ('target' in e) {
          links.push({ path: full, kind: 'broken', target: String(e.target) });
        }
      }
    } finally {
      file.close();
    }
    return { groups, datasets, links, objects };
  }

  function open(path: string) {
    const file = new h5.File(path, 'r');
    if (file.file_id < 0n) throw new Error('the file could not be opened');
    return file;
  }

  function timeOrder(path: string, r: TimeOrderRequest): TimeOrder {
    const file = open(path);
    let decreases = 0;
    let firstDecrease: number | undefined;
    let failure: { unreadFrom: number; error: string } | undefined;
    try {
      const ds = quietly(() => file.get(r.dataset)).value;
      if (!(ds instanceof h5.Dataset)) return { decreases };
      let prev: number | bigint | undefined;
      const step = Math.max(1, r.sliceRows);
      for (let a = 0; a < r.rows; a += step) {
        const b = Math.min(r.rows, a + step);
        const ranges: Array<[number, number]> =
          r.column === null
            ? [[a, b]]
            : [
                [a, b],
                [r.column, r.column + 1],
              ];
        const got = quietly(() => ds.slice(ranges));
        if (got.error !== undefined) {
          // Say where reading stopped: a scan that ends early must not pass as a clean one.
          const why = got.error instanceof Error ? got.error.message : String(got.error);
          failure = { unreadFrom: a, error: why.split('\n')[0]?.slice(0, 200) ?? '' };
          break;
        }
        const values = got.value as ArrayLike<unknown>;
        for (let i = 0; i < values.length; i++) {
          let v = values[i];
          if (r.member !== null && Array.isArray(v)) v = v[r.member];
          if (typeof v !== 'number' && typeof v !== 'bigint') continue;
          if (prev !== undefined && v < prev) {
            decreases += 1;
            firstDecrease ??= a + i;
          }
          prev = v;
        }
        progress(b);
      }
    } finally {
      quietly(() => file.close());
    }
    return {
      decreases,
      ...(firstDecrease === undefined ? {} : { firstDecrease }),
      ...(failure ?? {}),
    };
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

  function rowsOfRanges(path: string, r: RowsRequest): RowValues {
    const file = open(path);
    const out: RowValues = { values: [] };
    try {
      const ds = quietly(() => file.get(r.dataset)).value;
      if (!(ds instanceof h5.Dataset)) return out;
      for (const [a, b] of r.ranges) {
        const ranges: Array<[number, number]> =
          r.column === null
            ? [[a, b]]
            : [
                [a, b],
                [r.column, r.column + 1],
              ];
        const got = quietly(() => ds.slice(ranges));
        if (got.error !== undefined) {
          const why = got.error instanceof Error ? got.error.message : String(got.error);
          out.error = why.split('\n')[0]?.slice(0, 200) ?? '';
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
    } finally {
      quietly(() => file.close());
    }
    return out;
  }

  const run = quietly((): RawTree | TimeOrder | RowValues =>
    job.kind === 'tree'
      ? readTree(job.path, job.options)
      : job.kind === 'rows'
        ? rowsOfRanges(job.path, job.request)
        : timeOrder(job.path, job.request),
  );
  if (run.error !== undefined || !run.value) {
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
  return { ok: true, value: run.value };
}
