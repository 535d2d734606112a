import { describe, expect, test } from 'vitest';
import { type SegmentSpec, tdmsBytes } from '../../scripts/fixtures/tdms-writer.js';
import { inspectTdmsSource, type TdmsProfile } from '../../src/formats/tdms/inspect.js';
import { countingSource, memorySource } from '../../src/inspect/byte-source.js';
import { InspectError } from '../../src/inspect/profile.js';

const src = (bytes: Uint8Array, name = 'x.tdms') => memorySource(bytes, name);
const summary = (p: TdmsProfile) =>
  p.channels.map((c) => [
    `${c.group}/${c.name}`,
    c.dataType,
    c.valueCount,
    Object.fromEntries(c.properties.map((x) => [x.name, x.value])),
  ]);

const F64 = (count: number) => ({ type: 'f64', count });

describe('TDMS metadata reader', () => {
  test('a metadata block repeated is read as written each time: one that changes a property in between is not taken for the one before', async () => {
    const block = (unit: string, count: number): SegmentSpec => ({
      objects: [
        { path: ['G'] },
        {
          path: ['G', 'v'],
          data: { type: 'f64', count },
          properties: [{ name: 'unit_string', type: 'string', value: unit }],
        },
      ],
    });
    // The same block twice, one changing the unit (same length), one the count, then the first again.
    const specs = [block('mV', 3), block('mV', 3), block('uV', 3), block('mV', 5), block('mV', 3)];
    const at = (n: number) =>
      inspectTdmsSource(memorySource(tdmsBytes(specs.slice(0, n)).data, 'r.tdms'));
    const unitAfter = async (n: number) =>
      (await at(n)).channels[0]?.properties.find((p) => p.name === 'unit_string')?.value;
    expect(await unitAfter(2)).toBe('mV');
    expect(await unitAfter(3)).toBe('uV');
    expect(await unitAfter(5)).toBe('mV');
    expect((await at(5)).channels[0]?.valueCount).toBe(3 + 3 + 3 + 5 + 3);
  });

  test('incremental metadata: kept lists, appended objects, changed properties, same index', async () => {
    const segments: SegmentSpec[] = [
      {
        objects: [
          { path: [], properties: [{ name: 'title', type: 'string', value: 'run' }] },
          { path: ['G'] },
          {
            path: ['G', 'a'],
            data: F64(10),
            properties: [{ name: 'unit_string', type: 'string', value: 'V' }],
          },
          { path: ['G', 'b'], data: { type: 'i16', count: 10 } },
        ],
      },
      {
        newObjList: false,
        objects: [
          {
            path: ['G', 'a'],
            data: 'same',
            properties: [{ name: 'unit_string', type: 'string', value: 'mV' }],
          },
          { path: ['G', 'c'], data: { type: 'u8', count: 5 } },
        ],
        chunks: 2,
      },
      { noMeta: true, objects: [] },
    ];
    const p = await inspectTdmsSource(src(tdmsBytes(segments).data));
    expect(p.segments).toBe(3);
    expect(summary(p)).toEqual([
      ['G/a', 'f64', 40, { unit_string: 'mV' }],
      ['G/b', 'i16', 40, {}],
      ['G/c', 'u8', 15, {}],
    ]);
    expect(p.properties).toEqual([{ name: 'title', type: 'string', value: 'run' }]);
    expect(p.issues).toEqual([]);
  });

  test('a new object list drops channels with no data in later segments from the counts', async () => {
    const { data } = tdmsBytes([
      {
        objects: [
          { path: ['G', 'a'], data: F64(4) },
          { path: ['G', 'b'], data: F64(4) },
        ],
      },
      { objects: [{ path: ['G', 'b'], data: 'same' }] },
    ]);
    const p = await inspectTdmsSource(src(data));
    expect(summary(p)).toEqual([
      ['G/a', 'f64', 4, {}],
      ['G/b', 'f64', 8, {}],
    ]);
  });

  test('big-endian and interleaved segments, strings, timestamps and every property type', async () => {
    const props = [
      { name: 'i8', type: 'i8', value: -5 },
      { name: 'u64', type: 'u64', value: '18446744073709551615' },
      { name: 'i64', type: 'i64', value: -7 },
      { name: 'f32', type: 'f32', value: 1.5 },
      { name: 'ok', type: 'bool', value: true },
      { name: 'start', type: 'timestamp', value: '2024-10-07T17:00:00.123456789Z' },
    ] as const;
    const { data } = tdmsBytes([
      {
        bigEndian: true,
        interleaved: true,
        objects: [
          {
            path: ['G', "it's"],
            data: { type: 'string', count: 3, bytes: 40 },
            properties: [...props],
          },
          { path: ['G', 't'], data: { type: 'timestamp', count: 3 } },
        ],
      },
    ]);
    const p = await inspectTdmsSource(src(data));
    expect(p.layout).toEqual({
      interleaved: true,
      bigEndian: true,
      daqmx: false,
      unfinished: false,
    });
    expect(summary(p)).toEqual([
      [
        "G/it's",
        'string',
        3,
        {
          i8: -5,
          u64: '18446744073709551615',
          i64: -7,
          f32: 1.5,
          ok: true,
          start: '2024-10-07T17:00:00.123456789Z',
        },
      ],
      ['G/t', 'timestamp', 3, {}],
    ]);
  });

  test('DAQmx raw data: scalers, widths and counts from the shared raw buffer', async () => {
    const daqmx = (offset: number) => ({
      daqmx: { count: 100, scalers: [{ type: 3, buffer: 0, offset, scaleId: 0 }], widths: [4] },
    });
    const { data } = tdmsBytes([
      {
        objects: [
          { path: ['D', 'ai0'], data: daqmx(0) },
          { path: ['D', 'ai1'], data: daqmx(2) },
        ],
        chunks: 3,
      },
    ]);
    const p = await inspectTdmsSource(src(data));
    expect(p.layout.daqmx).toBe(true);
    expect(p.channels.map((c) => [c.name, c.dataType, c.valueCount, c.daqmx])).toEqual([
      [
        'ai0',
        'daqmx',
        300,
        {
          digitalLine: false,
          valueCount: 100,
          scalers: [{ type: 'i16', rawBufferIndex: 0, offset: 0, scaleId: 0 }],
          rawDataWidths: [4],
        },
      ],
      [
        'ai1',
        'daqmx',
        300,
        {
          digitalLine: false,
          valueCount: 100,
          scalers: [{ type: 'i16', rawBufferIndex: 0, offset: 2, scaleId: 0 }],
          rawDataWidths: [4],
        },
      ],
    ]);
  });

  test('an unfinished last segment: its data runs to the end of the file', async () => {
    const { data } = tdmsBytes([
      { objects: [{ path: ['G', 'a'], data: F64(2) }] },
      { noMeta: true, objects: [], unfinished: true, chunks: 3 },
    ]);
    const p = await inspectTdmsSource(src(data));
    expect(p.layout.unfinished).toBe(true);
    expect(p.channels[0]?.valueCount).toBe(8);
    expect(p.issues.map((i) => i.code)).toEqual(['tdms_segment_unfinished']);
  });

  test('the index file is read instead of the data file; a stale one is ignored', async () => {
    const segments: SegmentSpec[] = Array.from({ length: 20 }, (_, i) =>
      i === 0
        ? { objects: [{ path: ['G', 'a'], data: F64(1000) }] }
        : { noMeta: true, objects: [] },
    );
    const { data, index } = tdmsBytes(segments);
    const d = countingSource(src(data));
    const p = await inspectTdmsSource(d, src(index, 'x.tdms_index'));
    expect(p.indexFile).toEqual({ path: 'x.tdms_index', used: true });
    expect(p.channels[0]?.valueCount).toBe(20_000);
    expect(d.reads).toBe(1); // the first lead-in, compared with the index's
    const stale = tdmsBytes(segments.slice(0, 5)).index;
    const q = await inspectTdmsSource(src(data), src(stale, 'x.tdms_index'));
    expect(q.indexFile).toEqual({ path: 'x.tdms_index', used: false });
    expect(q.channels[0]?.valueCount).toBe(20_000);
    expect(q.issues.map((i) => i.code)).toEqual(['tdms_index_ignored']);
  });

  test('a cut later segment keeps the earlier ones; a cut first segment is an error', async () => {
    const { data } = tdmsBytes([
      { objects: [{ path: ['G', 'a'], data: F64(2) }] },
      { objects: [{ path: ['G', 'b'], data: F64(2) }] },
    ]);
    const p = await inspectTdmsSource(src(data.subarray(0, data.byteLength - 10)));
    expect(p.channels.map((c) => c.name)).toEqual(['a', 'b']);
    expect(p.channels.map((c) => c.valueCount)).toEqual([2, 0]);
    expect(p.issues.map((i) => i.code)).toEqual(['tdms_segments_unread']);
    const cut = await inspectTdmsSource(src(data.subarray(0, 40))).catch((e: unknown) => e);
    expect(cut).toBeInstanceOf(InspectError);
    expect((cut as InspectError).issue.code).toBe('tdms_truncated');
  });

  test('a cut or damaged segment says which segments were read, and how far', async () => {
    const one = tdmsBytes([{ objects: [{ path: ['G', 'a'], data: F64(100) }] }]).data;
    const cut = await inspectTdmsSource(src(one.subarray(0, one.byteLength - 20)));
    expect(cut.issues.map((i) => [i.code, i.message])).toEqual([
      [
        'tdms_segments_unread',
        `x.tdms: segment 1 (byte 0) is cut short: it says it ends at byte ${one.byteLength}, but the file has ${one.byteLength - 20} bytes; its values up to the end of the file were read`,
      ],
    ]);
    expect(cut.channels[0]?.valueCount).toBe(97);
    const three = tdmsBytes([
      { objects: [{ path: ['G', 'a'], data: F64(2) }] },
      { noMeta: true, objects: [] },
      { noMeta: true, objects: [] },
    ]).data;
    const third = three.byteLength - 44;
    const cutThird = await inspectTdmsSource(src(three.subarray(0, three.byteLength - 1)));
    expect(cutThird.issues.map((i) => i.message)).toEqual([
      `x.tdms: segment 3 (byte ${third}) is cut short: it says it ends at byte ${three.byteLength}, but the file has ${three.byteLength - 1} bytes; its values up to the end of the file were read (after the 2 segments before it)`,
    ]);
    const damaged = three.slice();
    damaged[third + 8] = 0; // the third segment's version
    const bad = await inspectTdmsSource(src(damaged));
    expect(bad.issues.map((i) => i.message)).toEqual([
      `x.tdms: segment 3 (byte ${third}): version 4608 is not a TDMS version (4712 or 4713); the first 2 segments were read, not this one or any after it`,
    ]);
    damaged.copyWithin(third - 44, third); // the second segment damaged the same way
    const bad2 = await inspectTdmsSource(src(damaged));
    expect(bad2.issues.map((i) => i.message)).toEqual([
      `x.tdms: segment 2 (byte ${third - 44}): version 4608 is not a TDMS version (4712 or 4713); the first segment was read, not this one or any after it`,
    ]);
  });

  test('progress every 1024 segments, in bytes of the file', async () => {
    const segments: SegmentSpec[] = Array.from({ length: 2100 }, (_, i) =>
      i === 0 ? { objects: [{ path: ['G', 'a'], data: F64(1) }] } : { noMeta: true, objects: [] },
    );
    const { data } = tdmsBytes(segments);
    const calls: Array<[number, number]> = [];
    await inspectTdmsSource(src(data), undefined, { onProgress: (d, t) => calls.push([d, t]) });
    const first = data.byteLength - 2099 * 36; // the end of the first segment
    expect(calls).toEqual([
      [first + 1023 * 36, data.byteLength],
      [first + 2047 * 36, data.byteLength],
    ]);
  });
});
