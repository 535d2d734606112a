/**
 * Every parser and scanner grows linearly with its input (issue 12, point 5): each test
 * builds inputs of size n and 8n in memory (or in a temp dir) and bounds the ratio of their
 * times far below what a quadratic cost gives (see `doublingRatio`). Sizes are small: the
 * point is the growth, not the speed (speed is measured by the benchmarks).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
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
import { explainTable } from '../../src/cli/commands/_draft-output.js';
import { profileText } from '../../src/cli/commands/inspect.js';
import { draftFromCh10Profile } from '../../src/formats/ch10/infer.js';
import { inspectCh10Source, parseTmats } from '../../src/formats/ch10/inspect.js';
import { inferCsvFromProfile } from '../../src/formats/csv/infer.js';
import { inspectCsvSource } from '../../src/formats/csv/inspect.js';
import { inferHdf5 } from '../../src/formats/hdf5/infer.js';
import { inferParquetSource } from '../../src/formats/parquet/infer.js';
import { draftFromTdmsProfile } from '../../src/formats/tdms/infer.js';
import { inspectTdmsSource } from '../../src/formats/tdms/inspect.js';
import { readTdmsSourceValues } from '../../src/formats/tdms/raw.js';
import { draftFromUlogProfile } from '../../src/formats/ulog/infer.js';
import { inspectUlogSource } from '../../src/formats/ulog/inspect.js';
import type { Evidence } from '../../src/infer/types.js';
import { countingSource, memorySource } from '../../src/inspect/byte-source.js';
import type { BaseProfile } from '../../src/inspect/profile.js';
import type { BatchConfig } from '../../src/model/batch.js';
import type { ImportDocument } from '../../src/model/document.js';
import { validateConfigText } from '../../src/validate/index.js';
import { shapeValidator } from '../../src/validate/shape.js';
import { doublingRatio, RATIO_BOUND } from './_helpers.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-doubling-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Inputs built once per size, outside the timed runs. */
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

/** A CSV: a time column then `columns - 1` values, `rows` rows, each row ending with `tail`. */
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
  expect(draft.document.csvConfig?.timeColumn?.columnNumber).toBe(1);
}

describe('CSV inspect and infer (the head they read)', () => {
  const wide = cached((n) => csv(n, 20, (r, c) => String(r + c)));
  const long = cached((n) =>
    csv(3, 40, (r, c) => (c === 0 ? String(r) : `"${'ab, "" '.repeat(n)}"`)),
  );
  const tall = cached((n) => csv(3, n, (r, c) => String(r * c)));

  test('columns', async () => {
    expect(await doublingRatio((n) => inspectAndInferCsv(wide(n)), 125)).toBeLessThan(RATIO_BOUND);
  });
  test('line length (quoted cells with delimiters and quotes)', async () => {
    expect(await doublingRatio((n) => inspectAndInferCsv(long(n)), 400)).toBeLessThan(RATIO_BOUND);
  });
  test('rows (within the head)', async () => {
    expect(await doublingRatio((n) => inspectAndInferCsv(tall(n)), 500)).toBeLessThan(RATIO_BOUND);
  });
});

