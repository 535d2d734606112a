/**
 * HDF5 inspection: the tree of groups and datasets, each dataset's type, shape, chunking,
 * filters and attributes, and the first and last few elements of the datasets that may
 * hold time. Everything else stays on disk.
 *
 * h5wasm (the HDF5 C library compiled to wasm) does its own positioned reads on the host
 * path, so it cannot go through our ByteSource. The byte source is still used first: the
 * signature, the superblock and the end-of-file address are checked there, so an empty,
 * foreign or truncated file gets a clear error without loading the wasm module at all.
 * The HDF5 library then runs in a worker thread (loaded on the first HDF5 file), with a
 * time limit: on some damaged metadata it loops forever, and the worker is stopped.
 */
import { type Issue, issue } from '../model/plain.js';
import { openForInspection, refuseEmptyFile } from './byte-source.js';
import type { RowsRequest, RowValues, SliceRequest, SliceValues } from './hdf5/reader.js';
import { readSuperblock, type Superblock } from './hdf5/superblock.js';
import type { Hdf5Dataset, Hdf5Group, Hdf5Link, Hdf5Type } from './hdf5/types.js';
import { readRowsInWorker, readSliceInWorker, readTreeInWorker } from './hdf5/worker.js';
import { type BaseProfile, type FieldProfile, InspectError } from './profile.js';

export type { RowsRequest, RowValues, SliceRequest, SliceValues } from './hdf5/reader.js';
export type {
  Hdf5Attribute,
  Hdf5Dataset,
  Hdf5Group,
  Hdf5Link,
  Hdf5Type,
  Hdf5TypeClass,
  Hdf5Value,
} from './hdf5/types.js';

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
  /** Time limit of the HDF5 library's reading, in ms (default 60 000). */
  timeoutMs?: number;
}

/** Time limit of the HDF5 library's reading when none is given, in ms. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** [N, k] datasets with more columns than this are not sampled (images, matrices). */
export const MAX_TWO_D_COLUMNS = 64;

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

function unreadable(path: string, reason: string): InspectError {
  return inspectError(
    path,
    'hdf5_unreadable',
    `${path}: the HDF5 library cannot read the file (${reason})`,
    'Check that the file opens with `h5dump -H`; write it again if it does not.',
  );
}

/** Checks the file through the byte source; throws InspectError for empty, foreign and cut files. */
export async function checkHdf5File(
  path: string,
): Promise<{ size: number; bytesRead: number; superblock: Superblock }> {
  const source = await openForInspection(path);
  try {
    // An empty file is refused as every command refuses it (`file_empty`).
    refuseEmptyFile(source, path);
    const result = await readSuperblock(source);
    if (!result.ok) {
      const p = result.problem;
      switch (p.kind) {
        case 'empty': // refused above
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
 * HDF5, truncated or unreadable, or when the HDF5 library does not finish in time; never
 * lets the library's diagnostics reach stderr.
 */
export async function inspectHdf5(
  path: string,
  options: Hdf5InspectOptions = {},
): Promise<Hdf5Profile> {
  const checked = await checkHdf5File(path);
  const result = await readTreeInWorker(
    path,
    {
      sample: options.sample ?? [],
      sampleRows: options.sampleRows ?? 3,
      maxColumns: MAX_TWO_D_COLUMNS,
    },
    options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  );
  if (!result.ok) throw unreadable(path, result.reason);
  const { groups, datasets, links, objects } = result.value;
  const issues: Issue[] = [];
  if (objects > 100_000) {
    issues.push(
      issue(
        'hdf5_dataset_skipped',
        '',
        `${path}: ${objects} objects; only the first 100000 were inspected`,
        { source: { file: path } },
      ),
    );
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

/**
 * Reads rows [start, end) of one dataset (a 1-D one, a column of an [N, k] one, or a
 * compound member) in the worker, with the time limit of `inspectHdf5`: `check --full`
 * reads whole datasets a slice at a time, so memory stays bounded by one slice. Throws
 * InspectError (`hdf5_unreadable`) when the library fails or stalls; a slice the library
 * reports an error on comes back with `error`.
 */
export async function readHdf5Slice(
  path: string,
  request: SliceRequest,
  options: { timeoutMs?: number } = {},
): Promise<SliceValues> {
  const result = await readSliceInWorker(path, request, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  if (!result.ok) throw unreadable(path, result.reason);
  return result.value;
}

/**
 * Reads ranges of rows of one dataset (a 1-D one, a column of an [N, k] one, or a compound
 * member) in the worker, with the time limit of `inspectHdf5` applied to each range. The
 * caller keeps the ranges small (memory is that of the values returned). Throws
 * InspectError (`hdf5_unreadable`) when the library fails or stalls.
 */
export async function readHdf5Rows(
  path: string,
  request: RowsRequest,
  options: { timeoutMs?: number } = {},
): Promise<RowValues> {
  const result = await readRowsInWorker(path, request, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  if (!result.ok) throw unreadable(path, result.reason);
  return result.value;
}
