/**
 * HDF5 inspection: the tree of groups and datasets, each dataset's type, shape, chunking,
 * filters and attributes, and the first and last few elements of the datasets that may
 * hold time. Everything else stays on disk.
 *
 * h5wasm (the HDF5 C library compiled to wasm) does its own positioned reads, synchronously,
 * so it cannot go through our (asynchronous) ByteSource. The byte source is still used
 * first: the signature, the superblock and the end-of-file address are checked there, so
 * an empty, foreign or truncated file gets a clear error without loading the wasm module at
 * all. The HDF5 library then runs in a worker thread (loaded on the first HDF5 file), with
 * a time limit: on some damaged metadata it loops forever, and the worker is stopped. The
 * worker reads the source's bytes itself where they are (its `place`: a file, a range of
 * one, a zip member's deflate data, a tar.gz member), so an archive's member is read in
 * place, never extracted; a source whose bytes are only in memory is refused.
 */
import { stat } from 'node:fs/promises';
import {
  type BaseProfile,
  type ByteSource,
  type FieldProfile,
  IN_MEMORY,
  InspectError,
  isCompressedPlace,
  refuseEmptyFile,
  throughSource,
} from '../../inspect/shared.js';
import { type Issue, issue } from '../../model/plain.js';
import type { Hdf5Target, RowsRequest, RowValues, SliceRequest, SliceValues } from './reader.js';
import type { RangeTally, TallyRequest } from './slice-tally.js';
import { readSuperblock, type Superblock, type SuperblockProblem } from './superblock.js';
import type { Hdf5Dataset, Hdf5Group, Hdf5Link, Hdf5Type } from './types.js';
import {
  type Hdf5Thread,
  readRowsInWorker,
  readSliceInWorker,
  readTreeInWorker,
  tallyInWorker,
} from './worker.js';

export type { RowsRequest, RowValues, SliceRequest, SliceValues } from './reader.js';
export type {
  Hdf5Attribute,
  Hdf5Dataset,
  Hdf5Group,
  Hdf5Link,
  Hdf5Type,
  Hdf5TypeClass,
  Hdf5Value,
} from './types.js';

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

/** The name of a file or a source in messages: a path, or the source's (a member's path). */
function nameOf(file: string | ByteSource): string {
  return typeof file === 'string' ? file : file.name;
}

/**
 * What the worker reads: a path as it is, a source where its bytes are. A source that is a
 * whole file (a folder's) is read by its path, as a file given by path is (the worker
 * reads those faster). The library reads at random, so a compressed member (a deflated zip
 * member, a tar.gz member) is inflated once: up to IN_MEMORY bytes by the worker's reader,
 * which keeps them; a larger one into a private temp file (ByteSource.spill, removed when
 * the member's source closes), read as a file. Stored zip and plain tar members are read in
 * place.
 */
async function targetOf(file: string | ByteSource): Promise<Hdf5Target> {
  if (typeof file === 'string') return { target: file };
  const place = file.place;
  if (!place)
    throw unreadable(file.name, 'its bytes are only in memory, and the library reads files');
  if (isCompressedPlace(place) && file.size > IN_MEMORY && file.spill)
    return { target: await file.spill() };
  if (place.kind === 'file' && place.start === 0) {
    const size = await stat(place.path).then(
      (s) => s.size,
      () => -1,
    );
    if (size === file.size) return { target: place.path };
  }
  return { target: place, size: file.size };
}

/**
 * Checks the file through a byte source (its own, or the one given, which stays open);
 * throws InspectError for empty, foreign and cut files.
 */
export async function checkHdf5File(
  file: string | ByteSource,
): Promise<{ size: number; bytesRead: number; superblock: Superblock }> {
  return throughSource(file, checkSource);
}

async function checkSource(
  source: ByteSource,
): Promise<{ size: number; bytesRead: number; superblock: Superblock }> {
  const path = source.name;
  const before = source.bytesRead;
  // An empty file is refused as every command refuses it (`file_empty`).
  refuseEmptyFile(source, path);
  const result = await readSuperblock(source);
  if (!result.ok) throw superblockError(path, result.problem);
  return {
    size: source.size,
    bytesRead: source.bytesRead - before,
    superblock: result.superblock,
  };
}

