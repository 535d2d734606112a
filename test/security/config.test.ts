/**
 * Config text that is not what it seems (issue 12, point 3): `__proto__`, `constructor`
 * and `prototype` keys are reported wherever they are, and the validated value always
 * holds what was sent. Point 5b: `lint` time grows linearly with the keys of a map.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { stringify } from 'yaml';
import { escapePointerToken } from '../../src/model/issue.js';
import { validateConfig, validateConfigText } from '../../src/validate/index.js';
import { arbDocument } from '../helpers/arbitraries.js';
import { doublingApart } from '../helpers/doubling-apart.js';
import { RATIO_BOUND } from './_helpers.js';
import { cases, shapes } from './_lint-work.js';

const hidden = {
  timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_RFC3339' },
  dataColumns: { '2': { name: 'temp', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' } },
};
const protoJson = `{"csvConfig": {"assetName": "rig", "firstDataRow": 2, "__proto__": ${JSON.stringify(hidden)}}}`;
const protoYaml = `csvConfig:
  assetName: rig
  firstDataRow: 2
  __proto__:
    timeColumn:
      columnNumber: 1
      format: TIME_FORMAT_ABSOLUTE_RFC3339
    dataColumns:
      "2":
        name: temp
        dataType: CHANNEL_DATA_TYPE_DOUBLE
`;

const place = (i: { code: string; path: string }) => `${i.code} ${i.path}`;

describe('point 3: reserved keys', () => {
  test.each([
    ['JSON', protoJson, 'c.json'],
    ['YAML', protoYaml, 'c.yaml'],
  ])('%s: fields under csvConfig.__proto__ are not taken as given', (_kind, text, filename) => {
    const r = validateConfigText(text, { filename });
    expect(r.ok).toBe(false);
    expect(r.issues.map(place)).toEqual([
      'time_column_missing /csvConfig',
      'data_columns_missing /csvConfig',
      'unknown_key /csvConfig/__proto__',
    ]);
    expect(r.issues[2]?.message).toBe(
      `Unknown key "__proto__": it is no config field, and some JSON readers would take it for the object's prototype.`,
    );
    // What was validated is what was sent: the key is an own key, its fields nowhere else.
    const csv = r.value?.csvConfig as Record<string, unknown>;
    expect(Object.keys(csv)).toEqual(['assetName', 'firstDataRow', '__proto__']);
    expect(Object.getPrototypeOf(csv)).toBe(Object.prototype);
    expect(csv.timeColumn).toBeUndefined();
    expect(JSON.parse(JSON.stringify(r.value))).toEqual(JSON.parse(protoJson));
  });

  test('constructor and prototype are unknown keys wherever a field is expected; a map key is data', () => {
    const r = validateConfigText(
      `{"constructor": 1, "csvConfig": {"prototype": {}, "dataColumns": {"constructor": {"name": "x"}}}}`,
      { filename: 'c.json' },
    );
    expect(
      r.issues
        .filter((i) => i.code === 'unknown_key' || i.code.startsWith('data_column'))
        .map(place),
    ).toEqual([
      'unknown_key /constructor',
      'unknown_key /csvConfig/prototype',
      // A map's key is data: dataColumns keys are column numbers, and this one is not one.
      'data_column_key_invalid /csvConfig/dataColumns/constructor',
    ]);
  });

  test('property: a reserved key put into any object of a valid config (not a map) is reported at its place, and kept', () => {
    fc.assert(
      fc.property(
        arbDocument,
        fc.constantFrom('__proto__', 'constructor', 'prototype'),
        fc.nat(),
        fc.boolean(),
        (doc, key, pick, asYaml) => {
          const value = JSON.parse(JSON.stringify(doc)) as Record<string, unknown>;
          const objects: Array<[string, Record<string, unknown>]> = [];
          // Maps (a batch's fileConfigs, a CSV's dataColumns) take any key as data.
          const isMap = (path: string) => /\/(fileConfigs|dataColumns)$/.test(path);
          const collect = (v: unknown, path: string) => {
            if (typeof v !== 'object' || v === null) return;
            if (!Array.isArray(v) && !isMap(path))
              objects.push([path, v as Record<string, unknown>]);
            for (const [k, child] of Object.entries(v))
              collect(child, `${path}/${escapePointerToken(k)}`);
          };
          collect(value, '');
          const [path, target] = objects[pick % objects.length] as [
            string,
            Record<string, unknown>,
          ];
          Object.defineProperty(target, key, {
            value: { hidden: 1 },
            enumerable: true,
            writable: true,
            configurable: true,
          });
          const text = asYaml ? stringify(value) : JSON.stringify(value);
          const r = validateConfigText(text, { filename: asYaml ? 'c.yaml' : 'c.json' });
          expect(r.ok).toBe(false);
          expect(r.issues.map(place)).toContain(`unknown_key ${path}/${key}`);
          const direct = validateConfig(JSON.parse(JSON.stringify(value)));
          expect(direct.issues.map(place)).toContain(`unknown_key ${path}/${key}`);
          // The reserved key survives as an own key beside the fields that were there.
          expect(JSON.stringify(direct.value)).toContain(`"${key}":{"hidden":1}`);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('point 5b: lint is linear in the keys of one map', () => {
  // Timed in a Node process of their own: the test processes are kept between files, and a
  // ratio timed here would count other files' leftover work too.
  const apart = doublingApart(new URL('./_lint-work.ts', import.meta.url), Object.keys(cases));
  beforeAll(apart.measure, 240_000);

  test.each(shapes.map(([name]) => name))('size doubling: %s', (name) => {
    expect(apart.ratio(name)).toBeLessThan(RATIO_BOUND);
  });

  test('size doubling: reading a map of many keys (the reader checked duplicates pairwise)', () => {
    expect(apart.ratio('reading a map of many keys')).toBeLessThan(RATIO_BOUND);
  });

  test('a duplicate key is still reported where it is', () => {
    const r = validateConfigText('csvConfig:\n  a: 1\n  b: 2\n  a: 3\n', { filename: 'c.yaml' });
    expect(r.issues.map((i) => [i.code, i.line, i.column])).toEqual([['duplicate_key', 4, 3]]);
  });
});
