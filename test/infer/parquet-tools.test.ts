/**
 * Parquet files written by other tools (DuckDB, parquet-wasm with other options,
 * hyparquet-writer with nulls) each give a valid draft or a clear error, never a crash;
 * and the `importkit infer` command handles Parquet end to end.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import {
  Float64,
  makeData,
  makeVector,
  Table,
  TimestampMillisecond,
  tableToIPC,
  Utf8,
  vectorFromArray,
} from 'apache-arrow';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/run.js';
import { inferConfig } from '../../src/infer/index.js';
import type { Draft } from '../../src/infer/types.js';
import { InspectError } from '../../src/inspect/profile.js';
import { platformExamples } from '../helpers/paths.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pq-tools-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A draft, or the InspectError's code; anything else thrown fails the test. */
async function outcome(file: string, options = {}): Promise<Draft | string> {
  try {
    return await inferConfig(file, options);
  } catch (err) {
    if (err instanceof InspectError) return err.issue.code;
    throw err;
  }
}

async function footerOf(file: string): Promise<{ footerOffset: string; footerLength: number }> {
  const bytes = await readFile(file);
  const len = bytes.readUInt32LE(bytes.byteLength - 8);
  return { footerOffset: String(bytes.byteLength - len - 8), footerLength: len };
}

function draftOf(o: Draft | string): Draft {
  if (typeof o === 'string') throw new Error(`expected a draft, got ${o}`);
  return o;
}

describe('files written by DuckDB', () => {
  const cases: Array<[string, string, string]> = [
    [
      'wide',
      `SELECT TIMESTAMP '2024-05-01 10:00:00' + to_milliseconds(i * 10) AS ts, i::INTEGER AS n,
         (i % 200)::UTINYINT AS small, i * 1.5 AS x, 'k' || (i % 3) AS label, i % 2 = 0 AS even,
         (i / 7)::DECIMAL(10,2) AS price, DATE '2024-05-01' + i::INTEGER AS day,
         {'a': i, 'b': 'x'} AS s, [i, i + 1] AS l, MAP {'k': i} AS m, uuid() AS id,
         i::HUGEINT AS huge, INTERVAL 1 DAY AS span, 'blob'::BLOB AS raw
       FROM range(2000) t(i)`,
      '(FORMAT parquet, ROW_GROUP_SIZE 500)',
    ],
    [
      'long-zstd',
      `SELECT TIMESTAMPTZ '2024-05-01 10:00:00+00' + to_seconds(i) AS time,
         ['rpm', 'speed'][(i % 2) + 1] AS channel, i / 3 AS value FROM range(1000) t(i)`,
      '(FORMAT parquet, COMPRESSION zstd)',
    ],
    [
      'epoch-ns',
      `SELECT (1714557600000000000 + i * 1000000)::BIGINT AS timestamp, random() AS v FROM range(100) t(i)`,
      '(FORMAT parquet, COMPRESSION gzip)',
    ],
    ['empty', `SELECT 1::BIGINT AS time, 2.0 AS v WHERE false`, '(FORMAT parquet)'],
  ];

  beforeAll(async () => {
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    for (const [name, select, opts] of cases) {
      await conn.run(`COPY (${select}) TO '${join(dir, `duck-${name}.parquet`)}' ${opts}`);
    }
    conn.closeSync();
  });

  test('a wide file with every DuckDB type: nested columns are complex, the rest channels', async () => {
    const file = join(dir, 'duck-wide.parquet');
    const draft = draftOf(await outcome(file));
    const config = draft.document.parquetConfig;
    expect(config?.flatDataset?.timeColumn).toEqual({
      path: 'ts',
      format: 'TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS',
    });
    expect(
      config?.flatDataset?.dataColumns?.map((c) => `${c.path}:${c.channelConfig?.dataType}`),
    ).toEqual([
      'n:CHANNEL_DATA_TYPE_INT_32',
      'small:CHANNEL_DATA_TYPE_UINT_32',
      'x:CHANNEL_DATA_TYPE_DOUBLE',
      'label:CHANNEL_DATA_TYPE_STRING',
      'even:CHANNEL_DATA_TYPE_BOOL',
      'price:CHANNEL_DATA_TYPE_DOUBLE',
      'day:CHANNEL_DATA_TYPE_INT_64',
      'id:CHANNEL_DATA_TYPE_STRING',
      'huge:CHANNEL_DATA_TYPE_DOUBLE',
      'span:CHANNEL_DATA_TYPE_BYTES',
      'raw:CHANNEL_DATA_TYPE_BYTES',
    ]);
    expect(config?.complexTypesImportMode).toBe('PARQUET_COMPLEX_TYPES_IMPORT_MODE_BOTH');
    expect({ footerOffset: config?.footerOffset, footerLength: config?.footerLength }).toEqual(
      await footerOf(file),
    );
    expect(draft.issues.filter((i) => i.severity === 'error')).toEqual([]);
    const complex = draft.issues.find((i) => i.code === 'parquet_complex_columns');
    expect(complex?.message).toBe(
      'nested columns imported as complex types, not data columns: s (struct), l (list), m (map)',
    );
  });

  test('zstd pages: the layout still comes from the footer, the names are left unread with a note', async () => {
    const draft = draftOf(await outcome(join(dir, 'duck-long-zstd.parquet')));
    expect(draft.document.parquetConfig?.singleChannelPerRow).toEqual({
      timeColumn: { path: 'time', format: 'TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS' },
      multiChannel: { namePath: 'channel', dataPath: 'value' },
    });
    expect(draft.issues.map((i) => [i.code, i.message])).toEqual([
      [
        'parquet_page_unread',
        'channel names not listed: channel: its pages are compressed with ZSTD',
      ],
    ]);
  });

  test('untyped BIGINT epoch nanoseconds judged by statistics; an empty file still drafts', async () => {
    const epoch = draftOf(await outcome(join(dir, 'duck-epoch-ns.parquet')));
    expect(epoch.document.parquetConfig?.flatDataset?.timeColumn?.format).toBe(
      'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS',
    );
    const empty = draftOf(await outcome(join(dir, 'duck-empty.parquet')));
    expect(empty.document.parquetConfig?.flatDataset?.timeColumn?.path).toBe('time');
    expect(empty.issues.map((i) => i.code)).toContain('parquet_time_unit_guessed');
  });
});

