/**
 * End to end with the real binary: `importkit serve` in the background, then `importkit
 * submit` and `importkit status` as separate processes. Runs the compiled code (dist/),
 * building it first when it is missing or older than the sources it needs.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { inferConfig } from '../../src/infer/index.js';
import { corpusDir, repoRoot } from '../client/_helpers.js';
import { ensureBuilt } from '../helpers/built.js';

const BIN = join(repoRoot, 'bin', 'importkit.js');
const KEY = 'e2e-key-0123456789';
const DATA = join(corpusDir, 'csv-absolute-datetime.csv');
let dir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  await ensureBuilt('dist/src/emulator/server.js', ['client', 'emulator', 'cli']);
  dir = await mkdtemp(join(tmpdir(), 'importkit-e2e-'));
}, 180_000);

afterAll(async () => {
  for (const c of children) c.kill('SIGTERM');
  await rm(dir, { recursive: true, force: true });
});

/** Starts `importkit serve` and resolves with its URL once it prints it. */
function serve(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  cwd?: string,
): Promise<{ url: string; child: ChildProcess; stderr: () => string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
    ...(cwd ? { cwd } : {}),
  });
  children.push(child);
  let err = '';
  child.stderr?.on('data', (d) => {
    err += String(d);
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d) => {
      out += String(d);
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) resolve({ url: m[1], child, stderr: () => err });
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
}

function cli(args: string[], url: string) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: dir,
    env: { ...process.env, IMPORTKIT_BASE_URL: url, IMPORTKIT_API_KEY: KEY, CI: '1' },
    encoding: 'utf8',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

