/**
 * The work of `size-doubling.test.ts`: each case builds inputs of size n and 8n (in memory,
 * or in a temp folder that `setup` makes and `teardown` removes) and runs a parser or a
 * scanner over them. The test measures them in a Node process of its own (see
 * `test/helpers/doubling-apart.ts`); each case asserts what it read, so a case that
 * stops early cannot pass for a fast one.
 */
import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import {
  ch10Bytes,
  claimedSourcesBytes,
  type RecorderChannel,
  tmatsOf,
} from '../../scripts/fixtures/ch10.js';
import { writeHdf5 } from '../../scripts/fixtures/hdf5.js';
import {
  type ObjectSpec,
  type SegmentSpec,
  tdmsBytes,
} from '../../scripts/fixtures/tdms-writer.js';
import { body, UlogWriter } from '../../scripts/fixtures/ulog-writer.js';
import { missingIssues } from '../../src/check/batch.js';
import { checkBatch, checkConfig, readConfigRows } from '../../src/check/index.js';
import { draftFromCh10Profile } from '../../src/formats/ch10/infer.js';
import { inspectCh10Source, parseTmats } from '../../src/formats/ch10/inspect.js';
import { inferCsvFromProfile } from '../../src/formats/csv/infer.js';
import { inspectCsvSource } from '../../src/formats/csv/inspect.js';
import { inferHdf5 } from '../../src/formats/hdf5/infer.js';
import { inferParquetSource } from '../../src/formats/parquet/infer.js';
import { draftFromTdmsProfile } from '../../src/formats/tdms/infer.js';
import { inspectTdmsSource } from '../../src/formats/tdms/inspect.js';
import { draftFromUlogProfile } from '../../src/formats/ulog/infer.js';
import { inspectUlogSource } from '../../src/formats/ulog/inspect.js';
import { memorySource } from '../../src/inspect/byte-source.js';
import type { BatchConfig } from '../../src/model/batch.js';
import type { ImportDocument } from '../../src/model/document.js';
import { validateConfigText } from '../../src/validate/index.js';
import { shapeValidator } from '../../src/validate/shape.js';
import type { DoublingCases } from '../helpers/doubling-apart.js';

let dir = '';
export async function setup(): Promise<void> {
  dir = await mkdtemp(join(tmpdir(), 'importkit-doubling-'));
}
export async function teardown(): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** Inputs built once per size, outside the timed runs (the warm-up run builds them). */
function cached<T>(build: (n: number) => T): (n: number) => T {
  const made = new Map<number, T>();
  return (n) => {
    let v = made.get(n);
    if (v === undefined) {
      v = build(n);
      made.set(n, v);
    }
    return v;
  };
}

const utf8 = (s: string) => new TextEncoder().encode(s);
const iso = (i: number) => new Date(Date.UTC(2024, 2, 1) + i * 1000).toISOString();

/** A CSV: a time column then `columns - 1` values, `rows` rows. */
function csv(columns: number, rows: number, cell: (r: number, c: number) => string): Uint8Array {
  const header = ['time', ...Array.from({ length: columns - 1 }, (_, c) => `v${c + 2}`)];
  const lines = [header.join(',')];
  for (let r = 0; r < rows; r++) {
    lines.push([iso(r), ...Array.from({ length: columns - 1 }, (_, c) => cell(r, c))].join(','));
  }
  return utf8(`${lines.join('\n')}\n`);
}

async function inspectAndInferCsv(bytes: Uint8Array): Promise<void> {
  const profile = await inspectCsvSource(memorySource(bytes, 'x.csv'));
  const draft = inferCsvFromProfile(profile);
  assert.equal(draft.document.csvConfig?.timeColumn?.columnNumber, 1);
}

const csvWide = cached((n) => csv(n, 20, (r, c) => String(r + c)));
const csvLong = cached((n) =>
  csv(3, 40, (r, c) => (c === 0 ? String(r) : `"${'ab, "" '.repeat(n)}"`)),
);
const csvTall = cached((n) => csv(3, n, (r, c) => String(r * c)));

