/** HDF5 files the tests write with h5wasm. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import h5wasm from 'h5wasm/node';
import type { Hdf5Dataset, Hdf5Profile } from '../../src/formats/hdf5/inspect.js';
import type { ReadGroup } from '../../src/formats/hdf5/values.js';
import type { ChannelDataType } from '../../src/model/index.js';
import { platformExamples } from './paths.js';

/**
 * Writes an HDF5 file at `path` with two chunked 1-D datasets of `rows` rows, `/time`
 * (nanoseconds from 2023-11-14, a millisecond apart) and `/value` (floats), and returns
 * its bytes.
 */
export async function timeAndValues(path: string, rows: number, chunk: number): Promise<Buffer> {
  await h5wasm.ready;
  const f = new h5wasm.File(path, 'w');
  try {
    const time = new BigInt64Array(rows);
    const value = new Float64Array(rows);
    for (let i = 0; i < rows; i++) {
      time[i] = 1_700_000_000_000_000_000n + BigInt(i) * 1_000_000n;
      value[i] = Math.sin(i / 7) * 1000 + (i % 13);
    }
    f.create_dataset({ name: 'time', data: time, chunks: [chunk] });
    f.create_dataset({ name: 'value', data: value, chunks: [chunk] });
  } finally {
    f.close();
  }
  return readFileSync(path);
}

/**
 * Writes an HDF5 file at `path` as a logger does, appending `step` rows at a time to
 * `/time` and `/value` in turn (resizable, chunked and deflated datasets): their chunks and
 * the chunk indexes that find them lie interleaved through the file. Returns its bytes.
 */
export async function appendedTimeAndValues(
  path: string,
  rows: number,
  step: number,
): Promise<Buffer> {
  await h5wasm.ready;
  const f = new h5wasm.File(path, 'w');
  try {
    const shape = { shape: [0], maxshape: [null], chunks: [step], compression: 1 };
    const time = f.create_dataset({ name: 'time', data: new BigInt64Array(0), ...shape });
    const value = f.create_dataset({ name: 'value', data: new Float64Array(0), ...shape });
    for (let at = 0; at < rows; at += step) {
      const n = Math.min(step, rows - at);
      const t = new BigInt64Array(n);
      const v = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        t[i] = 1_700_000_000_000_000_000n + BigInt(at + i) * 1_000_000n;
        v[i] = Math.sin((at + i) / 7) * 1000 + ((at + i) % 13);
      }
      time.resize([at + n]);
      time.write_slice([[at, at + n]], t);
      value.resize([at + n]);
      value.write_slice([[at, at + n]], v);
    }
  } finally {
    f.close();
  }
  return readFileSync(path);
}

/** A channel of `readGroupOf`: its dataset, where findings point, its judged and stored types. */
export type GroupChannel = [path: string, ptr: string, dataType: string, storedType: string];

/**
 * The values of `profile`'s datasets as check --full reads them (values.ts `ReadGroup`): the
 * time dataset at `time` (findings at `/t`) and the channels, each a 1-D dataset.
 */
export function readGroupOf(
  profile: Hdf5Profile,
  time: string,
  channels: readonly GroupChannel[],
): ReadGroup {
  const ds = (p: string) => profile.datasets.find((d) => d.path === p) as Hdf5Dataset;
  return {
    time: { dataset: ds(time), column: undefined, ptr: '/t' },
    channels: channels.map(([path, ptr, dataType, storedType]) => ({
      dataset: ds(path),
      column: undefined,
      ptr,
      channel: { dataType: dataType as ChannelDataType },
      storedType: storedType as ChannelDataType,
    })),
  };
}

/**
 * Writes at `path` the platform's one-dimensional example with one byte changed in the
 * global heap of a string attribute: the HDF5 library loops forever on it.
 */
export function writeLoopingHdf5(path: string): void {
  const bytes = Buffer.from(readFileSync(join(platformExamples, 'hdf5-one-d.h5')));
  bytes[2984] = 161;
  writeFileSync(path, bytes);
}