describe('files written by parquet-wasm and hyparquet-writer with other options', () => {
  test('data page v2, no dictionary, no statistics, gzip, brotli, lz4: each a draft', async () => {
    const pw = await import('parquet-wasm');
    const rows = 50;
    const table = new Table({
      time: makeVector(
        makeData({
          type: new TimestampMillisecond(),
          length: rows,
          data: BigInt64Array.from({ length: rows }, (_, i) => 1714557600000n + BigInt(i)),
        }),
      ),
      name: vectorFromArray(
        Array.from({ length: rows }, (_, i) => `s${i % 4}`),
        new Utf8(),
      ),
      value: vectorFromArray(
        Array.from({ length: rows }, (_, i) => i),
        new Float64(),
      ),
    });
    const variants: Array<
      [
        string,
        (
          b: InstanceType<typeof pw.WriterPropertiesBuilder>,
        ) => InstanceType<typeof pw.WriterPropertiesBuilder>,
      ]
    > = [
      ['v2', (b) => b.setWriterVersion(pw.WriterVersion.V2)],
      ['nodict', (b) => b.setDictionaryEnabled(false)],
      ['nostats', (b) => b.setStatisticsEnabled(pw.EnabledStatistics.None)],
      ['gzip', (b) => b.setCompression(pw.Compression.GZIP)],
      ['brotli', (b) => b.setCompression(pw.Compression.BROTLI)],
      ['lz4', (b) => b.setCompression(pw.Compression.LZ4_RAW)],
      ['uncompressed', (b) => b.setCompression(pw.Compression.UNCOMPRESSED)],
    ];
    for (const [name, configure] of variants) {
      const file = join(dir, `pw-${name}.parquet`);
      const props = configure(new pw.WriterPropertiesBuilder()).build();
      await writeFile(
        file,
        pw.writeParquet(pw.Table.fromIPCStream(tableToIPC(table, 'stream')), props),
      );
      const draft = draftOf(await outcome(file));
      const scpr = draft.document.parquetConfig?.singleChannelPerRow;
      expect(scpr?.multiChannel, name).toEqual({ namePath: 'name', dataPath: 'value' });
      expect(scpr?.timeColumn?.format, name).toBe('TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS');
      expect(
        draft.issues.filter((i) => i.severity === 'error'),
        name,
      ).toEqual([]);
      const names = draft.evidence.find((e) => e.path.endsWith('/multiChannel'))?.reason ?? '';
      const listed =
        names ===
          '4 channel names in name (dictionary of the first row group): s0, s1, s2 and s3' ||
        names === '4 channel names in name (first page of the first row group): s0, s1, s2 and s3';
      const unread = draft.issues.some((i) => i.code === 'parquet_page_unread');
      expect(listed || unread, `${name}: ${names}`).toBe(true);
    }
  });

  test('nullable columns with nulls (hyparquet-writer)', async () => {
    const file = join(dir, 'hw-nulls.parquet');
    const bytes = parquetWriteBuffer({
      columnData: [
        {
          name: 'time',
          data: [new Date(1714557600000), new Date(1714557601000), null],
          type: 'TIMESTAMP',
        },
        { name: 'temp', data: [1.5, null, 2.5], type: 'DOUBLE' },
        { name: 'note', data: [null, null, null], type: 'STRING' },
      ],
    });
    await writeFile(file, new Uint8Array(bytes));
    const draft = draftOf(await outcome(file));
    expect(draft.document.parquetConfig?.flatDataset?.timeColumn?.format).toBe(
      'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS',
    );
    expect(draft.document.parquetConfig?.flatDataset?.dataColumns?.map((c) => c.path)).toEqual([
      'temp',
      'note',
    ]);
  });

  test('Parquet content under another extension (.pqt, .bin) is detected by its magic', async () => {
    const corpusFile = join(platformExamples, 'parquet-flat.parquet');
    const whole = await readFile(corpusFile);
    for (const name of ['flat.pqt', 'flat.bin', 'flat']) {
      const file = join(dir, name);
      await writeFile(file, whole);
      const draft = draftOf(await outcome(file));
      expect(draft.kind, name).toBe('parquet');
      expect(draft.document.parquetConfig?.footerOffset, name).toBe('10798');
    }
  });

  test('garbage with a .parquet name and a Parquet file cut in half: clear errors', async () => {
    const junk = join(dir, 'junk.parquet');
    await writeFile(junk, 'time,value\n1,2\n');
    expect(await outcome(junk)).toBe('parquet_not_parquet');
    const corpusFile = join(platformExamples, 'parquet-flat.parquet');
    const whole = await readFile(corpusFile);
    const half = join(dir, 'half.pqt');
    await writeFile(half, whole.subarray(0, whole.byteLength / 2));
    expect(await outcome(half)).toBe('parquet_truncated');
  });
});

