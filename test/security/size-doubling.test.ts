/**
 * Every parser and scanner grows linearly with its input (issue 12, point 5): each case of
 * `_doubling-work.ts` builds inputs of size n and 8n and the ratio of their CPU times is
 * bounded far below what a quadratic cost gives (see `doublingRatio`). The cases are timed
 * in a Node process of their own, all in one (see `test/helpers/doubling-apart.ts`): the
 * test processes are kept between files, and a ratio timed here would count other files'
 * leftover work too. Sizes are small: the point is the growth, not the speed (speed is
 * measured by the benchmarks). Where a count of the work tells the growth (the bytes read),
 * it is counted here instead.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { tdmsBytes } from '../../scripts/fixtures/tdms-writer.js';
import { explainTable } from '../../src/cli/commands/_draft-output.js';
import { profileText } from '../../src/cli/commands/inspect.js';
import { readTdmsSourceValues } from '../../src/formats/tdms/raw.js';
import type { Evidence } from '../../src/infer/types.js';
import { countingSource, memorySource } from '../../src/inspect/byte-source.js';
import type { BaseProfile } from '../../src/inspect/profile.js';
import { doublingApart } from '../helpers/doubling-apart.js';
import { cases } from './_doubling-work.js';
import { RATIO_BOUND } from './_helpers.js';

const apart = doublingApart(new URL('./_doubling-work.ts', import.meta.url), Object.keys(cases));
// Every case in one child: about half a minute of CPU on an idle machine.
beforeAll(apart.measure, 240_000);

/** The tests of one group: each case of `cases` named `${group}: ${title}`. */
const tested: string[] = [];
function doubling(group: string, titles: string[]): void {
  for (const title of titles) {
    tested.push(`${group}: ${title}`);
    test(title, () => {
      expect(apart.ratio(`${group}: ${title}`)).toBeLessThan(RATIO_BOUND);
    });
  }
}

describe('CSV inspect and infer (the head they read)', () => {
  doubling('CSV inspect and infer', ['columns', 'line length', 'rows']);
});

describe('CSV check --full', () => {
  doubling('CSV check --full', ['rows']);
});

describe('TDMS metadata', () => {
  doubling('TDMS metadata', [
    'objects in one segment',
    'segments',
    'a new object in every segment',
    'a new object in every segment, beside a channel with data in each',
  ]);
});

describe('TDMS raw data (preview --full and check --full)', () => {
  doubling('TDMS raw data', ['one value per chunk', 'strings of a chunk']);

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
  doubling('ULog walk', ['formats and subscriptions', 'data messages']);
});

describe('CH10 TMATS', () => {
  doubling('CH10 TMATS', [
    'parsing TMATS text',
    'inspect and infer a recording with a TMATS of n channels',
    'recorders that each claim 65,535 sources',
  ]);
});

describe('Parquet footer and schema', () => {
  doubling('Parquet footer and schema', ['columns, up to the cap']);
});

describe('HDF5 (the library runs in a worker: few runs)', () => {
  doubling('HDF5', ['datasets with attributes in one group']);
});

describe('config size: lint and check of a config of n channels', () => {
  doubling('config size', [
    'lint of a YAML config',
    'lint of a JSON config',
    'the shape check of a config whose every entry is wrong',
    'check of a TDMS file against its config',
  ]);
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
  doubling('batches', [
    'did-you-mean hints',
    'a folder of n files in nested subfolders',
    'a folder of n files, in two threads',
  ]);
});

test('every case of the work module has its test', () => {
  expect(tested.sort()).toEqual(Object.keys(cases).sort());
});
