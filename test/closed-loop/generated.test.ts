/**
 * The closed loop on generated files (`closedLoop`, test/helpers/closed-loop.ts): a draft
 * `infer` writes lints clean, is canonical for `fmt`, and `check` and `check --full` find
 * no error in it that infer did not report. On small CSV tables with random columns, cell
 * styles, headers and time formats (plain, gzipped, and in batches as a folder and a zip),
 * and on small Parquet files with random column types, nulls, row groups and time columns. And the writer's side alone: any config, whatever order
 * its keys were built in, leaves `finishDraft` canonical for `fmt`, as YAML and as JSON.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { SchemaElement } from 'hyparquet';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { zipBytes } from '../../scripts/fixtures/zip-writer.js';
import { draftText } from '../../src/cli/commands/_draft-output.js';
import { formatConfigText } from '../../src/fmt/index.js';
import { finishDraft } from '../../src/infer/index.js';
import { type ConfigKind, kindOfKey } from '../../src/model/index.js';
import { arbDocument } from '../helpers/arbitraries.js';
import { closedLoop, shown } from '../helpers/closed-loop.js';
import {
  type CellWriter,
  TABLE_START,
  type TableSpec,
  tableSpec,
  writeTable,
} from '../helpers/csv-tables.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-closed-loop-gen-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const pick =
  <T>(...values: T[]) =>
  (r: () => number): T =>
    values[Math.floor(r() * values.length)] as T;

/** Ways a column's cells are written, beyond the types the exact generator writes. */
const STYLES: Record<string, (r: () => number, row: number) => string> = {
  int: (r) => String(Math.floor(r() * 2000) - 1000),
  signs: pick('+5', '-0', '007', '12', '-3', '0'),
  decimals: (r) => (r() * 100 - 50).toFixed(Math.floor(r() * 5)),
  exponents: (r) => `${(r() * 9 + 1).toFixed(2)}e${Math.floor(r() * 11) - 5}`,
  specials: pick('NaN', 'inf', '-inf', 'Infinity', '1.5', '2'),
  boolWords: pick('true', 'false', 'TRUE', 'False'),
  zeroOne: pick('0', '1'),
  beyond53: (r) => String(9_007_199_254_740_993n + BigInt(Math.floor(r() * 1e6))),
  beyondInt64: (r) => String(9_223_372_036_854_775_808n + BigInt(Math.floor(r() * 1e6))),
  words: pick('alpha', 'beta gamma', 'x,y', 'say "hi"', 'two\nlines', '12abc', '-'),
  strayText: (r, row) => (row === 11 ? 'n/a' : String(Math.floor(r() * 100))),
  sparse: (_, row) => (row === 7 ? '42' : ''),
  padded: (r) => ` ${Math.floor(r() * 100)} `,
  secondTime: (_, row) => new Date(Date.UTC(2023, 0, 1) + row * 1000).toISOString(),
};

/** Headers YAML or a CSV reader could take for something else. */
const ODD_NAMES = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom(
    ...['yes', 'null', '~', '1e3', '007', '-', '#x', 'a: b', ' lead', 'trail ', '"q"', "'s'"],
    ...['[x]', '{y}', '&a', '*b', '!t', '%p', '@', 'é', '😀', 'x\ty', 'a\nb', 'time', 'Time (s)'],
    ...['true', '0x1F', '.inf', '1_000', '+1', '<<', '? k', '| lit', '> fold'],
  ),
);

