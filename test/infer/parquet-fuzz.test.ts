/** Damaged footers give a draft or an InspectError, never another exception. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { inferParquetSource } from '../../src/formats/parquet/infer.js';
import { memorySource } from '../../src/inspect/byte-source.js';
import { InspectError } from '../../src/inspect/profile.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = join(repoRoot, 'fixtures', 'parquet');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.parquet'))
  .sort()
  .map((f) => new Uint8Array(readFileSync(join(dir, f))));

describe('damaged footers', () => {
  test('random bytes changed in the footer: a draft or an InspectError', async () => {
    const outcomes = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        fc.nat(files.length - 1),
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.nat(255)), {
          minLength: 1,
          maxLength: 6,
        }),
        async (which, edits) => {
          const original = files[which] as Uint8Array;
          const bytes = original.slice();
          const view = new DataView(bytes.buffer);
          const len = view.getUint32(bytes.byteLength - 8, true);
          const start = bytes.byteLength - 8 - len;
          for (const [where, value] of edits) {
            bytes[start + Math.min(len - 1, Math.floor(where * len))] = value;
          }
          try {
            const draft = await inferParquetSource(memorySource(bytes, 'fuzz.parquet'));
            expect(draft.document.parquetConfig?.footerLength).toBe(len);
            outcomes.add('draft');
          } catch (err) {
            if (!(err instanceof InspectError)) throw err;
            expect(err.issue.message.startsWith('fuzz.parquet: ')).toBe(true);
            outcomes.add(err.issue.code);
          }
        },
      ),
      { numRuns: 150, seed: 7 },
    );
    expect(outcomes.has('draft')).toBe(true);
    expect(outcomes.has('parquet_footer_corrupt')).toBe(true);
  });

  test('random bytes changed in the data pages that inference samples: a draft, never a crash', async () => {
    const sampled = ['long-form', 'rfc3339-text'].map(
      (n) => new Uint8Array(readFileSync(join(dir, `${n}.parquet`))),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.nat(sampled.length - 1),
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.nat(255)), {
          minLength: 1,
          maxLength: 6,
        }),
        async (which, edits) => {
          const bytes = (sampled[which] as Uint8Array).slice();
          const len = new DataView(bytes.buffer).getUint32(bytes.byteLength - 8, true);
          const dataEnd = bytes.byteLength - 8 - len;
          for (const [where, value] of edits) {
            bytes[4 + Math.min(dataEnd - 5, Math.floor(where * (dataEnd - 4)))] = value;
          }
          const draft = await inferParquetSource(memorySource(bytes, 'fuzz.parquet'));
          expect(draft.document.parquetConfig?.footerLength).toBe(len);
        },
      ),
      { numRuns: 150, seed: 11 },
    );
  });
});
