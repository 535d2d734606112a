/**
 * The draft's own YAML writer (`plainDraftYaml`) writes exactly what the yaml package writes
 * for the same document and comment, whenever it writes anything; and it writes the plain
 * drafts `infer` gives for a typical CSV, so that `infer` need not load the package.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { Document } from 'yaml';
import { plainDraftYaml } from '../../src/cli/commands/_draft-yaml.js';
import { CONFIG_KIND_NAMES } from '../../src/model/plain.js';
import { arbDocumentOf } from '../helpers/arbitraries.js';

const COMMENT = [' Draft CsvConfig inferred by importkit from data.csv.', ' Check it.'];

/** What the yaml package writes (as `infer` asks it to). */
function packageYaml(value: unknown, comment: readonly string[]): string {
  const doc = new Document(value);
  if (comment.length > 0) doc.commentBefore = comment.join('\n');
  return doc.toString({ lineWidth: 0 });
}

/** Keys and strings near the edges: words YAML reads as other types, numbers, indicators. */
const arbWord = fc.oneof(
  fc.constantFrom(
    'true',
    'False',
    'null',
    'NULL',
    'yes',
    'No',
    'on',
    'y',
    '~',
    '',
    ' ',
    '2',
    '02',
    '-1',
    '1.5',
    '0x1F',
    '.inf',
    'a: b',
    'a #b',
    'a b',
    'a  b',
    'a ',
    ' a',
    '-a',
    'a-',
    'm/s',
    '°C',
    'x(y)',
    'a.b',
    '_x',
    'a\nb',
    '"q"',
    "'q'",
    '[a]',
    '{a}',
    '@a',
    '`a',
    'a,b',
    'TIME_FORMAT_ABSOLUTE_RFC3339',
  ),
  fc.string({ maxLength: 6 }),
  fc.stringMatching(/^[A-Za-z0-9 _./()-]{1,8}$/),
);

const arbScalar = fc.oneof(
  arbWord,
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constantFrom(null, -0, 1e21, 1e-7),
);

const arbValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    arbScalar,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(arbWord, tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('the draft YAML writer', () => {
  test('writes what the yaml package writes, or nothing (generated values)', () => {
    fc.assert(
      fc.property(fc.dictionary(arbWord, arbValue, { minKeys: 1, maxKeys: 4 }), (value) => {
        const own = plainDraftYaml(value, COMMENT);
        if (own !== undefined) expect(own).toBe(packageYaml(value, COMMENT));
      }),
      { numRuns: 2000 },
    );
  });

  test('writes what the yaml package writes, or nothing (generated configs of every kind)', () => {
    for (const kind of CONFIG_KIND_NAMES) {
      fc.assert(
        fc.property(arbDocumentOf(kind), (document) => {
          const own = plainDraftYaml(document, COMMENT);
          if (own !== undefined) expect(own).toBe(packageYaml(document, COMMENT));
        }),
        { numRuns: 200 },
      );
    }
  });

  test('writes a typical CSV draft, as the yaml package does', () => {
    const document = {
      csvConfig: {
        assetName: 'rig-7',
        runName: 'bench run',
        firstDataRow: 2,
        timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_RFC3339' },
        dataColumns: {
          2: { name: 'speed', units: 'm/s', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
          10: { name: 'count', dataType: 'CHANNEL_DATA_TYPE_INT_32', enumTypes: [] },
        },
        metadata: [{ key: { name: 'site' }, stringValue: 'north' }],
      },
    };
    const own = plainDraftYaml(document, COMMENT);
    expect(own).toBe(packageYaml(document, COMMENT));
    expect(own?.split('\n').slice(0, 5)).toEqual([
      '# Draft CsvConfig inferred by importkit from data.csv.',
      '# Check it.',
      '',
      'csvConfig:',
      '  assetName: rig-7',
    ]);
  });

  test('leaves to the yaml package what it does not write', () => {
    expect([
      plainDraftYaml({ a: 'yes' }, COMMENT),
      plainDraftYaml({ a: '' }, COMMENT),
      plainDraftYaml({ a: '°C' }, COMMENT),
      plainDraftYaml({ a: null }, COMMENT),
      plainDraftYaml({ a: [[1]] }, COMMENT),
      plainDraftYaml({}, COMMENT),
      plainDraftYaml({ a: 1 }, [' naïve.csv']),
    ]).toEqual([undefined, undefined, undefined, undefined, undefined, undefined, undefined]);
  });
});
