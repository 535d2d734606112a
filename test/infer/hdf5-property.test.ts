import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import {
  channelTypeOfKind,
  type DatasetSpec,
  type Kind,
  type MemberSpec,
  type Scalar,
  writeHdf5,
} from '../../scripts/fixtures/hdf5.js';
import { inferHdf5 } from '../../src/formats/hdf5/infer.js';
import type { TimeFormat } from '../../src/model/enums.js';
import type { Issue } from '../../src/model/plain.js';

const tmp = mkdtempSync(join(tmpdir(), 'importkit-hdf5-prop-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const T0 = 1_735_689_600;
const ENUM = { A: 0, B: 1, C: 2 };

/** How time is written in a generated file, and the format and start it must be read as. */
const TIMES = {
  s: { per: 1n, format: 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS' },
  ms: { per: 1000n, format: 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS' },
  us: { per: 1_000_000n, format: 'TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS' },
  ns: { per: 1_000_000_000n, format: 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS' },
  'cf-epoch': { per: 1n, format: 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS' },
  'cf-relative': { per: 1n, format: 'TIME_FORMAT_RELATIVE_MINUTES' },
} as const;
type TimeKind = keyof typeof TIMES;

const VALUE_KINDS: Kind[] = [
  'int8',
  'int16',
  'int32',
  'int64',
  'uint8',
  'uint16',
  'uint32',
  'uint64',
  'float16',
  'float32',
  'float64',
  'bool',
  'enum',
  'string',
  'fixed-string',
  'opaque',
];
const MEMBER_KINDS: Kind[] = VALUE_KINDS.filter(
  (k) => !['string', 'float16', 'bool', 'enum', 'opaque'].includes(k),
);
const TIME_NAMES = ['time', 'Time', 'timestamp', 'TIMESTAMPS', 'ts', 't', 'T'];
const GROUPS = ['/', '/a', '/a/b', '/c'];

function values(kind: Kind, n: number): Scalar[] {
  return Array.from({ length: n }, (_, i) => {
    switch (kind) {
      case 'int64':
      case 'uint64':
        return BigInt(i);
      case 'bool':
        return i % 2 === 0;
      case 'enum':
        return i % 3;
      case 'string':
      case 'fixed-string':
        return `s${i}`;
      default:
        return i;
    }
  });
}

function timeValues(time: TimeKind, n: number, kind: 'int64' | 'float64'): Scalar[] {
  return Array.from({ length: n }, (_, i) => {
    if (time === 'cf-relative') return i * 5;
    if (time === 'cf-epoch') return kind === 'int64' ? BigInt(T0 + i) : T0 + i / 2;
    const v = BigInt(T0 + i) * TIMES[time].per;
    return kind === 'int64' ? v : Number(v);
  });
}

const valueArb = fc.record({ kind: fc.constantFrom(...VALUE_KINDS), named: fc.boolean() });
const groupArb = fc.record({
  present: fc.boolean(),
  ownTime: fc.boolean(),
  timeName: fc.constantFrom(...TIME_NAMES),
  length: fc.integer({ min: 4, max: 9 }),
  values: fc.array(valueArb, { minLength: 1, maxLength: 3 }),
});
const treeArb = fc.record({
  time: fc.constantFrom(...(Object.keys(TIMES) as TimeKind[])),
  groups: fc.tuple(groupArb, groupArb, groupArb, groupArb),
  twoD: fc.array(
    fc.record({
      columns: fc.integer({ min: 2, max: 4 }),
      kind: fc.constantFrom('int64', 'float64'),
    }),
    { maxLength: 2 },
  ),
  compounds: fc.array(
    fc.record({
      timeNamed: fc.boolean(),
      timeAt: fc.nat(3),
      members: fc.array(fc.constantFrom(...MEMBER_KINDS), { minLength: 1, maxLength: 3 }),
      boolLast: fc.boolean(),
    }),
    { maxLength: 2 },
  ),
});
type Tree = typeof treeArb extends fc.Arbitrary<infer T> ? T : never;

interface Built {
  datasets: DatasetSpec[];
  pairs: string[];
  format: TimeFormat;
  start?: string;
}

/** The file a tree describes, and the pairs, types and names inference must find. */
function build(tree: Tree): Built {
  const datasets: DatasetSpec[] = [];
  const pairs: string[] = [];
  const relative = tree.time === 'cf-relative';
  const groups = GROUPS.map((path, i) => ({ path, ...tree.groups[i]! }));
  const root = groups[0]!;
  root.present = true;
  root.ownTime = true;
  const has = (p: string) => groups.find((g) => g.path === p && g.present);
  let counter = 0;
  for (const g of groups) {
    if (!g.present) continue;
    // The nearest group (itself or an ancestor) with its own time.
    const chain = GROUPS.filter((p) => p === '/' || g.path === p || g.path.startsWith(`${p}/`))
      .reverse()
      .map(has)
      .filter((x) => x?.ownTime);
    const timer = chain[0] ?? root;
    const timePath = `${timer.path === '/' ? '' : timer.path}/${timer.timeName}`;
    if (g.ownTime) {
      const cf = tree.time === 'cf-epoch' || relative;
      datasets.push({
        path: `${g.path === '/' ? '' : g.path}/${g.timeName}`,
        kind: cf ? 'float64' : 'int64',
        values: timeValues(tree.time, g.length, cf ? 'float64' : 'int64'),
        ...(tree.time === 'cf-epoch'
          ? { attrs: { units: 'seconds since 1970-01-01 00:00:00' } }
          : relative
            ? { attrs: { units: 'minutes since 2023-06-01 00:00:00' } }
            : {}),
      });
    }
    for (const v of g.values) {
      const name = `c${counter++}`;
      const path = `${g.path === '/' ? '' : g.path}/${name}`;
      datasets.push({
        path,
        kind: v.kind,
        values: values(v.kind, timer.length),
        ...(v.kind === 'enum' ? { enumMembers: ENUM } : {}),
        ...(v.named ? { attrs: { Name: `sig ${name}` } } : {}),
      });
      // A Name attribute is offered in the evidence, never used: the platform's CLI names a
      // channel by its path, and a draft must feed the channels the CLI made.
      const channel = path.slice(1).replace(/\//g, '.');
      pairs.push(`${timePath} → ${path} | ${channelTypeOfKind(v.kind)} | ${channel}`);
    }
  }
  if (!relative) {
    const n = root.length;
    tree.twoD.forEach((m, i) => {
      const path = `/m${i}`;
      const time = timeValues(tree.time, n, m.kind);
      datasets.push({
        path,
        kind: m.kind,
        shape: [n, m.columns],
        values: Array.from({ length: n * m.columns }, (_, j) => {
          const row = Math.floor(j / m.columns);
          if (j % m.columns === 0) return time[row]!;
          return m.kind === 'int64' ? BigInt(j) : j;
        }),
      });
      for (let c = 1; c < m.columns; c++) {
        const name = `m${i}.${c}`; // [N, 2] too: the CLI names every column path.index
        pairs.push(`${path}[0] → ${path}[${c}] | ${channelTypeOfKind(m.kind)} | ${name}`);
      }
    });
    tree.compounds.forEach((r, i) => {
      const path = `/r${i}`;
      const timeName = r.timeNamed ? 'time' : 'x0';
      const others: MemberSpec[] = r.members.map((kind, j) => ({
        name: `v${j}`,
        kind,
        values: values(kind, n),
      }));
      const at = r.timeNamed ? Math.min(r.timeAt, others.length) : 0;
      const time: MemberSpec = {
        name: timeName,
        kind: 'int64',
        values: timeValues(tree.time, n, 'int64'),
      };
      const members = [...others.slice(0, at), time, ...others.slice(at)];
      if (r.boolLast) members.push({ name: 'flag', kind: 'bool', values: values('bool', n) });
      datasets.push({ path, kind: 'compound', members });
      for (const m of members) {
        if (m === time) continue;
        pairs.push(
          `${path}.${timeName} → ${path}.${m.name} | ${channelTypeOfKind(m.kind as Kind)} | r${i}.${m.name}`,
        );
      }
    });
  }
  return {
    datasets,
    pairs: pairs.sort(),
    format: TIMES[tree.time].format,
    ...(relative ? { start: '2023-06-01T00:00:00Z' } : {}),
  };
}

describe('generated HDF5 trees', () => {
  test('inference recovers the pairs, types, names and time format that generated them', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(treeArb, async (tree) => {
        const built = build(tree);
        const file = join(tmp, `tree-${run++}.h5`);
        await writeHdf5(file, built.datasets);
        const draft = await inferHdf5(file);
        const config = draft.document.hdf5Config;
        const found = (config?.data ?? [])
          .map((e) => {
            const t = e.timeField
              ? `${e.timeDataset}.${e.timeField}`
              : e.timeIndex
                ? `${e.timeDataset}[${e.timeIndex}]`
                : e.timeDataset;
            const v = e.valueField
              ? `${e.valueDataset}.${e.valueField}`
              : e.valueIndex
                ? `${e.valueDataset}[${e.valueIndex}]`
                : e.valueDataset;
            return `${t} → ${v} | ${e.channelConfig?.dataType} | ${e.channelConfig?.name}`;
          })
          .sort();
        expect(found).toEqual(built.pairs);
        expect(config?.timeFormat).toBe(built.format);
        expect(config?.relativeStartTime).toBe(built.start);
        // The HDF5 library reads no half-precision values: infer says they were not checked.
        const unread = (i: Issue) => i.code === 'time_partly_read' && /Float16/.test(i.message);
        expect(draft.issues.filter((i) => i.severity !== 'info' && !unread(i))).toEqual([]);
      }),
      { numRuns: 12, seed: 20241121 },
    );
  });
});