describe('generated CSV tables: infer → lint → fmt → check', () => {
  test('tables of the types inference recovers exactly, plain or gzipped', async () => {
    await fc.assert(
      fc.asyncProperty(tableSpec, fc.boolean(), async (s, gzip) => {
        const table = writeTable(s);
        const path = join(dir, gzip ? 'exact.csv.gz' : 'exact.csv');
        await writeFile(path, gzip ? gzipSync(table.text) : table.text);
        const start = table.relative ? { relativeStartTime: TABLE_START } : {};
        expect(shown(await closedLoop(path, dir, 'exact', start))).toEqual([]);
      }),
      { numRuns: 20 },
    );
  }, 120_000);

  test('tables of any cell style and header, up to 300 rows, with any dialect options', async () => {
    const spec = fc.record({
      table: tableSpec,
      styles: fc.array(fc.constantFrom(...Object.keys(STYLES)), { minLength: 5, maxLength: 5 }),
      names: fc.option(fc.array(ODD_NAMES, { minLength: 6, maxLength: 6 })),
      rows: fc.integer({ min: 5, max: 300 }),
      // Given to infer, and to check as for infer, whether right or wrong for the file.
      delimiter: fc.option(fc.constantFrom(',', ';', '\t', '|')),
      headerRow: fc.option(fc.integer({ min: 0, max: 3 })),
    });
    await fc.assert(
      fc.asyncProperty(spec, async ({ table: s, styles, names, rows, delimiter, headerRow }) => {
        const cell: CellWriter = (column, row, r) =>
          (STYLES[styles[column] as string] as (typeof STYLES)[string])(r, row);
        const table = writeTable({ ...s, rows }, cell, names ?? undefined);
        const path = join(dir, 'styles.csv');
        await writeFile(path, table.text);
        const options = {
          ...(table.relative ? { relativeStartTime: TABLE_START } : {}),
          ...(delimiter !== null ? { delimiter } : {}),
          ...(headerRow !== null ? { headerRow } : {}),
        };
        expect(shown(await closedLoop(path, dir, 'styles', options))).toEqual([]);
      }),
      { numRuns: 30 },
    );
  }, 120_000);

  test('batches of tables, as a folder and as a zip', async () => {
    // A batch is given one start time for all its files: only absolute times here.
    const spec = fc.record({
      tables: fc.array(
        tableSpec.filter((s) => s.time !== 'relative'),
        { minLength: 1, maxLength: 4 },
      ),
      shared: fc.boolean(),
      zip: fc.boolean(),
    });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(spec, async ({ tables, shared, zip }) => {
        // Files of one layout share a config: the draft folds it into defaultCsvConfig.
        const all = shared ? [...tables, tables[0] as TableSpec] : tables;
        const members = all.map((s, i) => ({
          name: `runs/t${i}.csv`,
          data: Buffer.from(writeTable(s).text),
          method: (i % 2 === 0 ? 8 : 0) as 0 | 8,
        }));
        const folder = join(dir, `batch-${n++}`);
        await mkdir(join(folder, 'runs'), { recursive: true });
        for (const m of members) await writeFile(join(folder, m.name), m.data);
        const path = zip ? `${folder}.zip` : folder;
        if (zip) await writeFile(path, zipBytes(members));
        expect(shown(await closedLoop(path, dir, 'batch'))).toEqual([]);
      }),
      { numRuns: 10 },
    );
  }, 120_000);
});

interface ParquetColumn {
  element: Omit<SchemaElement, 'name' | 'repetition_type'>;
  value: (row: number, seed: number) => unknown;
}

/** Column types of generated Parquet files, each with its values. */
const PARQUET_COLUMNS: Record<string, ParquetColumn> = {
  boolean: { element: { type: 'BOOLEAN' }, value: (i) => i % 3 === 0 },
  int8: {
    element: { type: 'INT32', logical_type: { type: 'INTEGER', bitWidth: 8, isSigned: true } },
    value: (i, s) => ((i + s) % 200) - 100,
  },
  int32: { element: { type: 'INT32' }, value: (i, s) => i * 1000 - s },
  uint32: {
    element: { type: 'INT32', logical_type: { type: 'INTEGER', bitWidth: 32, isSigned: false } },
    value: (i, s) => (i + s) % 4000,
  },
  int64: {
    element: { type: 'INT64' },
    value: (i, s) => BigInt(s) * 1_000_000_000_000n - BigInt(i),
  },
  uint64: {
    element: { type: 'INT64', logical_type: { type: 'INTEGER', bitWidth: 64, isSigned: false } },
    value: (i) => BigInt(i) * 3n,
  },
  float: { element: { type: 'FLOAT' }, value: (i, s) => s + i / 2 },
  double: { element: { type: 'DOUBLE' }, value: (i, s) => (s - i) / 3 },
  string: {
    element: { type: 'BYTE_ARRAY', logical_type: { type: 'STRING' } },
    value: (i, s) => `v${s}-${i}`,
  },
  bytes: { element: { type: 'BYTE_ARRAY' }, value: (i) => new Uint8Array([i & 255, 7]) },
};

interface ParquetTime {
  element: Omit<SchemaElement, 'repetition_type'>;
  value: (row: number) => unknown;
  relative?: boolean;
}

const T0_SECONDS = 1_709_294_400; // 2024-03-01T12:00:00Z

/** Time columns of generated Parquet files: typed, plain unix integers, text, relative. */
const PARQUET_TIMES: ParquetTime[] = [
  ...(['MILLIS', 'MICROS', 'NANOS'] as const).map((unit, k) => ({
    element: {
      name: 'recorded',
      type: 'INT64' as const,
      logical_type: { type: 'TIMESTAMP' as const, isAdjustedToUTC: k !== 1, unit },
    },
    value: (i: number) => (BigInt(T0_SECONDS) + BigInt(i)) * 1000n ** BigInt(k + 1),
  })),
  ...[1n, 1000n, 1_000_000n, 1_000_000_000n].map((per) => ({
    element: { name: 'timestamp', type: 'INT64' as const },
    value: (i: number) => (BigInt(T0_SECONDS) + BigInt(i)) * per,
  })),
  {
    element: { name: 'time', type: 'BYTE_ARRAY', logical_type: { type: 'STRING' } },
    value: (i) => new Date((T0_SECONDS + i) * 1000).toISOString(),
  },
  { element: { name: 'elapsed_s', type: 'DOUBLE' }, value: (i) => i * 0.5, relative: true },
];