describe('CSV check --full', () => {
  const document: ImportDocument = {
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
  const file = cached((n) => {
    const path = join(dir, `rows-${n}.csv`);
    return writeFile(
      path,
      csv(3, n, (r, c) => (c === 0 ? String(r) : `${r}.5`)),
    ).then(() => path);
  });

  test('rows', async () => {
    const check = async (n: number) => {
      const found = await checkConfig(document, await file(n), { full: true });
      expect(found.filter((i) => i.severity === 'error')).toEqual([]);
    };
    expect(await doublingRatio(check, 3000)).toBeLessThan(RATIO_BOUND);
  });
});

describe('TDMS metadata', () => {
  const prop = (i: number) => [
    { name: 'unit_string', type: 'string' as const, value: 'V' },
    { name: 'NI_Number', type: 'i32' as const, value: i },
  ];
  const channel = (i: number): ObjectSpec => ({
    path: ['G', `c${i}`],
    data: { type: 'f64', count: 2 },
    properties: prop(i),
  });
  const objects = cached(
    (n) =>
      tdmsBytes([
        {
          objects: [
            { path: [] },
            { path: ['G'] },
            ...Array.from({ length: n }, (_, i) => channel(i)),
          ],
        },
      ]).data,
  );
  const segments = cached((n) => {
    const list: SegmentSpec[] = [
      { objects: [{ path: [] }, { path: ['G'] }, channel(0), channel(1)] },
    ];
    for (let s = 1; s < n; s++) {
      list.push({
        newObjList: false,
        objects: [{ path: ['G', `c${s % 2}`], data: 'same', properties: prop(s) }],
      });
    }
    return tdmsBytes(list).data;
  });
  const read = async (bytes: Uint8Array, channels: number) => {
    const profile = await inspectTdmsSource(memorySource(bytes, 'x.tdms'));
    expect(profile.channels.length).toBe(channels);
    draftFromTdmsProfile(profile);
  };

  test('objects in one segment', async () => {
    expect(await doublingRatio((n) => read(objects(n), n), 200)).toBeLessThan(RATIO_BOUND);
  });
  test('segments', async () => {
    expect(await doublingRatio((n) => read(segments(n), 2), 500)).toBeLessThan(RATIO_BOUND);
  });

  // Incremental metadata adding one object per segment: the list in force grows with the
  // file, and a segment must not cost a copy of it (20,000 such segments took 31 s).
  const growing = (withData: boolean) =>
    cached((n) => {
      const list: SegmentSpec[] = [
        { objects: [{ path: [] }, { path: ['G'] }, ...(withData ? [channel(0)] : [])] },
      ];
      for (let s = 1; s < n; s++) {
        list.push({ newObjList: false, objects: [{ path: ['G', `n${s}`] }] });
      }
      return tdmsBytes(list).data;
    });
  const newObjects = growing(false);
  const newObjectsBesideData = growing(true);
  test('a new object in every segment', async () => {
    expect(await doublingRatio((n) => read(newObjects(n), n - 1), 600)).toBeLessThan(RATIO_BOUND);
  });
  test('a new object in every segment, beside a channel with data in each', async () => {
    const check = (n: number) => read(newObjectsBesideData(n), n);
    expect(await doublingRatio(check, 600)).toBeLessThan(RATIO_BOUND);
  });
});

describe('TDMS raw data (preview --full and check --full)', () => {
  const t0 = Date.parse('2024-03-01T12:00:00Z');
  const document: ImportDocument = {
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
  const file = (name: string, per: number, chunks: number) =>
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
  const rowsOf = async (path: string, rows: number) => {
    const read = await readConfigRows(document, path, { full: true });
    let got = 0;
    const done = await read?.read((b) => {
      got += b.length;
    });
    expect([got, done?.complete]).toEqual([rows, true]);
  };
  const onePerChunk = file('one-per-chunk', 1, 1000);
  const manyPerChunk = file('many-per-chunk', 1000, 1);

  test('one value per chunk (a queued part per value)', async () => {
    const read = async (n: number) => rowsOf(await onePerChunk(n), 1000 * n);
    expect(await doublingRatio(read, 2)).toBeLessThan(RATIO_BOUND);
  });
  test('strings of a chunk', async () => {
    const read = async (n: number) => rowsOf(await manyPerChunk(n), 1000 * n);
    expect(await doublingRatio(read, 2)).toBeLessThan(RATIO_BOUND);
  });

  // End offsets of 0xFFFFFFF0 made every value of a chunk decode the rest of the file: the
  // bytes read grew with the square of the file. Now the chunk is refused whole.
  test('string end offsets that lie: the bytes read grow with the file, not its square', async () => {
    const lying = (n: number) => {
      const per = 4096 * n;
      const { data } = tdmsBytes([
        {
          objects: [
            { path: ['G'] },
            { path: ['G', 'v'], data: { type: 'string', count: per, bytes: 0 } },
          ],
          values: { 'G/v': Array.from({ length: per }, () => 'abcdefgh') },
        },
      ]);
      const at = data.byteLength - per * 12; // the end offsets, then the text
      const view = new DataView(data.buffer);
      for (let i = 0; i < per; i++) view.setUint32(at + 4 * i, 0xffff_fff0, true);
      return data;
    };
    for (const n of [1, 8]) {
      const bytes = lying(n);
      const source = countingSource(memorySource(bytes, 'x.tdms'));
      let values = 0;
      const unread = await readTdmsSourceValues(
        source,
        [{ path: "/'G'/'v'", ranges: [[0, 4096 * n]], as: 'typed' }],
        (_, v) => {
          values += v.length;
        },
      );
      expect(values).toBe(0);
      expect(unread.map((u) => [u.kind, u.reason])).toEqual([
        [
          'invalid',
          `string 1 of a chunk ends at byte 4294967280 of the chunk's ${32_768 * n} bytes of text`,
        ],
      ]);
      expect(source.bytesRead).toBeLessThan(2 * bytes.byteLength);
    }
  });
});

describe('ULog walk', () => {
  /** `n` formats, each subscribed, and ten data messages per subscription. */
  const log = cached((n) => {
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
  const messages = cached((n) => {
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
  const read = async (bytes: Uint8Array, fields: number) => {
    const profile = await inspectUlogSource(memorySource(bytes, 'x.ulg'));
    expect(profile.fields.length).toBe(fields);
    draftFromUlogProfile(profile);
  };

  test('formats and subscriptions', async () => {
    // Each format gives four channels: x and y[0..2].
    expect(await doublingRatio((n) => read(log(n), 4 * n), 200)).toBeLessThan(RATIO_BOUND);
  });
  test('data messages', async () => {
    expect(await doublingRatio((n) => read(messages(n), 1), 10_000)).toBeLessThan(RATIO_BOUND);
  });
});

describe('CH10 TMATS', () => {
  const channels = (n: number): RecorderChannel[] =>
    Array.from({ length: n }, (_, i) => ({ id: i + 1, name: `AN-${i}`, type: 'ANAIN' }));
  const text = cached((n) =>
    tmatsOf(channels(n))
      .map(([k, v]) => `${k}:${v};\r\n`)
      .join(''),
  );
  const file = cached((n) => ch10Bytes(tmatsOf(channels(n))));

  test('parsing TMATS text', async () => {
    const parse = (n: number) => expect(Object.keys(parseTmats(text(n))).length).toBe(4 + 4 * n);
    expect(await doublingRatio(parse, 500)).toBeLessThan(RATIO_BOUND);
  });
  test('inspect and infer a recording with a TMATS of n channels', async () => {
    const read = async (n: number) => {
      const profile = await inspectCh10Source(memorySource(file(n), 'x.ch10'));
      expect(profile.channels.length).toBe(n);
      draftFromCh10Profile(profile);
    };
    expect(await doublingRatio(read, 500)).toBeLessThan(RATIO_BOUND);
  });
  // Each recorder claims 65,535 sources (`R-i\N:65535`) and lists one: the channels built
  // are the ones listed (n), and the work grows with the record, not with the claims (a
  // reader that trusted them built 65,535 channels a recorder: 6.7 s and 940 MB for one).
  const recorders = cached((n) => claimedSourcesBytes(n));
  test('recorders that each claim 65,535 sources', async () => {
    const read = async (n: number) => {
      const profile = await inspectCh10Source(memorySource(recorders(n), 'x.ch10'));
      expect(profile.channels.length).toBe(n);
    };
    expect(await doublingRatio(read, 100)).toBeLessThan(RATIO_BOUND);
  });
});

describe('Parquet footer and schema', () => {
  const wide = cached((n) => {
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

  test('columns, up to the cap (inspect and infer)', async () => {
    const infer = async (n: number) => {
      const draft = await inferParquetSource(memorySource(wide(n), 'x.parquet'));
      expect(draft.document.parquetConfig).toBeDefined();
    };
    expect(await doublingRatio(infer, 200)).toBeLessThan(RATIO_BOUND);
  });
});

describe('HDF5 (the library runs in a worker: few runs)', () => {
  const file = cached(async (n) => {
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

  test('datasets with attributes in one group', async () => {
    const infer = async (n: number) => {
      const draft = await inferHdf5(await file(n));
      expect(draft.document.hdf5Config).toBeDefined();
    };
    expect(await doublingRatio(infer, 15, 2)).toBeLessThan(RATIO_BOUND);
  });
});

describe('config size: lint and check of a config of n channels', () => {
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
  const document = (n: number, dataType?: string) => ({
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
  const jsonText = cached((n) => `${JSON.stringify(document(n), null, 2)}\n`);
  const lint = (text: string, file: string, n: number) => {
    const r = validateConfigText(text, { filename: file });
    expect(r.issues).toEqual([]);
    expect(r.value?.tdmsConfig?.data?.length).toBe(n);
  };

  test('lint of a YAML config (each sequence item read once)', async () => {
    // Reading copied the remaining lines for every item: from 1,000 entries to 8,000
    // took 377 times as long (3.3 times now).
    expect(await doublingRatio((n) => lint(yamlText(n), 'c.yaml', n), 1000, 1)).toBeLessThan(
      RATIO_BOUND,
    );
  });
  test('lint of a JSON config', async () => {
    expect(await doublingRatio((n) => lint(jsonText(n), 'c.json', n), 400)).toBeLessThan(
      RATIO_BOUND,
    );
  });
  test('the shape check of a config whose every entry is wrong', async () => {
    // ajv's code copied the errors so far at each failing item, n² copies: from 5,000
    // failing entries to 40,000 took 1,315 times as long (7 times now).
    const wrong = cached((n) => document(n, 'DOUBLE_PRECISION'));
    const shape = (n: number) => {
      const validate = shapeValidator();
      expect(validate(wrong(n))).toBe(false);
      expect(validate.errors?.length).toBe(n);
    };
    // Best of three runs per size, the small one large enough (tens of ms of CPU) that a
    // collection or the other test worker cannot double it.
    expect(await doublingRatio(shape, 20_000)).toBeLessThan(RATIO_BOUND);
  });
  test('check of a TDMS file against its config (one lookup per entry)', async () => {
    const file = cached(async (n) => {
      const path = join(dir, `wide-${n}.tdms`);
      const objects = [
        { path: [] },
        { path: ['G'] },
        ...Array.from({ length: n }, (_, i) => waveform(i)),
      ];
      await writeFile(path, tdmsBytes([{ objects }]).data);
      return path;
    });
    const check = async (n: number) => {
      expect(await checkConfig(document(n) as ImportDocument, await file(n))).toEqual([]);
    };
    // Each entry searched the file's channels (n² steps): from 4,000 channels to 32,000 took
    // 33 times as long, 11 times now. Smaller here, to keep the suite quick.
    expect(await doublingRatio(check, 1500, 1)).toBeLessThan(RATIO_BOUND);
  });
});

describe('no data-sized array is spread into a call', () => {
  // 150,000 arguments already overflow the stack, and a TDMS file's few MiB of metadata can
  // list that many channels: the tables were sized by Math.max(...rows).
  const n = 200_000;

  test('the inspect table of a profile with 200,000 fields', () => {
    const profile: BaseProfile = {
      format: 'tdms',
      file: { path: 'wide.tdms', size: 1 },
      bytesRead: 1,
      fields: Array.from({ length: n }, (_, i) => ({
        name: `G/c${i}`,
        physicalType: 'f64',
        samples: [],
      })),
      issues: [],
    };
    const text = profileText(profile);
    expect(text.split('\n').filter((l) => l.startsWith('G/c')).length).toBe(n);
  });

  test('the infer evidence table of 200,000 rows', () => {
    const evidence: Evidence[] = Array.from({ length: n }, (_, i) => ({
      path: `/tdmsConfig/channels/${i}`,
      choice: 'f64',
      reason: 'stored type',
      confidence: 'high',
    }));
    expect(explainTable(evidence).split('\n').length).toBeGreaterThan(n);
  });
});

describe('batches', () => {
  /** A folder of `n` small CSV files, ten to a subfolder, three levels deep. */
  const folderOf = cached(async (n) => {
    const root = join(dir, `folder-${n}`);
    for (let i = 0; i < n; i++) {
      const sub = join(
        root,
        `a${i % 10}`,
        `b${Math.floor(i / 10) % 10}`,
        `c${Math.floor(i / 100)}`,
      );
      await mkdir(sub, { recursive: true });
      await writeFile(join(sub, `run-${i}.csv`), `time,v\n${iso(i)},${i}\n`);
    }
    return root;
  });
  const batchListing = (paths: string[]): BatchConfig => ({
    defaultCsvConfig: { firstDataRow: 2 },
    fileConfigs: Object.fromEntries(paths.map((p) => [p, { type: 'DATA_TYPE_KEY_CSV' }])),
  });

  test('did-you-mean hints: n listed paths under day1/ against n members under day2/', async () => {
    const hints = (n: number) => {
      const missing = Array.from({ length: n }, (_, i) => `day1/run-${i}.csv`);
      const present = Array.from({ length: n }, (_, i) => `day2/run-${i}.csv`).sort();
      const issues = missingIssues(missing, present);
      expect(issues[n - 1]?.hint).toBe(`Did you mean 'day2/run-${n - 1}.csv'?`);
    };
    expect(await doublingRatio(hints, 100, 2)).toBeLessThan(RATIO_BOUND);
  });

  test('a folder of n files in nested subfolders', async () => {
    const check = async (n: number) => {
      const issues = await checkBatch(batchListing([]), await folderOf(n));
      expect(issues.filter((i) => i.code === 'batch_file_not_listed')).toHaveLength(n);
    };
    expect(await doublingRatio(check, 50, 2)).toBeLessThan(RATIO_BOUND);
  });
});
