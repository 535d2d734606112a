/**
 * End to end with the real binary: `importkit serve` in the background, then `importkit
 * submit` and `importkit status` as separate processes. Runs the compiled code (dist/),
 * building it first when it is missing or older than the sources (`ensureBuilt`).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
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
  await ensureBuilt('dist/src/emulator/server.js');
  dir = await mkdtemp(join(tmpdir(), 'importkit-e2e-'));
}, 240_000);

afterAll(async () => {
  for (const c of children) c.kill('SIGTERM');
  await rm(dir, { recursive: true, force: true });
});

/** Starts `importkit serve` and resolves with its URL once it has said how to use it. */
function serve(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  cwd?: string,
): Promise<{ url: string; child: ChildProcess; stdout: () => string; stderr: () => string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
    ...(cwd ? { cwd } : {}),
  });
  children.push(child);
  let err = '';
  let out = '';
  const host = args[args.indexOf('--host') + 1];
  const wildcard = args.includes('--host') && (host === '0.0.0.0' || host === '::');
  return new Promise((resolve, reject) => {
    const ready = () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      // The usage ends with the exports for another machine when it listens on every interface.
      const last = wildcard ? /IMPORTKIT_ALLOW_HTTP_HOST=.*\n/ : /IMPORTKIT_API_KEY=.*\n/;
      if (m?.[1] && last.test(err)) {
        resolve({ url: m[1], child, stdout: () => out, stderr: () => err });
      }
    };
    child.stderr?.on('data', (d) => {
      err += String(d);
      ready();
    });
    child.stdout?.on('data', (d) => {
      out += String(d);
      ready();
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
}

function cli(args: string[], url: string, env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: dir,
    env: { ...process.env, IMPORTKIT_BASE_URL: url, IMPORTKIT_API_KEY: KEY, CI: '1', ...env },
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

  // An address of this machine that another machine can reach, when it has one.
  const lan = Object.entries(networkInterfaces()).flatMap(([name, list]) =>
    (list ?? [])
      .filter((a) => a.family === 'IPv4' && !a.internal)
      .map((a) => ({ name, address: a.address })),
  );
  test.skipIf(lan.length === 0)(
    'serve --host 0.0.0.0 prints every address it answers at; a client there sends the key over plain http only to a host it names, and warns once',
    async () => {
      const s = await serve(['--host', '0.0.0.0', '--api-key', `${KEY}=e2e-org`]);
      const port = new URL(s.url).port;
      const first = lan[0] as { address: string };
      const there = `http://${first.address}:${port}`;
      expect(s.stdout()).toBe(
        [
          `importkit emulator listening on http://127.0.0.1:${port}`,
          ...lan.map((a) => `  and on http://${a.address}:${port} (${a.name})`),
          '',
        ].join('\n'),
      );
      expect(s.stderr()).toContain(
        `  export IMPORTKIT_BASE_URL=${there}\n  export IMPORTKIT_ALLOW_HTTP_HOST=${first.address}\n`,
      );

      const refused = cli(['status', 'nope'], there);
      expect({ code: refused.code, stderr: refused.stderr }).toEqual({
        code: 1,
        stderr: [
          `importkit status: IMPORTKIT_BASE_URL is ${there}: the API key is never sent over plain http to another machine unless its host is named`,
          `  hint: use https; or, on a network you trust (a CI service container, a docker compose service), name the host: --allow-http-host ${first.address} or export IMPORTKIT_ALLOW_HTTP_HOST=${first.address}`,
          '',
        ].join('\n'),
      });

      const draft = await inferConfig(DATA);
      (draft.document as { csvConfig: { assetName?: string } }).csvConfig.assetName = 'lan';
      await writeFile(join(dir, 'lan.json'), JSON.stringify(draft.document));
      const warning = `warning: the API key goes to ${first.address} over plain http (allowed by name): anyone who can watch that network can read it\n`;
      // The upload URL the emulator hands out is the address the client reached it at.
      const sent = cli(['submit', 'lan.json', DATA, '--wait', '--poll-interval', '0.05'], there, {
        IMPORTKIT_ALLOW_HTTP_HOST: first.address,
      });
      expect(sent.stdout).toMatch(/^data import \S+: SUCCEEDED/);
      expect(sent.stderr.split(warning).length - 1).toBe(1);
      expect(sent.stderr.startsWith(warning)).toBe(true);
      const id = /data import (\S+): SUCCEEDED/.exec(sent.stdout)?.[1] ?? '';
      const shown = cli(['status', id, '--allow-http-host', first.address], there);
      expect({ code: shown.code, stderr: shown.stderr }).toEqual({ code: 0, stderr: warning });
      await stop(s.child);
    },
    60_000,
  );
});
