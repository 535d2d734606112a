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