describe('importkit serve + submit, as processes', () => {
  test('SUCCEEDED for the inferred config; FAILED naming a missing column; state survives a restart', async () => {
    const draft = await inferConfig(DATA);
    const doc = draft.document as {
      csvConfig: { assetName?: string; dataColumns: Record<string, unknown> };
    };
    doc.csvConfig.assetName = 'e2e';
    await writeFile(join(dir, 'good.json'), JSON.stringify(doc));
    doc.csvConfig.dataColumns['12'] = { name: 'extra', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' };
    await writeFile(join(dir, 'missing.json'), JSON.stringify(doc));
    const dataDir = join(dir, 'state');

    const first = await serve(['--data-dir', dataDir, '--api-key', `${KEY}=e2e-org`]);
    const ok = cli(
      ['submit', 'good.json', DATA, '--wait', '--poll-interval', '0.05', '--timeout', '60'],
      first.url,
    );
    expect(ok.stderr).toContain('status: SUCCEEDED');
    expect(ok.code).toBe(0);
    const id = /data import (\S+): SUCCEEDED/.exec(ok.stdout)?.[1] ?? '';
    expect(id).not.toBe('');

    const bad = cli(
      [
        'submit',
        'missing.json',
        DATA,
        '--no-check',
        '--wait',
        '--poll-interval',
        '0.05',
        '--timeout',
        '60',
      ],
      first.url,
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/failed: column 12 \('extra'\) is past the last column/);
    expect(await stop(first.child)).toBe(0);
    expect(first.stderr()).not.toContain(KEY);

    const second = await serve(['--data-dir', dataDir, '--api-key', `${KEY}=e2e-org`]);
    const again = cli(['status', id, '--json'], second.url);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).status).toBe('DATA_IMPORT_STATUS_SUCCEEDED');
    await stop(second.child);
  }, 120_000);

  test('--faults: the client rides over injected 503s and 429s', async () => {
    const s = await serve(['--api-key', `${KEY}=e2e-org`, '--faults', '503=2x,429=1x:0']);
    const r = cli(['status', 'nope'], s.url);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/HTTP 404, code 5/);
    const usage = spawnSync(process.execPath, [BIN, 'serve', '--faults', 'oops=1'], {
      encoding: 'utf8',
    });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain("unknown kind 'oops'");
    await stop(s.child);
  }, 60_000);

  test('--seed, --url-map and --strict: seeded ids printed, mapped URLs imported, drops logged or refused', async () => {
    const bucket = join(dir, 'bucket');
    await mkdir(bucket, { recursive: true });
    await writeFile(join(bucket, 'data.csv'), 'time,temp\n2024-01-01T00:00:00Z,1\n');
    await writeFile(
      join(dir, 'seed.json'),
      JSON.stringify({ channels: [{ channelId: 'chan-1', name: 'temp', active: true }] }),
    );
    const flags = ['--api-key', `${KEY}=e2e-org`, '--seed', 'seed.json'];
    const mapped = ['--url-map', `https://bucket.example/=${bucket}`];
    const started = await Promise.all([
      serve([...flags, ...mapped], { ...process.env }, dir),
      serve([...flags, '--strict'], { ...process.env }, dir),
    ]);
    const patch = (url: string) =>
      fetch(`${url}/api/v3/channels`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          channel: { channelId: 'chan-1', active: false, hack: 1 },
          updateMask: 'active',
        }),
      });
    const [lax, strict] = await Promise.all(started.map((s) => patch(s.url)));
    const created = await fetch(`${started[0]?.url}/api/v2/data-imports:url`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        url: 'https://bucket.example/data.csv',
        csvConfig: {
          assetName: 'rig',
          runName: 'mapped',
          firstDataRow: 2,
          timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_RFC3339' },
          dataColumns: { '2': { name: 'temp', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' } },
        },
      }),
    });
    const { dataImportId } = (await created.json()) as { dataImportId: string };
    const status = cli(
      ['status', dataImportId, '--wait', '--poll-interval', '0.05'],
      started[0]?.url ?? '',
    );
    expect(status.stderr).toContain('status: SUCCEEDED');
    expect([lax?.status, strict?.status]).toEqual([200, 400]);
    for (const s of started)
      expect(s.stderr()).toContain('seeded for organization e2e-org: channels chan-1\n');
    expect(started[0]?.stderr()).toContain(
      'emulator: UpdateChannel: dropped channel.hack, an unknown field, as the platform does\n',
    );
    for (const s of started) expect(await stop(s.child)).toBe(0);
    const usage = (args: string[]) =>
      spawnSync(process.execPath, [BIN, 'serve', ...args], { cwd: dir, encoding: 'utf8' });
    const refused = [usage(['--url-map', 'bucket']), usage(['--seed', 'nothing.json'])];
    expect(refused.map((r) => [r.status, r.stderr.split('\n')[0]])).toEqual([
      [
        2,
        "importkit serve: --url-map 'bucket': expected PREFIX=FOLDER, e.g. https://bucket.example/=./data/",
      ],
      [2, 'importkit serve: --seed nothing.json: cannot read it (ENOENT)'],
    ]);
  }, 120_000);

  test('a store that cannot be read: what is wrong and how to recover, exit 1, no stack trace', async () => {
    const damaged = join(dir, 'damaged');
    await mkdir(damaged);
    const header = JSON.stringify({ importkitEmulatorStore: 1 });
    const lines = [header, '["put","meta","seq",1]', '["commit"]', '{"seq":', '["commit"]'];
    await writeFile(join(damaged, 'store.jsonl'), `${lines.join('\n')}\n`);
    const notAFolder = join(dir, 'not-a-folder');
    await writeFile(notAFolder, 'x');
    const run = (dataDir: string) =>
      spawnSync(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir], {
        encoding: 'utf8',
        timeout: 60_000,
      });
    const answers = [run(damaged), run(notAFolder)].map((r) => ({
      code: r.status,
      stderr: r.stderr,
    }));
    const open = (d: string) => `importkit serve: cannot open the emulator's store in ${d}:`;
    expect(answers).toEqual([
      {
        code: 1,
        stderr: `${open(damaged)} store.jsonl is damaged at line 4: it is not JSON\n  hint: To start with an empty store, move ${damaged} aside (or remove store.jsonl from it; the uploads stay); to keep what it held, restore the folder from a copy.\n`,
      },
      {
        code: 1,
        stderr: `${open(notAFolder)} mkdir ${notAFolder}/uploads failed (ENOTDIR)\n  hint: --data-dir must name a folder: ${notAFolder} is not one.\n`,
      },
    ]);
  }, 120_000);

  test('without --data-dir, a stopped server leaves nothing in the temp directory', async () => {
    const temp = await mkdtemp(join(dir, 'temp-'));
    try {
      const draft = await inferConfig(DATA);
      (draft.document as { csvConfig: { assetName?: string } }).csvConfig.assetName = 'tmp';
      await writeFile(join(dir, 'tmp.json'), JSON.stringify(draft.document));
      const s = await serve(['--api-key', `${KEY}=e2e-org`], { ...process.env, TMPDIR: temp });
      expect((await readdir(temp)).length).toBe(1);
      const ok = cli(['submit', 'tmp.json', DATA, '--wait', '--poll-interval', '0.05'], s.url);
      expect(ok.code).toBe(0);
      expect(await stop(s.child)).toBe(0);
      expect(await readdir(temp)).toEqual([]);
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
  }, 60_000);
});
