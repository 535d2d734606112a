/**
 * Generated TDMS object trees (groups, channels of every type, waveform or timestamp
 * timing, units, descriptions, names with quotes and slashes), written by the writer of the
 * test tooling in one segment or incrementally, little- or big-endian, then inferred back
 * with either way of naming channels: the draft must be exactly the one the tree implies.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import {
  type ObjectSpec,
  type PropSpec,
  type SegmentSpec,
  tdmsBytes,
} from '../../scripts/fixtures/tdms-writer.js';
import { draftFromTdmsProfile } from '../../src/formats/tdms/infer.js';
import { inspectTdmsSource } from '../../src/formats/tdms/inspect.js';
import type { TdmsNames } from '../../src/infer/types.js';
import { memorySource } from '../../src/inspect/byte-source.js';
import type { ChannelDataType } from '../../src/model/enums.js';
import type { TdmsDataEntry } from '../../src/model/tdms.js';

const TYPES: Record<string, ChannelDataType> = {
  i8: 'CHANNEL_DATA_TYPE_INT_32',
  i16: 'CHANNEL_DATA_TYPE_INT_32',
  i32: 'CHANNEL_DATA_TYPE_INT_32',
  i64: 'CHANNEL_DATA_TYPE_INT_64',
  u8: 'CHANNEL_DATA_TYPE_UINT_32',
  u16: 'CHANNEL_DATA_TYPE_UINT_32',
  u32: 'CHANNEL_DATA_TYPE_UINT_32',
  u64: 'CHANNEL_DATA_TYPE_UINT_64',
  f32: 'CHANNEL_DATA_TYPE_FLOAT',
  f64: 'CHANNEL_DATA_TYPE_DOUBLE',
  bool: 'CHANNEL_DATA_TYPE_BOOL',
  string: 'CHANNEL_DATA_TYPE_STRING',
  'complex-f32': 'CHANNEL_DATA_TYPE_FLOAT',
  'complex-f64': 'CHANNEL_DATA_TYPE_DOUBLE',
};

interface Channel {
  name: string;
  type: string;
  units: string;
  description: string;
  count: number;
}
interface Group {
  name: string;
  /** A timestamp channel timing the others; else every channel is a waveform. */
  time?: string | undefined;
  channels: Channel[];
}

const name = fc.string({ minLength: 1, maxLength: 8, unit: 'binary' });
const channel = fc.record({
  name,
  type: fc.constantFrom(...Object.keys(TYPES)),
  units: fc.constantFrom('', 'V', 'A', 'µm/s', "it's"),
  description: fc.constantFrom('', 'a channel', 'x/y'),
  count: fc.integer({ min: 1, max: 20 }),
});
const group = fc.record(
  {
    name,
    time: fc.option(name, { nil: undefined }),
    channels: fc.uniqueArray(channel, { minLength: 1, maxLength: 4, selector: (c) => c.name }),
  },
  { requiredKeys: ['name', 'channels'] },
);
const tree = fc.uniqueArray(group, { minLength: 1, maxLength: 3, selector: (g) => g.name });

function objectsOf(groups: readonly Group[]): ObjectSpec[] {
  const out: ObjectSpec[] = [];
  for (const g of groups) {
    out.push({ path: [g.name] });
    const channels = g.channels.filter((c) => c.name !== g.time);
    if (g.time !== undefined)
      out.push({ path: [g.name, g.time], data: { type: 'timestamp', count: 4 } });
    for (const c of channels) {
      const props: PropSpec[] = [];
      if (g.time === undefined) {
        props.push({ name: 'wf_start_time', type: 'timestamp', value: '2025-01-01T00:00:00Z' });
        props.push({ name: 'wf_increment', type: 'f64', value: 0.5 });
      }
      if (c.units) props.push({ name: 'unit_string', type: 'string', value: c.units });
      if (c.description) props.push({ name: 'description', type: 'string', value: c.description });
      out.push({
        path: [g.name, c.name],
        data: { type: c.type, count: c.count },
        properties: props,
      });
    }
  }
  return out;
}

function expectedEntries(groups: readonly Group[], names: TdmsNames): TdmsDataEntry[] {
  const all = groups.flatMap((g) => [
    ...(g.time !== undefined ? [g.time] : []),
    ...g.channels.filter((c) => c.name !== g.time).map((c) => c.name),
  ]);
  const shared = (n: string) => all.filter((x) => x === n).length > 1;
  return groups.flatMap((g) =>
    g.channels
      .filter((c) => c.name !== g.time)
      .flatMap((c): TdmsDataEntry[] => {
        const base = names === 'qualified' || shared(c.name) ? `${g.name}.${c.name}` : c.name;
        const imaginary = names === 'qualified' ? 'imag' : 'imaginary';
        const config = (n: string) => ({
          name: n,
          ...(c.units ? { units: c.units } : {}),
          ...(c.description ? { description: c.description } : {}),
          dataType: TYPES[c.type] as ChannelDataType,
        });
        const e = (n: string): TdmsDataEntry => ({
          groupName: g.name,
          channelName: c.name,
          channelConfig: config(n),
          ...(g.time !== undefined ? { timeChannelName: g.time } : {}),
        });
        if (!c.type.startsWith('complex')) return [e(base)];
        return [
          { ...e(`${base}.real`), complexComponent: 'TDMS_COMPLEX_COMPONENT_REAL' },
          { ...e(`${base}.${imaginary}`), complexComponent: 'TDMS_COMPLEX_COMPONENT_IMAGINARY' },
        ];
      }),
  );
}

/** One segment, or the objects split over two (the second amends the first's list). */
function segmentsOf(objects: ObjectSpec[], split: boolean, bigEndian: boolean): SegmentSpec[] {
  if (!split || objects.length < 2) return [{ objects, bigEndian }];
  const half = Math.ceil(objects.length / 2);
  return [
    { objects: objects.slice(0, half), bigEndian },
    { objects: objects.slice(half), newObjList: false, bigEndian },
  ];
}

test('generated TDMS object trees are written and inferred back exactly', async () => {
  await fc.assert(
    fc.asyncProperty(
      tree,
      fc.boolean(),
      fc.boolean(),
      fc.constantFrom<TdmsNames>('qualified', 'plain'),
      async (groups, split, bigEndian, names) => {
        const { data } = tdmsBytes(segmentsOf(objectsOf(groups), split, bigEndian));
        const profile = await inspectTdmsSource(memorySource(data, 'gen.tdms'));
        const draft = draftFromTdmsProfile(profile, { tdmsNames: names });
        expect(draft.document).toEqual({
          tdmsConfig: {
            assetName: 'gen',
            data: expectedEntries(groups, names),
            fallbackMethod: 'TDMS_FALLBACK_METHOD_FAIL_ON_ERROR',
          },
        });
        expect(draft.issues.filter((i) => i.severity !== 'info')).toEqual([]);
      },
    ),
    { numRuns: 150 },
  );
});
