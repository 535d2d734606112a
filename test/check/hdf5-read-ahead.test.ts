/**
 * `check --full` of HDF5 asks for each slice before the one before it is tallied
 * (readPartByPart in src/formats/hdf5/values.ts). A part stops at the first slice the
 * library fails on, as when it read one slice at a time: what was asked for after it is
 * dropped, its error and its values alike. The worker is replaced here by slices made in
 * this file, so that a slice fails where the test says.
 */
import { expect, test, vi } from 'vitest';
import type { SliceRequest, SliceValues } from '../../src/formats/hdf5/reader.js';
import type { Hdf5Dataset } from '../../src/formats/hdf5/types.js';

const ROWS = 200;
const STEP = 50;
/** Rows of `/v` whose slice the library fails on, and a row holding NaN after them. */
const FAILS_FROM = [50, 100];
const NAN_ROW = 150;
const asked: number[] = [];

vi.mock('../../src/formats/hdf5/inspect.js', async (original) => ({
  ...(await original<object>()),
  readHdf5Slice: async (_file: string, r: SliceRequest): Promise<SliceValues> => {
    if (r.dataset === '/v') asked.push(r.start);
    if (r.dataset === '/v' && FAILS_FROM.includes(r.start))
      return { values: [], error: `bad chunk at ${r.start}` };
    const values = Float64Array.from({ length: r.end - r.start }, (_, i) =>
      r.dataset === '/v' && r.start + i === NAN_ROW ? Number.NaN : r.start + i,
    );
    return { values };
  },
}));

const { hdf5ValueIssues } = await import('../../src/formats/hdf5/values.js');

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

test('a part stops at the first slice the library fails on; what was asked for after it is dropped', async () => {
  const issues = await hdf5ValueIssues(
    'f.h5',
    [
      {
        time: { dataset: dataset('/t'), column: undefined, ptr: '/t' },
        channels: [
          {
            dataset: dataset('/v'),
            column: undefined,
            ptr: '/v',
            channel: { dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
            storedType: 'CHANNEL_DATA_TYPE_DOUBLE',
          },
        ],
      },
    ],
    { sliceRows: STEP },
  );
  // The slice after the failing one was asked for (read ahead), and nothing past it.
  expect(asked).toEqual([0, 50, 100]);
  const codes = issues.map((i) => i.code);
  expect(codes).toContain('time_partly_read');
  // Unread from the first failing slice, not the later one, and the NaN past it not counted.
  expect(issues.find((i) => i.code === 'time_partly_read')?.source).toMatchObject({ row: 50 });
  expect(codes).not.toContain('value_not_finite');
});