const csvDocument: ImportDocument = {
  csvConfig: {
    assetName: 'a',
    firstDataRow: 2,
    timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_RFC3339' },
    dataColumns: {
      '2': { name: 'v2', dataType: 'CHANNEL_DATA_TYPE_INT_32' },
      '3': { name: 'v3', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
    },
  },
};
const csvRowsFile = cached(async (n) => {
  const path = join(dir, `rows-${n}.csv`);
  await writeFile(
    path,
    csv(3, n, (r, c) => (c === 0 ? String(r) : `${r}.5`)),
  );
  return path;
});
async function csvCheckFull(n: number): Promise<void> {
  const found = await checkConfig(csvDocument, await csvRowsFile(n), { full: true });
  assert.deepEqual(
    found.filter((i) => i.severity === 'error'),
    [],
  );
}

const csvCases: DoublingCases = {
  'CSV inspect and infer: columns': { f: (n) => inspectAndInferCsv(csvWide(n)), n: 125 },
  'CSV inspect and infer: line length': { f: (n) => inspectAndInferCsv(csvLong(n)), n: 400 },
  'CSV inspect and infer: rows': { f: (n) => inspectAndInferCsv(csvTall(n)), n: 500 },
  'CSV check --full: rows': { f: csvCheckFull, n: 3000 },
};

const tdmsProp = (i: number) => [
  { name: 'unit_string', type: 'string' as const, value: 'V' },
  { name: 'NI_Number', type: 'i32' as const, value: i },
];
const tdmsChannel = (i: number): ObjectSpec => ({
  path: ['G', `c${i}`],
  data: { type: 'f64', count: 2 },
  properties: tdmsProp(i),
});
const tdmsObjects = cached(
  (n) =>
    tdmsBytes([
      {
        objects: [
          { path: [] },
          { path: ['G'] },
          ...Array.from({ length: n }, (_, i) => tdmsChannel(i)),
        ],
      },
    ]).data,
);
const tdmsSegments = cached((n) => {
  const list: SegmentSpec[] = [
    { objects: [{ path: [] }, { path: ['G'] }, tdmsChannel(0), tdmsChannel(1)] },
  ];
  for (let s = 1; s < n; s++) {
    list.push({
      newObjList: false,
      objects: [{ path: ['G', `c${s % 2}`], data: 'same', properties: tdmsProp(s) }],
    });
  }
  return tdmsBytes(list).data;
});
async function readTdms(bytes: Uint8Array, channels: number): Promise<void> {
  const profile = await inspectTdmsSource(memorySource(bytes, 'x.tdms'));
  assert.equal(profile.channels.length, channels);
  draftFromTdmsProfile(profile);
}
// Incremental metadata adding one object per segment: the list in force grows with the
// file, and a segment must not cost a copy of it (20,000 such segments took 31 s).
const tdmsGrowing = (withData: boolean) =>
  cached((n) => {
    const list: SegmentSpec[] = [
      { objects: [{ path: [] }, { path: ['G'] }, ...(withData ? [tdmsChannel(0)] : [])] },
    ];
    for (let s = 1; s < n; s++) {
      list.push({ newObjList: false, objects: [{ path: ['G', `n${s}`] }] });
    }
    return tdmsBytes(list).data;
  });
const tdmsNewObjects = tdmsGrowing(false);
const tdmsNewObjectsBesideData = tdmsGrowing(true);

const tdmsMetadataCases: DoublingCases = {
  'TDMS metadata: objects in one segment': { f: (n) => readTdms(tdmsObjects(n), n), n: 200 },
  'TDMS metadata: segments': { f: (n) => readTdms(tdmsSegments(n), 2), n: 500 },
  'TDMS metadata: a new object in every segment': {
    f: (n) => readTdms(tdmsNewObjects(n), n - 1),
    n: 600,
  },
  'TDMS metadata: a new object in every segment, beside a channel with data in each': {
    f: (n) => readTdms(tdmsNewObjectsBesideData(n), n),
    n: 600,
  },
};

const t0 = Date.parse('2024-03-01T12:00:00Z');
const tdmsStrings: ImportDocument = {
  tdmsConfig: {
    assetName: 'a',
    data: [
      {
        groupName: 'G',
        channelName: 'v',
        timeChannelName: 'Time',
        channelConfig: { name: 'G.v', dataType: 'CHANNEL_DATA_TYPE_STRING' },
      },
    ],
  },
};
/** One segment of `chunks` chunks of `per` rows: a timestamp and a string each. */
const tdmsRawFile = (name: string, per: number, chunks: number) =>
  cached(async (n) => {
    const rows = per * chunks * n;
    const bytes = tdmsBytes([
      {
        objects: [
          { path: ['G'] },
          { path: ['G', 'Time'], data: { type: 'timestamp', count: per } },
          { path: ['G', 'v'], data: { type: 'string', count: per, bytes: 0 } },
        ],
        chunks: chunks * n,
        values: {
          'G/Time': Array.from({ length: rows }, (_, i) => new Date(t0 + i).toISOString()),
          'G/v': Array.from({ length: rows }, (_, i) => `v${i % 10}`),
        },
      },
    ]).data;
    const path = join(dir, `${name}-${n}.tdms`);
    await writeFile(path, bytes);
    return path;
  });
async function tdmsRowsOf(path: string, rows: number): Promise<void> {
  const read = await readConfigRows(tdmsStrings, path, { full: true });
  let got = 0;
  const done = await read?.read((b) => {
    got += b.length;
  });
  assert.deepEqual([got, done?.complete], [rows, true]);
}
const onePerChunk = tdmsRawFile('one-per-chunk', 1, 1000);
const manyPerChunk = tdmsRawFile('many-per-chunk', 1000, 1);

const tdmsRawCases: DoublingCases = {
  'TDMS raw data: one value per chunk': {
    f: async (n) => tdmsRowsOf(await onePerChunk(n), 1000 * n),
    n: 2,
  },
  'TDMS raw data: strings of a chunk': {
    f: async (n) => tdmsRowsOf(await manyPerChunk(n), 1000 * n),
    n: 2,
  },
};

/** `n` formats, each subscribed, and ten data messages per subscription. */
const ulogFormats = cached((n) => {
  const w = new UlogWriter();
  for (let i = 0; i < n; i++) {
    w.format({
      name: `m${i}`,
      fields: [
        { type: 'uint64_t', name: 'timestamp' },
        { type: 'float', name: 'x' },
        { type: 'int32_t', name: 'y', array: 3 },
      ],
    });
  }
  for (let i = 0; i < n; i++) w.subscribe(0, i, `m${i}`);
  for (let k = 0; k < 10; k++) {
    for (let i = 0; i < n; i++) w.data(i, body(24, BigInt(1_000_000 + k * 1000)));
  }
  return w.bytes();
});
/** One subscription, `n` data messages. */
const ulogMessages = cached((n) => {
  const w = new UlogWriter();
  w.format({
    name: 'm',
    fields: [
      { type: 'uint64_t', name: 'timestamp' },
      { type: 'float', name: 'x' },
    ],
  });
  w.subscribe(0, 0, 'm');
  for (let k = 0; k < n; k++) w.data(0, body(12, BigInt(1_000_000 + k)));
  return w.bytes();
});
async function readUlog(bytes: Uint8Array, fields: number): Promise<void> {
  const profile = await inspectUlogSource(memorySource(bytes, 'x.ulg'));
  assert.equal(profile.fields.length, fields);
  draftFromUlogProfile(profile);
}

const ulogCases: DoublingCases = {
  // Each format gives four channels: x and y[0..2].
  'ULog walk: formats and subscriptions': { f: (n) => readUlog(ulogFormats(n), 4 * n), n: 200 },
  'ULog walk: data messages': { f: (n) => readUlog(ulogMessages(n), 1), n: 10_000 },
};

const recorderChannels = (n: number): RecorderChannel[] =>
  Array.from({ length: n }, (_, i) => ({ id: i + 1, name: `AN-${i}`, type: 'ANAIN' }));
const tmatsText = cached((n) =>
  tmatsOf(recorderChannels(n))
    .map(([k, v]) => `${k}:${v};\r\n`)
    .join(''),
);
const ch10File = cached((n) => ch10Bytes(tmatsOf(recorderChannels(n))));
// Each recorder claims 65,535 sources (`R-i\N:65535`) and lists one: the channels built
// are the ones listed (n), and the work grows with the record, not with the claims (a
// reader that trusted them built 65,535 channels a recorder: 6.7 s and 940 MB for one).
const ch10Recorders = cached((n) => claimedSourcesBytes(n));

const ch10Cases: DoublingCases = {
  'CH10 TMATS: parsing TMATS text': {
    f: (n) => assert.equal(Object.keys(parseTmats(tmatsText(n))).length, 4 + 4 * n),
    n: 500,
  },
  'CH10 TMATS: inspect and infer a recording with a TMATS of n channels': {
    f: async (n) => {
      const profile = await inspectCh10Source(memorySource(ch10File(n), 'x.ch10'));
      assert.equal(profile.channels.length, n);
      draftFromCh10Profile(profile);
    },
    n: 500,
  },
  'CH10 TMATS: recorders that each claim 65,535 sources': {
    f: async (n) => {
      const profile = await inspectCh10Source(memorySource(ch10Recorders(n), 'x.ch10'));
      assert.equal(profile.channels.length, n);
    },
    n: 100,
  },
};

const parquetWide = cached((n) => {
  const bytes = parquetWriteBuffer({
    codec: 'UNCOMPRESSED',
    columnData: Array.from({ length: n }, (_, i) => ({
      name: i === 0 ? 'time' : `c${i}`,
      type: i === 0 ? ('INT64' as const) : ('DOUBLE' as const),
      data: i === 0 ? BigInt64Array.of(1_700_000_000_000_000_000n) : Float64Array.of(i),
    })),
  });
  return new Uint8Array(bytes);
});
const hdf5Group = cached(async (n) => {
  const path = join(dir, `group-${n}.h5`);
  await writeHdf5(path, [
    { path: '/g/time', kind: 'float64', values: [0, 1, 2], attrs: { units: 's' } },
    ...Array.from({ length: n }, (_, i) => ({
      path: `/g/d${i}`,
      kind: 'float64' as const,
      values: [i, i + 1, i + 2],
      attrs: { units: 'V', long_name: `channel ${i}`, scale: i },
    })),
  ]);
  return path;
});

const parquetHdf5Cases: DoublingCases = {
  'Parquet footer and schema: columns, up to the cap': {
    f: async (n) => {
      const draft = await inferParquetSource(memorySource(parquetWide(n), 'x.parquet'));
      assert.ok(draft.document.parquetConfig);
    },
    n: 200,
  },
  // The library runs in a worker: few runs.
  'HDF5: datasets with attributes in one group': {
    f: async (n) => {
      const draft = await inferHdf5(await hdf5Group(n));
      assert.ok(draft.document.hdf5Config);
    },
    n: 15,
    runs: 2,
  },
};

const waveform = (i: number): ObjectSpec => ({
  path: ['G', `c${i}`],
  data: { type: 'f64', count: 2 },
  properties: [
    { name: 'wf_start_time', type: 'timestamp', value: '2024-03-01T00:00:00Z' },
    { name: 'wf_increment', type: 'f64', value: 0.001 },
  ],
});
const entry = (i: number, dataType = 'CHANNEL_DATA_TYPE_DOUBLE') => ({
  groupName: 'G',
  channelName: `c${i}`,
  channelConfig: { name: `c${i}`, dataType },
});
const configOf = (n: number, dataType?: string) => ({
  tdmsConfig: { assetName: 'a', data: Array.from({ length: n }, (_, i) => entry(i, dataType)) },
});
/** The YAML importkit writes: a `- key: value` line per entry, its other keys under it. */
const yamlText = cached((n) => {
  const lines = ['tdmsConfig:', '  assetName: a', '  data:'];
  for (let i = 0; i < n; i++) {
    lines.push(
      '    - groupName: G',
      `      channelName: c${i}`,
      '      channelConfig:',
      `        name: c${i}`,
      '        dataType: CHANNEL_DATA_TYPE_DOUBLE',
    );
  }
  return `${lines.join('\n')}\n`;
});
const jsonText = cached((n) => `${JSON.stringify(configOf(n), null, 2)}\n`);
function lint(text: string, file: string, n: number): void {
  const r = validateConfigText(text, { filename: file });
  assert.deepEqual(r.issues, []);
  assert.equal(r.value?.tdmsConfig?.data?.length, n);
}
const wrongEntries = cached((n) => configOf(n, 'DOUBLE_PRECISION'));
const wideTdms = cached(async (n) => {
  const path = join(dir, `wide-${n}.tdms`);
  const objects = [
    { path: [] },
    { path: ['G'] },
    ...Array.from({ length: n }, (_, i) => waveform(i)),
  ];
  await writeFile(path, tdmsBytes([{ objects }]).data);
  return path;
});

const configCases: DoublingCases = {
  // Reading copied the remaining lines for every item: from 1,000 entries to 8,000 took 377
  // times as long (3.3 times now).
  'config size: lint of a YAML config': {
    f: (n) => lint(yamlText(n), 'c.yaml', n),
    n: 1000,
    runs: 1,
  },
  'config size: lint of a JSON config': { f: (n) => lint(jsonText(n), 'c.json', n), n: 400 },
  // ajv's code copied the errors so far at each failing item, n² copies: from 5,000 failing
  // entries to 40,000 took 1,315 times as long (7 times now). The small size is large
  // enough (tens of ms of CPU) that a collection cannot double it.
  'config size: the shape check of a config whose every entry is wrong': {
    f: (n) => {
      const validate = shapeValidator();
      assert.equal(validate(wrongEntries(n)), false);
      assert.equal(validate.errors?.length, n);
    },
    n: 20_000,
  },
  // Each entry searched the file's channels (n² steps): from 4,000 channels to 32,000 took
  // 33 times as long, 11 times now. Smaller here, to keep the suite quick.
  'config size: check of a TDMS file against its config': {
    f: async (n) => {
      const found = await checkConfig(configOf(n) as ImportDocument, await wideTdms(n));
      assert.deepEqual(found, []);
    },
    n: 1500,
    runs: 1,
  },
};

/** A folder of `n` small CSV files, ten to a subfolder, three levels deep. */
const folderOf = cached(async (n) => {
  const root = join(dir, `folder-${n}`);
  for (let i = 0; i < n; i++) {
    const sub = join(root, `a${i % 10}`, `b${Math.floor(i / 10) % 10}`, `c${Math.floor(i / 100)}`);
    await mkdir(sub, { recursive: true });
    await writeFile(join(sub, `run-${i}.csv`), `time,v\n${iso(i)},${i}\n`);
  }
  return root;
});
const unlisted: BatchConfig = { defaultCsvConfig: { firstDataRow: 2 }, fileConfigs: {} };

const batchCases: DoublingCases = {
  'batches: did-you-mean hints': {
    f: (n) => {
      const missing = Array.from({ length: n }, (_, i) => `day1/run-${i}.csv`);
      const present = Array.from({ length: n }, (_, i) => `day2/run-${i}.csv`).sort();
      const issues = missingIssues(missing, present);
      assert.equal(issues[n - 1]?.hint, `Did you mean 'day2/run-${n - 1}.csv'?`);
    },
    n: 100,
    runs: 2,
  },
  'batches: a folder of n files in nested subfolders': {
    f: async (n) => {
      const issues = await checkBatch(unlisted, await folderOf(n), { jobs: 1 });
      assert.equal(issues.filter((i) => i.code === 'batch_file_not_listed').length, n);
    },
    n: 50,
    runs: 2,
  },
  // Both sizes above the count from which the members are shared by worker threads
  // (check/batch.ts), so the workers' start weighs on both alike.
  'batches: a folder of n files, in two threads': {
    f: async (n) => {
      const issues = await checkBatch(unlisted, await folderOf(n), { jobs: 2 });
      assert.equal(issues.filter((i) => i.code === 'batch_file_not_listed').length, n);
    },
    n: 300,
    runs: 1,
  },
};

export const cases: DoublingCases = {
  ...csvCases,
  ...tdmsMetadataCases,
  ...tdmsRawCases,
  ...ulogCases,
  ...ch10Cases,
  ...parquetHdf5Cases,
  ...configCases,
  ...batchCases,
};
