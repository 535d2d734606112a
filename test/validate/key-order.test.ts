/**
 * The canonical key order read from the committed JSON Schemas (`inSchemaOrder`, what
 * `infer` uses so as not to load zod) is the model's order (`inCanonicalOrder`, from the
 * zod schemas, what `fmt` uses): the same document, keys shuffled and unknown keys added,
 * comes out key for key the same, at every depth.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { inCanonicalOrder } from '../../src/model/index.js';
import { inSchemaOrder } from '../../src/validate/index.js';
import { arbDocument } from '../helpers/arbitraries.js';

/** A copy of `value` with every object's keys in an order `seed` picks, and `extra` keys added. */
function shuffled(value: unknown, seed: number, extra: boolean): unknown {
  if (Array.isArray(value)) return value.map((v, i) => shuffled(v, seed + i, extra));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(
    ([k, v], i) => [k, shuffled(v, seed * 31 + i, extra)] as [string, unknown],
  );
  if (extra) entries.push([`zz${seed % 7}`, seed], [String(seed % 5), 'x']);
  const rank = (k: string) => [...k].reduce((h, c) => (h * 33 + c.charCodeAt(0) + seed) % 9973, 7);
  entries.sort(([a], [b]) => rank(a) - rank(b));
  return Object.fromEntries(entries);
}

/** Every object's keys, in order, depth first: what an order-blind comparison would miss. */
function keyPaths(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => keyPaths(v, `${at}/${i}`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [`${at}/${k}`, ...keyPaths(v, `${at}/${k}`)]);
}

describe('inSchemaOrder', () => {
  test('orders a document as the zod model does, whatever order its keys came in', () => {
    fc.assert(
      fc.property(arbDocument, fc.nat(10_000), fc.boolean(), (document, seed, extra) => {
        const input = shuffled(document, seed, extra);
        const ours = inSchemaOrder(input);
        expect(keyPaths(ours)).toEqual(keyPaths(inCanonicalOrder(input)));
        expect(ours).toEqual(input);
      }),
      { numRuns: 200 },
    );
  });

  test('puts known keys in the reference order, column numbers ascending, unknown keys last', () => {
    const input = {
      csvConfig: {
        dataColumns: { 10: { dataType: 'CHANNEL_DATA_TYPE_DOUBLE', name: 'b' }, 2: { name: 'a' } },
        extra: 1,
        timeColumn: { format: 'TIME_FORMAT_ABSOLUTE_RFC3339', columnNumber: 1 },
        assetName: 'a',
      },
    };
    expect(keyPaths(inSchemaOrder(input))).toEqual([
      '/csvConfig',
      '/csvConfig/assetName',
      '/csvConfig/timeColumn',
      '/csvConfig/timeColumn/columnNumber',
      '/csvConfig/timeColumn/format',
      '/csvConfig/dataColumns',
      '/csvConfig/dataColumns/2',
      '/csvConfig/dataColumns/2/name',
      '/csvConfig/dataColumns/10',
      '/csvConfig/dataColumns/10/name',
      '/csvConfig/dataColumns/10/dataType',
      '/csvConfig/extra',
    ]);
  });
});
