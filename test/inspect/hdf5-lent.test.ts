/**
 * `readSliceRange` reads integer and float datasets into one buffer of the library's memory
 * (lent-rows.ts) instead of through `Dataset.slice`: for every integer and float type, whole
 * 1-D datasets and one column of [N, k] ones, in slices of any size, the values are those
 * `slice` gives; other types still go through `slice`. (h5wasm writes no big-endian dataset;
 * for one, the lent read makes the call and the view `slice` makes.) A compound member of
 * an integer or float type is copied out of that buffer, by a slice job and by
 * `readSliceRange` alike, whether its members lie at offsets of their size or packed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import h5wasm from 'h5wasm/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeHdf5 } from '../../scripts/fixtures/hdf5.js';
import { registerLibrary } from '../../src/formats/hdf5/lent-rows.js';
import { readSliceRange, runHdf5Job, type SliceRequest } from '../../src/formats/hdf5/reader.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-h5-lent-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** h5wasm's dtype strings of every integer and float size. */
const DTYPES = ['<b', '<B', '<h', '<H', '<i', '<I', '<q', '<Q', '<f', '<d'];
const ROWS = 97;
const path = join(dir, 'types.h5');

/** Values that fill each type's range, with NaN and infinities for floats. */
function dataOf(dtype: string, n: number): ArrayLike<number> | BigInt64Array | BigUint64Array {
  const at = (i: number) => ((i * 2_654_435_761) % 4_294_967_291) - 2_147_483_645;
  if (dtype.endsWith('q')) return BigInt64Array.from({ length: n }, (_, i) => BigInt(at(i)) << 24n);
  if (dtype.endsWith('Q')) return BigUint64Array.from({ length: n }, (_, i) => BigInt(i) << 60n);
  if (/[fd]$/.test(dtype)) {
    return Float64Array.from({ length: n }, (_, i) =>
      i % 11 === 3 ? Number.NaN : i % 13 === 5 ? -Infinity : at(i) / 7,
    );
  }
  const bits = { b: 8, B: 8, h: 16, H: 16, i: 32, I: 32 }[dtype.slice(1)] ?? 32;
  const signed = dtype[1] === (dtype[1] as string).toLowerCase();
  return Array.from({ length: n }, (_, i) => {
    const v = BigInt(at(i)) & ((1n << BigInt(bits)) - 1n);
    return Number(signed && v >= 1n << BigInt(bits - 1) ? v - (1n << BigInt(bits)) : v);
  });
}

beforeAll(async () => {
  await h5wasm.ready;
  const f = new h5wasm.File(path, 'w');
  for (const dtype of DTYPES) {
    const one = dataOf(dtype, ROWS);
    f.create_dataset({ name: `one${dtype}`, data: one as never, dtype });
    const three = dataOf(dtype, ROWS * 3);
    f.create_dataset({ name: `three${dtype}`, data: three as never, shape: [ROWS, 3], dtype });
  }
  f.create_dataset({ name: 'text', data: Array.from({ length: ROWS }, (_, i) => `t${i}`) });
  for (const [name, members] of Object.entries(COMPOUNDS)) {
    f.create_dataset({ name, data: new Map(members) as never });
  }
  f.close();
});

/**
 * Compounds of every integer and float size: `packed`, each member right after the one
 * before (a float64 at byte 1, ...); `aligned`, each at an offset of its size.
 */
const COMPOUNDS: Record<string, Array<[string, ArrayBufferView]>> = {
  packed: [
    ['b', Int8Array.from({ length: ROWS }, (_, i) => (i % 256) - 128)],
    ['x', Float64Array.from({ length: ROWS }, (_, i) => (i % 7 === 2 ? Number.NaN : i / 3))],
    ['s', Int16Array.from({ length: ROWS }, (_, i) => i * 331 - 16_000)],
    ['q', BigInt64Array.from({ length: ROWS }, (_, i) => BigInt(i) * 1_000_000_000_007n - 5n)],
    ['f', Float32Array.from({ length: ROWS }, (_, i) => i * 0.25)],
    ['u', Uint32Array.from({ length: ROWS }, (_, i) => 4_294_967_295 - i)],
    ['B', Uint8Array.from({ length: ROWS }, (_, i) => i)],
    ['Q', BigUint64Array.from({ length: ROWS }, (_, i) => BigInt(i) << 58n)],
  ],
  aligned: [
    ['t', BigInt64Array.from({ length: ROWS }, (_, i) => 1_700_000_000_000_000_000n + BigInt(i))],
    ['a', Float64Array.from({ length: ROWS }, (_, i) => -i)],
    ['i', Int32Array.from({ length: ROWS }, (_, i) => i - 50)],
    ['j', Uint16Array.from({ length: ROWS }, (_, i) => i * 600)],
    ['k', Uint16Array.from({ length: ROWS }, (_, i) => i)],
  ],
};

/** Every value `readSliceRange` hands over, copied out as they come. */
function read(req: SliceRequest, step: number): Array<number | bigint | string | null> {
  const out: Array<number | bigint | string | null> = [];
  const failed = readSliceRange(
    h5wasm,
    path,
    req,
    step,
    (values) => {
      for (let i = 0; i < values.length; i++) out.push(values[i] as number | bigint | string);
    },
    () => {},
  );
  expect(failed).toBeUndefined();
  return out;
}

