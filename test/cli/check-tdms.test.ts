import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/run.js';

const DATA = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'fixtures',
  'platform-examples',
  'tdms-time-channel.tdms',
);
let dir: string;
let wrong: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-check-tdms-'));
  wrong = join(dir, 'wrong.yaml');
  await writeFile(
    wrong,
    `tdmsConfig:
  assetName: rig
  data:
    - groupName: Measurements
      channelName: chanel_1
      timeChannelName: Timestamp
      channelConfig: { name: c1, dataType: CHANNEL_DATA_TYPE_DOUBLE }
`,
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function call(...argv: string[]) {
  let stdout = '';
  const code = await run(argv, {
    stdout: {
      write: (s) => {
        stdout += s;
      },
    },
    stderr: { write: () => undefined },
    env: {},
    cwd: dir,
  });
  return { code, stdout };
}

describe('importkit check on a TDMS file', () => {
  test('the inferred config passes: exit 0, the verdict saying what was read', async () => {
    const out = join(dir, 'draft.yaml');
    expect((await call('infer', DATA, '-o', out)).code).toBe(0);
    const sampled = await call('check', out, DATA);
    expect(sampled.code).toBe(0);
    // The verdict names exactly what the TDMS check read: never "every row".
    expect(sampled.stdout.split('\n').at(-2)).toBe(
      `✔ ${DATA} fits ${out} (its metadata and the first and last 10,000 values of each channel it imports read; --full reads every value)`,
    );
    const full = await call('check', out, DATA, '--full');
    expect(full.code).toBe(0);
    expect(full.stdout.split('\n').at(-2)).toBe(
      `✔ ${DATA} fits ${out} (its metadata and every value of the channels it imports read)`,
    );
  });

  test('values the check could not read: the verdict says they were not read', async () => {
    const daqmx = join(dirname(DATA), '..', 'tdms', 'daqmx.tdms');
    const out = join(dir, 'daqmx.yaml');
    expect((await call('infer', daqmx, '-o', out)).code).toBe(0);
    const full = await call('check', out, daqmx, '--full');
    expect(full.code).toBe(0);
    expect(full.stdout.split('\n').at(-2)).toBe(
      `✔ ${daqmx} fits ${out} (its metadata and every value of the channels it imports read; not the values tdms_values_not_read names) (2 warnings)`,
    );
  });

  test('a wrong channel name: exit 1 in every reporter, at the config line, with did-you-mean', async () => {
    const text = await call('check', wrong, DATA);
    expect(text.code).toBe(1);
    expect(text.stdout.split('\n').slice(0, 2)).toEqual([
      `${wrong}:5:20 error tdms_channel_not_in_file channel 'chanel_1' is not in group 'Measurements' (at /tdmsConfig/data/0/channelName)`,
      "  hint: Did you mean 'channel_1'?",
    ]);
    const json = JSON.parse((await call('check', wrong, DATA, '-r', 'json')).stdout) as {
      files: Array<{ issues: Array<{ code: string; line: number; severity: string }> }>;
    };
    expect(
      json.files[0]?.issues.filter((i) => i.severity === 'error').map((i) => [i.code, i.line]),
    ).toEqual([['tdms_channel_not_in_file', 5]]);
    const github = await call('check', wrong, DATA, '-r', 'github');
    expect(github.stdout.split('\n')[0]).toBe(
      `::error file=${wrong},line=5,col=20,title=tdms_channel_not_in_file::channel 'chanel_1' is not in group 'Measurements'%0Ahint: Did you mean 'channel_1'?`,
    );
    const sarif = JSON.parse((await call('check', wrong, DATA, '-r', 'sarif')).stdout) as {
      runs: Array<{ results: Array<{ ruleId: string; locations: unknown[] }> }>;
    };
    expect(sarif.runs[0]?.results.map((r) => r.ruleId)).toEqual(['tdms_channel_not_in_file']);
    const junit = await call('check', wrong, DATA, '-r', 'junit');
    expect(junit.code).toBe(1);
    expect(junit.stdout).toContain(
      `<failure message="tdms_channel_not_in_file: channel 'chanel_1' is not in group 'Measurements'" type="tdms_channel_not_in_file">`,
    );
  });
});
