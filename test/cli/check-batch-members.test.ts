/**
 * `importkit check <batch> <folder | archive>`: a member's data issue names the member. The
 * reporters place it on the config line its pointer names, which members sharing a default
 * config share, so the message starts with the member's path inside the folder or archive.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { JsonOutput } from '../../src/cli/reporters/json.js';
import { run } from '../../src/cli/run.js';
import { repoRoot } from '../helpers/paths.js';

const fixtures = join(repoRoot, 'fixtures', 'batch');

/** Two members on the default config (INT_32 for decimals), one with its own wrong format. */
const CONFIG = `batchConfig:
  assetName: campaign
  defaultCsvConfig:
    firstDataRow: 2
    timeColumn: { columnNumber: 1, format: TIME_FORMAT_ABSOLUTE_RFC3339 }
    dataColumns:
      "2": { name: température, dataType: CHANNEL_DATA_TYPE_INT_32 }
  fileConfigs:
    runs/day 1/run-1.csv: { type: DATA_TYPE_KEY_CSV }
    runs/day 2/run-2 é.csv: { type: DATA_TYPE_KEY_CSV }
    other-layout.csv:
      type: DATA_TYPE_KEY_CSV
      csvConfig:
        firstDataRow: 2
        timeColumn: { columnNumber: 1, format: TIME_FORMAT_ABSOLUTE_RFC3339 }
        dataColumns:
          "2": { name: p, dataType: CHANNEL_DATA_TYPE_DOUBLE }
`;

const TIMES =
  "40 of 40 sampled time values do not parse as ABSOLUTE_RFC3339: '1728320409982' at row 2 (line 2), '1728320409992' at row 3 (line 3), '1728320410002' at row 4 (line 4) and 37 more";
const VALUES =
  "40 values of column 2 ('température') do not fit INT_32: '-50.9262' at row 2 (line 2), '-8.9085' at row 3 (line 3), '-49.4935' at row 4 (line 4) and 37 more";
const TIMES_HINT = 'The values look like ABSOLUTE_UNIX_MILLISECONDS.';
const VALUES_HINT = 'Use dataType: CHANNEL_DATA_TYPE_DOUBLE, or fix the values.';

let dir: string;
let config: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-check-members-'));
  config = join(dir, 'batch.yaml');
  await writeFile(config, CONFIG);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function check(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(['check', ...argv], {
    stdout: { write: (s) => void out.push(s) },
    stderr: { write: (s) => void err.push(s) },
    env: {},
    cwd: fixtures,
  });
  return { code, out: out.join(''), err: err.join('') };
}

describe('check of a batch: member issues name the member', () => {
  const text = () =>
    [
      `${config}:15:48 error time_not_parseable other-layout.csv: ${TIMES} (at /batchConfig/fileConfigs/other-layout.csv/csvConfig/timeColumn/format)`,
      `  hint: ${TIMES_HINT}`,
      `${config}:7:43 error value_type_mismatch runs/day 1/run-1.csv: ${VALUES} (at /batchConfig/defaultCsvConfig/dataColumns/2/dataType)`,
      `  hint: ${VALUES_HINT}`,
      `${config}:7:43 error value_type_mismatch runs/day 2/run-2 é.csv: ${VALUES} (at /batchConfig/defaultCsvConfig/dataColumns/2/dataType)`,
      `  hint: ${VALUES_HINT}`,
      '✖ 3 errors, 0 warnings: 1 of 1 file invalid, 0 valid',
      '',
    ].join('\n');

  test('a folder and its zip: the same text, each message naming its member', async () => {
    for (const data of ['campaign', 'campaign.zip']) {
      const r = await check(config, data);
      expect({ data, ...r }).toEqual({ data, code: 1, out: text(), err: '' });
    }
  });

  test('a tar.gz with the GitHub reporter: each annotation names its member', async () => {
    const r = await check(config, 'campaign.tar.gz', '-r', 'github');
    const at = (line: number, col: number, code: string) =>
      `::error file=${config},line=${line},col=${col},title=${code}::`;
    expect(r).toEqual({
      code: 1,
      out: [
        `${at(15, 48, 'time_not_parseable')}other-layout.csv: ${TIMES}%0Ahint: ${TIMES_HINT}`,
        `${at(7, 43, 'value_type_mismatch')}runs/day 1/run-1.csv: ${VALUES}%0Ahint: ${VALUES_HINT}`,
        `${at(7, 43, 'value_type_mismatch')}runs/day 2/run-2 é.csv: ${VALUES}%0Ahint: ${VALUES_HINT}`,
        '1 file: 0 valid, 1 invalid (3 errors, 0 warnings)',
        '',
      ].join('\n'),
      err: '',
    });
  });

  test('a zip with the JSON reporter: messages name the member; batch messages are left as they are', async () => {
    const r = await check(config, 'campaign.zip', '-r', 'json');
    const issues = (JSON.parse(r.out) as JsonOutput).files[0]?.issues ?? [];
    const notListed = (path: string) => [
      'batch_file_not_listed',
      `${path} is a data file of the folder or archive but is not listed: it will not be imported`,
    ];
    expect(issues.map((i) => [i.code, i.message])).toEqual([
      notListed('broken.parquet'),
      notListed(
        'long-names/a-rather-long-folder-name-a-rather-long-folder-name-a-rather-long-folder-name-a-rather-long-folder-name-/measurements of day 3.csv',
      ),
      ['time_not_parseable', `other-layout.csv: ${TIMES}`],
      notListed('parquet/rows.parquet'),
      ['value_type_mismatch', `runs/day 1/run-1.csv: ${VALUES}`],
      ['value_type_mismatch', `runs/day 2/run-2 é.csv: ${VALUES}`],
      notListed('tdms/bench.tdms'),
      notListed('ulog/flight.ulg'),
    ]);
  });
});
