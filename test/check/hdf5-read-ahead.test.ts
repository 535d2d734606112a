/**
 * `check --full` of HDF5 asks for each slice before the one before it is tallied
 * (readPartByPart in src/formats/hdf5/values.ts). A part stops at the first slice the
 * library fails on, as when it read one slice at a time: what was asked for after it is
 * dropped, its error and its values alike. The slices are made here, so that one fails
 * where the test says (the library fails on a damaged chunk only now and then).
 */
import { expect, test } from 'vitest';
import type { SliceRequest, SliceValues } from '../../src/formats/hdf5/reader.js';
import type { Hdf5Dataset } from '../../src/formats/hdf5/types.js';
import { type PartState, readPartByPart } from '../../src/formats/hdf5/values.js';

const ROWS = 200;
const STEP = 50;

function dataset(path: string): Hdf5Dataset {
  return {
    path,
    name: path.slice(1),
    type: { class: 'float', size: 8, littleEndian: true },
    shape: [ROWS],
    maxshape: [ROWS],
    chunks: [STEP],
    filters: [],
    attributes: [],
    isDimensionScale: false,
  };
}

/** A part of ROWS rows that writes down the first row of each slice it is fed. */
function part(path: string, fed: string[]): PartState {
  return {
    read: { dataset: dataset(path), column: undefined, ptr: path },
    rows: ROWS,
    feed: (_chunk, base) => fed.push(`${path}@${base}`),
  };
}

test('a part stops at the first slice the library fails on; what was asked for after it is dropped', async () => {
  const asked: string[] = [];
  const fed: string[] = [];
  // `/v` fails from row 50 on (its slices at 50 and 100 both give errors); `/w` reads.
  const read = async (r: SliceRequest): Promise<SliceValues> => {
    asked.push(`${r.dataset}@${r.start}`);
    if (r.dataset === '/v' && r.start >= STEP) return { values: [], error: `bad at ${r.start}` };
    return { values: new Float64Array(r.end - r.start) };
  };
  const v = part('/v', fed);
  const w = part('/w', fed);
  await readPartByPart(read, [v, w], { sliceRows: STEP }, () => {});
  // The slice after the failing one was asked for (read ahead), and none of `/v` past it.
  expect(asked).toEqual(['/v@0', '/v@50', '/v@100', '/w@0', '/w@50', '/w@100', '/w@150']);
  expect(fed).toEqual(['/v@0', '/w@0', '/w@50', '/w@100', '/w@150']);
  // Unread from the first failing slice, not from the one asked for after it.
  expect(v.unread).toEqual({ from: 50, error: 'bad at 50' });
  expect(w.unread).toBeUndefined();
});

test('a read that throws after a failed slice of its part is dropped; one that throws before it is not', async () => {
  const read = async (r: SliceRequest): Promise<SliceValues> => {
    if (r.start === 50) return { values: [], error: 'bad' };
    if (r.start === 100) throw new Error('stopped at the time limit');
    return { values: new Float64Array(r.end - r.start) };
  };
  const v = part('/v', []);
  await readPartByPart(read, [v], { sliceRows: STEP }, () => {});
  expect(v.unread).toEqual({ from: 50, error: 'bad' });
  const throwsFirst = async (r: SliceRequest): Promise<SliceValues> => {
    if (r.start === 50) throw new Error('stopped at the time limit');
    return { values: new Float64Array(r.end - r.start) };
  };
  await expect(
    readPartByPart(throwsFirst, [part('/v', [])], { sliceRows: STEP }, () => {}),
  ).rejects.toThrow('stopped at the time limit');
});