const parquetSpec = fc.record({
  time: fc.nat(PARQUET_TIMES.length - 1),
  columns: fc.array(
    fc.record({ kind: fc.constantFrom(...Object.keys(PARQUET_COLUMNS)), nulls: fc.boolean() }),
    { minLength: 1, maxLength: 5 },
  ),
  rows: fc.integer({ min: 1, max: 12 }),
  groups: fc.integer({ min: 1, max: 3 }),
  seed: fc.nat(1000),
});

type ParquetSpec = typeof parquetSpec extends fc.Arbitrary<infer T> ? T : never;

/** A Parquet file of the spec: a required time column, then data columns, some with nulls. */
function writeParquet(s: ParquetSpec): Uint8Array {
  const time = PARQUET_TIMES[s.time] as ParquetTime;
  const columns = s.columns.map((c) => PARQUET_COLUMNS[c.kind] as ParquetColumn);
  const writer = new ByteWriter();
  const schema: SchemaElement[] = [
    { name: 'root', num_children: columns.length + 1 },
    { repetition_type: 'REQUIRED', ...time.element },
    ...columns.map((c, i) => ({
      ...c.element,
      name: `c${i}`,
      repetition_type: s.columns[i]?.nulls ? ('OPTIONAL' as const) : ('REQUIRED' as const),
    })),
  ];
  const pw = new ParquetWriter({ writer, schema });
  for (let g = 0; g < s.groups; g++) {
    const rows = Array.from({ length: s.rows }, (_, i) => g * s.rows + i);
    pw.write({
      rowGroupSize: s.rows,
      columnData: [
        { name: time.element.name, data: rows.map((i) => time.value(i)) as never },
        ...columns.map((c, k) => ({
          name: `c${k}`,
          data: rows.map((i) =>
            s.columns[k]?.nulls && (i + k) % 3 === 1 ? null : c.value(i, s.seed),
          ) as never,
        })),
      ],
    });
  }
  pw.finish();
  return writer.getBytes();
}

describe('generated Parquet files: infer → lint → fmt → check', () => {
  test('random column types, nulls, row groups and time columns', async () => {
    await fc.assert(
      fc.asyncProperty(parquetSpec, async (s) => {
        const path = join(dir, 'gen.parquet');
        await writeFile(path, writeParquet(s));
        const relative = PARQUET_TIMES[s.time]?.relative === true;
        const start = relative ? { relativeStartTime: TABLE_START } : {};
        expect(shown(await closedLoop(path, dir, 'parquet', start))).toEqual([]);
      }),
      { numRuns: 20 },
    );
  }, 120_000);
});

/** The same value with the keys of each object in an order `pick` shuffles. */
function shuffled(value: unknown, pick: () => number): unknown {
  if (Array.isArray(value)) return value.map((v) => shuffled(v, pick));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(([k, v]) => [k, shuffled(v, pick)] as const);
  for (let i = entries.length - 1; i > 0; i--) {
    const j = pick() % (i + 1);
    [entries[i], entries[j]] = [
      entries[j] as (typeof entries)[number],
      entries[i] as (typeof entries)[number],
    ];
  }
  return Object.fromEntries(entries);
}

describe('the draft writer', () => {
  test('any config, its keys built in any order, leaves finishDraft canonical for fmt (YAML and JSON)', () => {
    fc.assert(
      fc.property(arbDocument, fc.infiniteStream(fc.nat()), (doc, picks) => {
        const it = picks[Symbol.iterator]();
        const built = shuffled(doc, () => it.next().value as number) as typeof doc;
        const key = Object.keys(doc).find((k) => k !== 'url') ?? 'csvConfig';
        const kind = (kindOfKey(key) ?? 'csv') as ConfigKind;
        const draft = finishDraft({ document: built, kind, evidence: [], issues: [] });
        expect(draft.document).toEqual(doc);
        const yaml = formatConfigText(draftText(draft, 'data.csv', 'yaml'), {
          filename: 'draft.yaml',
        });
        expect(yaml.changes).toEqual([]);
        expect(yaml.changed).toBe(false);
        const json = draftText(draft, 'data.csv', 'json');
        const jsonFormatted = formatConfigText(json, { filename: 'draft.json' });
        expect(jsonFormatted.changes).toEqual([]);
        expect(jsonFormatted.changed).toBe(false);
      }),
      { numRuns: 100 },
    );
  });
});