describe('importkit infer on Parquet', () => {
  function io() {
    const out: string[] = [];
    const err: string[] = [];
    return {
      out,
      err,
      io: {
        stdout: { write: (s: string) => void out.push(s) },
        stderr: { write: (s: string) => void err.push(s) },
        env: {},
        cwd: repoRoot,
      },
    };
  }
  const corpus = platformExamples;

  test('--format json prints the draft; --layout, --time-column, --complex-types, --explain are honoured', async () => {
    const a = io();
    const code = await run(
      [
        'infer',
        join(corpus, 'parquet-single-channel-per-row.parquet'),
        '--layout',
        'single-channel',
        '--time-column',
        'timestamp',
        '--complex-types',
        'STRING',
        '--explain',
        '--format',
        'json',
      ],
      a.io,
    );
    expect(code).toBe(0);
    expect(JSON.parse(a.out.join(''))).toEqual({
      parquetConfig: {
        assetName: 'parquet-single-channel-per-row',
        singleChannelPerRow: {
          timeColumn: { path: 'timestamp', format: 'TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS' },
          singleChannel: {
            dataPath: 'value',
            channel: {
              name: 'parquet-single-channel-per-row',
              dataType: 'CHANNEL_DATA_TYPE_DOUBLE',
            },
          },
        },
        footerOffset: '5110',
        footerLength: 1596,
        complexTypesImportMode: 'PARQUET_COMPLEX_TYPES_IMPORT_MODE_STRING',
      },
    });
    const explained = a.err.join('');
    expect(explained).toContain('singleChannelPerRow singleChannel');
    expect(explained).toContain('TIMESTAMP logical type in MICROS');
  });

  test('a time column that is not in the file is an error draft (exit 1); a non-Parquet file exits 1', async () => {
    const a = io();
    expect(
      await run(
        [
          'infer',
          join(corpus, 'parquet-flat.parquet'),
          '--time-column',
          'nope',
          '--format',
          'json',
        ],
        a.io,
      ),
    ).toBe(1);
    expect(a.err.join('')).toContain(
      [
        'error parquet_option_invalid: --time-column nope: no such column',
        '  at /parquetConfig',
        "  hint: The file's columns: timestamp, speed, rpm and temperature.",
      ].join('\n'),
    );
    const b = io();
    const junk = join(dir, 'junk2.parquet');
    await writeFile(junk, 'PAR1 but nothing else of the kind');
    expect(await run(['infer', junk], b.io)).toBe(1);
    expect(b.err.join('')).toContain(
      `parquet_truncated: ${junk}: truncated: it starts with PAR1 but does not end with a footer and PAR1`,
    );
  });
});
