/** HDF5 files the tests write with h5wasm. */
import { readFileSync } from 'node:fs';
import h5wasm from 'h5wasm/node';

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
