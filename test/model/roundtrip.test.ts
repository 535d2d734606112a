import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { stringify } from 'yaml';
import { CONFIG_KIND_NAMES, type ImportDocument } from '../../src/model/index.js';
import { validateConfig, validateConfigText } from '../../src/validate/index.js';
import { arbDocument, arbDocumentOf, arbParquetConfigOf } from '../helpers/arbitraries.js';

const RUNS = 40;

describe('arbitrary valid configs', () => {
  for (const kind of CONFIG_KIND_NAMES) {
    test(`every ${kind} config passes validation with no issue, unchanged`, () => {
      fc.assert(
        fc.property(arbDocumentOf(kind), (doc) => {
          const result = validateConfig(doc);
          expect(result.issues).toEqual([]);
          expect(result.ok).toBe(true);
          expect(result.value).toEqual(doc);
        }),
        { numRuns: RUNS },
      );
    });
  }

  for (const layout of ['flat', 'single', 'multi'] as const) {
    test(`every Parquet ${layout} layout passes validation`, () => {
      fc.assert(
        fc.property(arbParquetConfigOf(layout), (parquetConfig) => {
          expect(validateConfig({ parquetConfig }).issues).toEqual([]);
        }),
        { numRuns: 20 },
      );
    });
  }
});

describe('round trip', () => {
  test('canonical → YAML → validateConfigText → canonical is the identity', () => {
    fc.assert(
      fc.property(arbDocument, (doc: ImportDocument) => {
        const text = stringify(doc);
        const result = validateConfigText(text, { filename: 'config.yaml' });
        expect(result.issues).toEqual([]);
        expect(result.ok).toBe(true);
        expect(result.value).toEqual(doc);
      }),
      { numRuns: 100 },
    );
  });

  test('canonical → JSON → validateConfigText → canonical is the identity', () => {
    fc.assert(
      fc.property(arbDocument, (doc: ImportDocument) => {
        const result = validateConfigText(JSON.stringify(doc, null, 2), {
          filename: 'config.json',
        });
        expect(result.issues).toEqual([]);
        expect(result.value).toEqual(doc);
      }),
      { numRuns: 60 },
    );
  });
});
