/**
 * The rules share one list of a document's configs while they run (withConfigsListed): what
 * they find is what each finds listing the configs itself, for any document, batches of
 * many files and documents with faults included.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { configsOf, withConfigsListed } from '../../src/validate/rules/_walk.js';
import { RULES, runRules } from '../../src/validate/rules/index.js';
import { arbDocument, arbDocumentOf } from '../helpers/arbitraries.js';

type Json = Record<string, unknown>;

/** Every place of an object tree: its parent and key. */
function places(v: unknown, out: Array<[Json, string]> = []): Array<[Json, string]> {
  if (typeof v !== 'object' || v === null) return out;
  for (const [k, e] of Object.entries(v)) {
    out.push([v as Json, k]);
    places(e, out);
  }
  return out;
}

/** Values the rules find faults in at some places (a time format wanting a start, ...). */
const FAULTS: unknown[] = [
  '',
  'X',
  -1,
  true,
  {},
  'TIME_FORMAT_RELATIVE_SECONDS',
  'CHANNEL_DATA_TYPE_ENUM',
  'CHANNEL_DATA_TYPE_BIT_FIELD',
  'run-1',
  'speed',
];

/**
 * A valid document with a few of its values replaced, and its top config given both a run
 * name and a run id (which the run rule reports): the rules find something in each.
 */
const arbFaulty = fc
  .tuple(
    fc.oneof(arbDocument, arbDocumentOf('batch')),
    fc.array(fc.tuple(fc.nat(), fc.constantFrom<unknown>(...FAULTS)), {
      minLength: 1,
      maxLength: 6,
    }),
  )
  .map(([doc, faults]) => {
    const d = JSON.parse(JSON.stringify(doc)) as Json;
    for (const [at, value] of faults) {
      const all = places(d);
      const place = all[at % Math.max(1, all.length)];
      if (place) place[0][place[1]] = structuredClone(value);
    }
    const top = Object.values(d).find((v) => typeof v === 'object' && v !== null);
    if (top && !Array.isArray(top)) Object.assign(top, { runName: 'run', runId: 'r-1' });
    return d;
  });

test('runRules finds what the rules find each on its own', () => {
  let found = 0;
  fc.assert(
    fc.property(arbFaulty, (d) => {
      const alone = RULES.flatMap((r) => r.rule(d));
      if (alone.length > 0) found += 1;
      expect(runRules(d)).toEqual(alone);
    }),
    { numRuns: 200 },
  );
  // Nearly every document had something for the rules to find (a fault may replace the
  // top config itself).
  expect(found).toBeGreaterThan(150);
});

test('the list a run shares is its document’s, and only while it runs', () => {
  fc.assert(
    fc.property(arbFaulty, arbFaulty, (d, other) => {
      const own = configsOf(d);
      expect(withConfigsListed(d, () => configsOf(d))).toEqual(own);
      expect(withConfigsListed(d, () => configsOf(other))).toEqual(configsOf(other));
      expect(withConfigsListed(d, () => withConfigsListed(other, () => configsOf(d)))).toEqual(own);
      // After the run, a change to the document shows.
      withConfigsListed(d, () => configsOf(d));
      for (const k of Object.keys(d)) delete d[k];
      expect(configsOf(d)).toEqual([]);
    }),
    { numRuns: 100 },
  );
});