describe('readSliceRange lends its values from one buffer', () => {
  test('property: the values of Dataset.slice, for every numeric type, column and slice size', async () => {
    const request = fc.record({
      dtype: fc.constantFrom(...DTYPES),
      column: fc.constantFrom(null, 0, 1, 2),
      start: fc.integer({ min: 0, max: ROWS - 1 }),
      length: fc.integer({ min: 1, max: ROWS }),
      step: fc.integer({ min: 1, max: 40 }),
    });
    const cases = fc.sample(request, 60);
    // First through `slice` (no library registered yet), then lent.
    const sliced = cases.map((c) => read(requestOf(c), c.step));
    registerLibrary(h5wasm, await h5wasm.ready);
    cases.forEach((c, k) => {
      expect(read(requestOf(c), c.step)).toEqual(sliced[k]);
    });
    // Text is no integer or float: it still comes through `slice`.
    const text = read({ dataset: '/text', column: null, member: null, start: 2, end: 5 }, 2);
    expect(text).toEqual(['t2', 't3', 't4']);
  });
});

function requestOf(c: { dtype: string; column: number | null; start: number; length: number }) {
  return {
    dataset: c.column === null ? `/one${c.dtype}` : `/three${c.dtype}`,
    column: c.column,
    member: null,
    start: c.start,
    end: Math.min(ROWS, c.start + c.length),
  };
}

describe('compound members of integers and floats are copied out of the buffer', () => {
  test('property: each member as written, through readSliceRange and a slice job', async () => {
    registerLibrary(h5wasm, await h5wasm.ready);
    const request = fc.record({
      name: fc.constantFrom(...Object.keys(COMPOUNDS)),
      member: fc.nat({ max: 7 }),
      start: fc.integer({ min: 0, max: ROWS - 1 }),
      length: fc.integer({ min: 1, max: ROWS }),
      step: fc.integer({ min: 1, max: 40 }),
    });
    for (const c of fc.sample(request, 80)) {
      const members = COMPOUNDS[c.name] as Array<[string, ArrayBufferView]>;
      const member = c.member % members.length;
      const end = Math.min(ROWS, c.start + c.length);
      const values = (members[member] as [string, unknown])[1] as ArrayLike<number | bigint>;
      const written = Array.from(values).slice(c.start, end);
      const req = { dataset: `/${c.name}`, column: null, member, start: c.start, end };
      expect(read(req, c.step)).toEqual(written);
      const job = runHdf5Job(h5wasm, path, { target: path, kind: 'slice', request: req }, () => {});
      const sliced = job.ok && 'values' in job.value ? job.value.values : undefined;
      // An array of its own (it may leave the thread), holding the member's values.
      expect(ArrayBuffer.isView(sliced)).toBe(true);
      expect(Array.from(sliced as ArrayLike<number | bigint>)).toEqual(written);
    }
  });
});

test('a compound member of an enum type (h5py booleans, named codes) is read as its base integers', async () => {
  registerLibrary(h5wasm, await h5wasm.ready);
  // h5wasm writes no enum: the fixture writer patches the last member's type in place.
  const flags = join(dir, 'flags.h5');
  const codes = join(dir, 'codes.h5');
  const at = Array.from({ length: ROWS }, (_, i) => BigInt(i) * 1_000_000n);
  const ok = Array.from({ length: ROWS }, (_, i) => i % 3 === 0);
  const mode = Array.from({ length: ROWS }, (_, i) => [0, 1, 2, 7][i % 4] as number);
  await writeHdf5(flags, [
    {
      path: '/rec',
      kind: 'compound',
      members: [
        { name: 'at', kind: 'int64', values: at },
        { name: 'ok', kind: 'bool', values: ok },
      ],
    },
  ]);
  await writeHdf5(codes, [
    {
      path: '/rec',
      kind: 'compound',
      members: [
        { name: 'x', kind: 'float32', values: mode.map((m) => m / 2) },
        {
          name: 'mode',
          kind: 'enum',
          values: mode,
          enumMembers: { IDLE: 0, RUN: 1, STOP: 2, FAULT: 7 },
        },
      ],
    },
  ]);
  for (const [file, want] of [
    [flags, ok.map((b) => (b ? 1 : 0))],
    [codes, mode],
  ] as const) {
    const req = { dataset: '/rec', column: null, member: 1, start: 5, end: ROWS };
    const job = runHdf5Job(h5wasm, file, { target: file, kind: 'slice', request: req }, () => {});
    const sliced = job.ok && 'values' in job.value ? job.value.values : undefined;
    expect(ArrayBuffer.isView(sliced)).toBe(true);
    expect(Array.from(sliced as ArrayLike<number>)).toEqual(want.slice(5));
    const out: unknown[] = [];
    readSliceRange(
      h5wasm,
      file,
      req,
      7,
      (v) => out.push(...Array.from(v as ArrayLike<number>)),
      () => {},
    );
    expect(out).toEqual(want.slice(5));
  }
});
