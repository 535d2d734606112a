import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { parse, stringify } from 'yaml';
import type { z } from 'zod';
import { run } from '../../src/cli/run.js';
import { formatConfigText } from '../../src/fmt/index.js';
import { ImportDocument } from '../../src/model/document.js';
import { ENUMS } from '../../src/model/enums.js';
import { schemaDef, unwrapSchema } from '../../src/model/key-order.js';
import { Int64String, Uint64String } from '../../src/model/scalars.js';
import { arbDocument } from '../helpers/arbitraries.js';

const MESSY = `# Import of the bench run
csv_config:
  # where the time is
  time_column:
    format: absolute_datetime # no zone in the file
    column_number: 1
  first_data_row: 2 # header is row 1
  asset_name: rig-7
  num_rows: 123456789012345678901
  data_columns:
    # the last column
    "3": { name: temp, data_type: FLOAT, units: degC }
    # volts
    "2":
      data_type: double
      name: volts
`;

describe('formatConfigText', () => {
  test('rewrites names, enums, 64-bit values and key order, keeping every comment', () => {
    const result = formatConfigText(MESSY, { filename: 'run.yaml' });
    expect(result.error).toBeUndefined();
    expect(result.text).toBe(`# Import of the bench run
csvConfig:
  assetName: rig-7
  firstDataRow: 2 # header is row 1
  # where the time is
  timeColumn:
    columnNumber: 1
    format: TIME_FORMAT_ABSOLUTE_DATETIME # no zone in the file
  dataColumns:
    # volts
    "2":
      name: volts
      dataType: CHANNEL_DATA_TYPE_DOUBLE
    # the last column
    "3": { name: temp, units: degC, dataType: CHANNEL_DATA_TYPE_FLOAT }
  numRows: "123456789012345678901"
`);
    expect(result.changed).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------
// Properties over every valid document the model's arbitraries make.

type Schema = z.ZodType;
const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * Writes a canonical value the way people do: snake_case names, short or lower-case enum
 * names or numbers, 64-bit values as bare integers, keys in reverse order. `pick` decides
 * each choice, so fast-check explores the mixes.
 */
function uncanonical(value: unknown, schema: Schema, pick: () => number): unknown {
  const s = unwrapSchema(schema);
  const d = schemaDef(s);
  if (d.type === 'object' && d.shape && value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => {
      const field = d.shape?.[k];
      const out = field ? uncanonical(v, field, pick) : v;
      return [pick() % 2 === 0 ? snake(k) : k, out] as const;
    });
    if (pick() % 2 === 0) entries.reverse();
    return Object.fromEntries(entries);
  }
  if (d.type === 'record' && d.valueType && value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).map(
      ([k, v]) => [k, uncanonical(v, d.valueType as Schema, pick)] as const,
    );
    return Object.fromEntries(entries.reverse());
  }
  if (d.type === 'array' && d.element && Array.isArray(value)) {
    return value.map((v) => uncanonical(v, d.element as Schema, pick));
  }
  if (d.type === 'enum' && typeof value === 'string') {
    const info = Object.values(ENUMS).find((e) => e.values.includes(value));
    if (!info) return value;
    const short = value.slice(info.prefix.length);
    switch (pick() % 4) {
      case 0:
        return short;
      case 1:
        return short.toLowerCase();
      case 2:
        return info.numbers[info.values.indexOf(value)];
      default:
        return value;
    }
  }
  if ((s === Uint64String || s === Int64String) && typeof value === 'string') {
    return pick() % 2 === 0 ? BigInt(value) : value;
  }
  return value;
}

/** Asserts that every object's keys come in the model's order. */
function expectCanonicalOrder(value: unknown, schema: Schema, at = ''): void {
  const d = schemaDef(schema);
  if (d.type === 'object' && d.shape && value && typeof value === 'object') {
    const names = Object.keys(d.shape);
    const keys = Object.keys(value as object);
    const ranks = keys.map((k) => names.indexOf(k));
    expect(ranks, `keys at ${at || '/'}`).toEqual([...ranks].sort((a, b) => a - b));
    for (const k of keys) {
      const field = d.shape[k];
      if (field) expectCanonicalOrder((value as Record<string, unknown>)[k], field, `${at}/${k}`);
    }
  } else if (d.type === 'record' && d.valueType && value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) expectCanonicalOrder(v, d.valueType, `${at}/${k}`);
  } else if (d.type === 'array' && d.element && Array.isArray(value)) {
    value.forEach((v, i) => {
      expectCanonicalOrder(v, d.element as Schema, `${at}/${i}`);
    });
  }
}

describe('fmt properties', () => {
  test('any way of writing a valid document formats to its canonical value, in order; idempotent', () => {
    fc.assert(
      fc.property(arbDocument, fc.infiniteStream(fc.nat()), fc.boolean(), (doc, picks, json) => {
        const it = picks[Symbol.iterator]();
        const pick = () => it.next().value as number;
        const messy = uncanonical(doc, ImportDocument, pick);
        const text = json
          ? JSON.stringify(messy, (_, v) => (typeof v === 'bigint' ? Number(v) : v), 2)
          : stringify(messy);
        // JSON numbers past 2^53 lose digits before we see them: only YAML keeps them.
        if (json && /\d{16,}/.test(text)) return;
        const once = formatConfigText(text, { filename: json ? 'c.json' : 'c.yaml' });
        expect(once.error).toBeUndefined();
        const value = json ? JSON.parse(once.text) : parse(once.text);
        expect(value).toEqual(doc);
        expectCanonicalOrder(value, ImportDocument);
        const twice = formatConfigText(once.text, { filename: json ? 'c.json' : 'c.yaml' });
        expect(twice.text).toBe(once.text);
        expect(twice.changed).toBe(false);
      }),
      { numRuns: 60 },
    );
  });

  test('comments survive: every comment line of the input is in the output', () => {
    fc.assert(
      fc.property(arbDocument, fc.infiniteStream(fc.nat()), (doc, picks) => {
        const it = picks[Symbol.iterator]();
        const pick = () => it.next().value as number;
        const lines = stringify(uncanonical(doc, ImportDocument, pick)).split('\n');
        // A comment above every line that starts a key.
        const commented = lines
          .flatMap((l, i) => (/^\s*[\w"'-]+:/.test(l) ? [`${/^\s*/.exec(l)?.[0]}# c${i}`, l] : [l]))
          .join('\n');
        const out = formatConfigText(commented, { filename: 'c.yaml' });
        expect(out.error).toBeUndefined();
        const want = commented.match(/# c\d+/g) ?? [];
        const got = out.text.match(/# c\d+/g) ?? [];
        expect([...got].sort()).toEqual([...want].sort());
        expect(parse(out.text)).toEqual(doc);
      }),
      { numRuns: 40 },
    );
  });
});

describe('importkit fmt', () => {
  const made: string[] = [];
  afterAll(() => Promise.all(made.map((d) => rm(d, { recursive: true, force: true }))));

  async function call(cwd: string, ...argv: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await run(['fmt', ...argv], {
      stdout: {
        write: (s) => {
          stdout += s;
        },
      },
      stderr: {
        write: (s) => {
          stderr += s;
        },
      },
      env: {},
      cwd,
    });
    return { code, stdout, stderr };
  }

  test('--check exits 1 naming the files that would change; fmt rewrites; then --check passes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'importkit-fmt-'));
    made.push(dir);
    await writeFile(join(dir, 'messy.yaml'), MESSY);
    const canonical = formatConfigText(MESSY).text;
    await writeFile(join(dir, 'clean.yaml'), canonical);

    const check = await call(dir, 'messy.yaml', 'clean.yaml', '--check');
    expect(check).toEqual({ code: 1, stdout: 'messy.yaml: not in canonical form\n', stderr: '' });
    expect(await readFile(join(dir, 'messy.yaml'), 'utf8')).toBe(MESSY);

    const write = await call(dir, 'messy.yaml', 'clean.yaml');
    expect(write).toEqual({ code: 0, stdout: 'messy.yaml: formatted\n', stderr: '' });
    expect(await readFile(join(dir, 'messy.yaml'), 'utf8')).toBe(canonical);

    expect(await call(dir, 'messy.yaml', 'clean.yaml', '--check')).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
  });

  test('a file that does not parse is left alone (exit 1); a missing file is a usage error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'importkit-fmt-'));
    made.push(dir);
    const broken = 'csvConfig:\n  firstDataRow: [1\n';
    await writeFile(join(dir, 'broken.yaml'), broken);
    const r = await call(dir, 'broken.yaml');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^broken\.yaml:\d+:\d+ error /);
    expect(await readFile(join(dir, 'broken.yaml'), 'utf8')).toBe(broken);
    const missing = await call(dir, 'nope.yaml');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.yaml: no such file');
    expect((await call(dir, 'x.yaml', '--bogus')).code).toBe(2);
  });
});