function superblockError(path: string, p: SuperblockProblem): InspectError {
  switch (p.kind) {
    case 'empty': // refused before
    case 'signature':
      return inspectError(
        path,
        'hdf5_signature_missing',
        `${path}: not an HDF5 file (no HDF5 signature at byte 0, 512, 1024 ...)`,
        'Check that this is the data file you meant; netCDF-3 files are not HDF5.',
      );
    case 'invalid':
      return inspectError(
        path,
        'hdf5_superblock_invalid',
        `${path}: the HDF5 superblock is invalid (${p.detail})`,
      );
    case 'truncated':
      return inspectError(
        path,
        'hdf5_truncated',
        `${path}: truncated HDF5 file: ${p.actual} bytes, but its superblock says it ends at byte ${p.expected}`,
        'Copy the file again; it was cut short.',
      );
  }
}

/**
 * Inspects an HDF5 file (also netCDF-4), by its path or through a byte source with a place
 * (an archive's member, read in place). Throws InspectError when the file is empty, not
 * HDF5, truncated or unreadable, or when the HDF5 library does not finish in time; never
 * lets the library's diagnostics reach stderr.
 */
export async function inspectHdf5(
  file: string | ByteSource,
  options: Hdf5InspectOptions = {},
): Promise<Hdf5Profile> {
  const path = nameOf(file);
  const checked = await checkHdf5File(file);
  const result = await readTreeInWorker(
    await targetOf(file),
    {
      sample: options.sample ?? [],
      sampleRows: options.sampleRows ?? 3,
      maxColumns: MAX_TWO_D_COLUMNS,
    },
    options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  );
  if (!result.ok) throw unreadable(path, result.reason);
  const { groups, datasets, links, objects, bytesRead = 0 } = result.value;
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
      ...(d.shape ? { shape: d.shape } : {}),
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
    // The superblock's check through the byte source, then what the library read itself.
    bytesRead: checked.bytesRead + bytesRead,
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
  file: string | ByteSource,
  request: SliceRequest,
  options: { timeoutMs?: number } = {},
): Promise<SliceValues> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const result = await readSliceInWorker(await targetOf(file), request, timeoutMs);
  if (!result.ok) throw unreadable(nameOf(file), result.reason);
  return result.value;
}

/**
 * Reads a range of rows of one part in `thread` into a tally (slice-tally.ts), a slice at a
 * time with the time limit of `inspectHdf5` on each: `check --full` with several jobs.
 * Throws InspectError (`hdf5_unreadable`) when the library fails or stalls, as
 * `readHdf5Slice`; a slice the library reports an error on ends the range (`unread`).
 */
export async function tallyHdf5Range(
  file: string | ByteSource,
  thread: Hdf5Thread,
  request: TallyRequest,
  options: { timeoutMs?: number; onProgress?: (done: number) => void } = {},
): Promise<RangeTally> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const target = await targetOf(file);
  const result = await tallyInWorker(thread, target, request, timeoutMs, options.onProgress);
  if (!result.ok) throw unreadable(nameOf(file), result.reason);
  return result.value;
}

/**
 * Reads ranges of rows of one dataset (a 1-D one, a column of an [N, k] one, or a compound
 * member) in the worker, with the time limit of `inspectHdf5` applied to each range. The
 * caller keeps the ranges small (memory is that of the values returned). Throws
 * InspectError (`hdf5_unreadable`) when the library fails or stalls.
 */
export async function readHdf5Rows(
  file: string | ByteSource,
  request: RowsRequest,
  options: { timeoutMs?: number } = {},
): Promise<RowValues> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const result = await readRowsInWorker(await targetOf(file), request, timeoutMs);
  if (!result.ok) throw unreadable(nameOf(file), result.reason);
  return result.value;
}
