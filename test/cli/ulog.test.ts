import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures');
const SAMPLE = join(fixtures, 'platform-examples', 'ulog-sample.ulg');
let dir: string;
let wrong: string;

function call(...argv: string[]) {
  return runCli(dir, argv);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-ulog-cli-'));
  wrong = join(dir, 'wrong.yaml');
  await writeFile(
    wrong,
    `ulogConfig:
  data:
    - messageName: sensor_accel
      instance: "0"
      fieldName: q
      channelConfig: { name: accel.q, dataType: CHANNEL_DATA_TYPE_FLOAT }
`,
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('importkit with ULog files', () => {
  test('infer prints the draft and explains it; exit 0', async () => {
    const r = await call('infer', SAMPLE, '--explain', '--format', 'json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { ulogConfig: { data: unknown[] } };
    expect(doc.ulogConfig.data).toHaveLength(12);
    expect(r.stderr).toMatch(/\/ulogConfig\/relativeStartTime\s+\(left out: the GPS time/);
    expect(r.stderr).toMatch(/\/ulogConfig\/paramKeys\s+\(left out\)/);
  });

  test('the explain table in docs/configs/ulog.md is what --explain prints', async () => {
    const page = await readFile(join(fixtures, '..', 'docs', 'configs', 'ulog.md'), 'utf8');
    const block = /```text explain\n([\s\S]*?)```/.exec(page)?.[1];
    const r = await call('infer', SAMPLE, '--explain');
    expect(block).toBeDefined();
    expect(r.stderr).toBe(block);
  });

  test('inspect lists the channels; json is the whole profile', async () => {
    const text = await call('inspect', SAMPLE);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('sensor_gps_0.time_utc_usec');
    const json = JSON.parse((await call('inspect', SAMPLE, '--format', 'json')).stdout) as {
      subscriptions: unknown[];
      info: unknown[];
    };
    expect(json.subscriptions).toHaveLength(3);
    expect(json.info).toEqual([{ key: 'ver_sw', type: 'char[5]', value: '1.0.0' }]);
  });

  test.each(['text', 'json', 'github', 'sarif', 'junit'])(
    'check with a wrong field: exit 1, the code in the %s report',
    async (reporter) => {
      const r = await call('check', wrong, SAMPLE, '--reporter', reporter);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('ulog_field_not_in_file');
      expect(r.stdout).toContain("sensor_accel has no field 'q'");
    },
  );

  test('check decodes values, sampled and full, and the verdict says what was read', async () => {
    const repeated = join(fixtures, 'check-ulog', 'repeated-data.ulg');
    const draft = join(dir, 'repeated.yaml');
    const start = ['--relative-start', '2024-05-01T12:00:00Z'];
    expect((await call('infer', repeated, ...start, '-o', draft)).code).toBe(0);
    for (const flags of [[], ['--full']]) {
      const r = await call('check', draft, repeated, ...flags, '-r', 'github');
      expect(r.stdout).toMatch(
        /^::warning .*the timestamp of sensor_accel_0 goes backwards 1 time; first at message 40 of sensor_accel_0 \(offset \d+, timestamp 2000000 µs\)/m,
      );
    }
    const sample = join(dir, 'sample.yaml');
    expect((await call('infer', SAMPLE, '-o', sample)).code).toBe(0);
    const sampled = await call('check', sample, SAMPLE);
    expect(sampled.stdout).toContain(
      `fits ${sample} (its definitions and message headers read; the messages the config names decoded from the head, three slices and the tail of the data section (all of it under 4 MiB) and the head of each appended part; --full decodes every one)`,
    );
    const full = await call('check', sample, SAMPLE, '--full');
    expect(full.stdout).toContain(
      `fits ${sample} (its definitions and message headers read; every message the config names decoded)`,
    );
  });

  test('check points at the config line of the field', async () => {
    const r = await call('check', wrong, SAMPLE, '-r', 'github');
    expect(r.stdout.split('\n')[0]).toMatch(
      /^::error file=.*wrong.yaml,line=5,col=18,title=ulog_field_not_in_file::/,
    );
  });
});
