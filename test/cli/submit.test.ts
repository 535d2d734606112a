import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { run } from '../../src/cli/run.js';
import { type Emulator, startEmulator } from '../../src/emulator/index.js';
import { inferConfig } from '../../src/infer/index.js';
import { corpusDir, json, plainServer } from '../client/_helpers.js';

const KEY = `cli-key-${Date.now()}-secret`;
const DATA = join(corpusDir, 'csv-absolute-datetime.csv');
let emu: Emulator;
let dir: string;
let goodConfig: string;
let missingConfig: string;
let badConfig: string;

function io(env: Record<string, string | undefined> = {}, tty = false) {
  const out: string[] = [];
  const err: string[] = [];
  const value: Io = {
    stdout: { write: (s) => void out.push(s), isTTY: tty },
    stderr: { write: (s) => void err.push(s), isTTY: tty, columns: 100 },
    env: { IMPORTKIT_BASE_URL: emu.url, IMPORTKIT_API_KEY: KEY, ...env },
    cwd: dir,
  };
  return { io: value, out: () => out.join(''), err: () => err.join('') };
}

beforeAll(async () => {
  emu = await startEmulator({ apiKeys: { [KEY]: 'cli' }, stepDelayMs: 20 });
  dir = await mkdtemp(join(tmpdir(), 'importkit-cli-submit-'));
  const draft = await inferConfig(DATA);
  const doc = draft.document as {
    csvConfig: Record<string, unknown> & { dataColumns: Record<string, unknown> };
  };
  doc.csvConfig.assetName = 'bench-rig';
  doc.csvConfig.runName = 'cli run';
  goodConfig = join(dir, 'good.json');
  await writeFile(goodConfig, JSON.stringify(doc, null, 2));
  const missing = structuredClone(doc);
  missing.csvConfig.dataColumns['42'] = { name: 'phantom', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' };
  missingConfig = join(dir, 'missing.json');
  await writeFile(missingConfig, JSON.stringify(missing, null, 2));
  badConfig = join(dir, 'bad.yaml');
  await writeFile(
    badConfig,
    'csvConfig:\n  firstDataRow: -3\n  timeColumn:\n    columnNumber: 1\n    format: TIME_FORMAT_NOPE\n',
  );
});
afterAll(async () => {
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});

describe('importkit submit', () => {
  test('a corpus file with its inferred config and --wait ends SUCCEEDED (exit 0)', async () => {
    const t = io();
    const code = await run(
      ['submit', 'good.json', DATA, '--wait', '--poll-interval', '0.01'],
      t.io,
    );
    expect(t.err()).toMatch(
      /^created data import [0-9a-f-]{36}\nuploaded \d+ bytes\nstatus: (PENDING|IN_PROGRESS)\n/,
    );
    expect(t.err()).toContain('status: SUCCEEDED\n');
    expect(code).toBe(0);
    const id = /data import ([0-9a-f-]{36}): SUCCEEDED/.exec(t.out())?.[1];
    expect(id).toBeDefined();
    const d = emu.store.data.imports[id ?? '']?.dataImport;
    expect(d?.status).toBe('DATA_IMPORT_STATUS_SUCCEEDED');
    expect(t.out()).toBe(
      `data import ${id}: SUCCEEDED, run cli run (${d?.runId}), asset bench-rig (${d?.assetId}), data ${d?.dataStartTime} – ${d?.dataStopTime}\n`,
    );
  });

  test('a config naming a missing column ends FAILED (exit 1) with a message naming the column', async () => {
    const t = io();
    const code = await run(
      ['submit', 'missing.json', DATA, '--no-check', '--wait', '--poll-interval', '0.01'],
      t.io,
    );
    expect(code).toBe(1);
    expect(t.err()).toMatch(
      /failed: column 42 \('phantom'\) is past the last column: the file has 11 columns/,
    );
    expect(t.out()).toMatch(/: FAILED\n$/);
  });

  test('the file is checked first (sampled): a config that does not fit is refused, nothing created', async () => {
    const before = Object.keys(emu.store.data.imports).length;
    const t = io();
    expect(await run(['submit', 'missing.json', DATA, '--wait'], t.io)).toBe(1);
    expect({ out: t.out(), err: t.err() }).toEqual({
      out: '',
      err: [
        "missing.json:50:7 error column_not_in_file column 42 ('phantom') is past the last column: the file has 11 columns (at /csvConfig/dataColumns/42)",
        '  hint: Column numbers count from 1 and go up to 11.',
        '✖ 1 error, 0 warnings: 1 of 1 file invalid, 0 valid',
        `importkit submit: ${DATA} does not fit missing.json; nothing was sent (--no-check sends it unchecked)`,
        '',
      ].join('\n'),
    });
    expect(Object.keys(emu.store.data.imports).length).toBe(before);
  });

  test('without --wait: prints the import as it stands after the upload', async () => {
    const t = io();
    expect(await run(['submit', 'good.json', DATA, '--json'], t.io)).toBe(0);
    const d = JSON.parse(t.out()) as { dataImportId: string; status: string; csvConfig: unknown };
    // Every field sent comes back (the fields not sent, with their defaults).
    expect(d.csvConfig).toMatchObject(JSON.parse(await readFile(goodConfig, 'utf8')).csvConfig);
    expect([
      'DATA_IMPORT_STATUS_PENDING',
      'DATA_IMPORT_STATUS_IN_PROGRESS',
      'DATA_IMPORT_STATUS_SUCCEEDED',
    ]).toContain(d.status);
    const s = io();
    expect(
      await run(
        ['status', d.dataImportId, '--wait', '--poll-interval', '0.01', '--timeout', '20'],
        s.io,
      ),
    ).toBe(0);
    expect(s.out()).toMatch(new RegExp(`^data import ${d.dataImportId}: SUCCEEDED`));
  });

  test('an invalid config is refused with its issues, and nothing is sent', async () => {
    const before = Object.keys(emu.store.data.imports).length;
    const t = io();
    expect(await run(['submit', 'bad.yaml', DATA], t.io)).toBe(1);
    expect(t.err()).toContain('bad.yaml is not a valid config; nothing was sent');
    expect(t.err()).toContain('TIME_FORMAT_NOPE');
    expect(Object.keys(emu.store.data.imports).length).toBe(before);
  });

  test('a data file that does not exist: exit 2 (as in every command), no import created', async () => {
    const before = Object.keys(emu.store.data.imports).length;
    const t = io();
    expect(await run(['submit', 'good.json', 'nope.csv'], t.io)).toBe(2);
    expect(t.err()).toBe(
      "importkit submit: nope.csv: no such file; nothing was sent\nRun 'importkit submit --help' for usage.\n",
    );
    expect(Object.keys(emu.store.data.imports).length).toBe(before);
  });

  test('--url creates an import from a URL', async () => {
    const files = await plainServer(async (_req, res) => res.end(await readFile(DATA)));
    try {
      const t = io();
      const code = await run(
        ['submit', 'good.json', '--url', `${files.url}/d.csv`, '--wait', '--poll-interval', '0.01'],
        t.io,
      );
      expect(t.err()).toMatch(/^created data import [0-9a-f-]{36} from http:/);
      expect(code).toBe(0);
    } finally {
      await files.close();
    }
  });

  test('status --wait --timeout: exit 1 naming the last status', async () => {
    const pending = await fetch(`${emu.url}/api/v2/data-imports:upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
      body: await readFile(goodConfig, 'utf8'),
    });
    const { dataImportId } = (await pending.json()) as { dataImportId: string };
    const t = io();
    expect(
      await run(
        ['status', dataImportId, '--wait', '--timeout', '0.3', '--poll-interval', '0.01'],
        t.io,
      ),
    ).toBe(1);
    expect(t.err()).toContain(
      `importkit: data import ${dataImportId} did not finish within 300 ms (last status: DATA_IMPORT_STATUS_PENDING)\n` +
        `import ${dataImportId} continues: importkit status ${dataImportId} --wait\n`,
    );
  });

  test('Ctrl-C during a wait: exit 130, the import goes on, the follow-up command printed (the id on stdout with --json)', async () => {
    const pending = await fetch(`${emu.url}/api/v2/data-imports:upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
      body: await readFile(goodConfig, 'utf8'),
    });
    const { dataImportId } = (await pending.json()) as { dataImportId: string };
    const t = io();
    const listeners = process.listenerCount('SIGINT');
    const waiting = run(
      ['status', dataImportId, '--wait', '--json', '--poll-interval', '0.01'],
      t.io,
    );
    // Interrupted once it waits: its SIGINT listener is in and it has said the status (on a
    // busy machine that can take longer than any fixed pause).
    await vi.waitFor(
      () => {
        expect(process.listenerCount('SIGINT')).toBe(listeners + 1);
        expect(t.err()).toContain('status: PENDING');
      },
      { timeout: 10_000, interval: 20 },
    );
    process.emit('SIGINT');
    expect(await waiting).toBe(130);
    expect(process.listenerCount('SIGINT')).toBe(listeners);
    expect(t.err()).toBe(
      'status: PENDING\ninterrupted: the wait stopped, not the import\n' +
        `import ${dataImportId} continues: importkit status ${dataImportId} --wait\n`,
    );
    expect(JSON.parse(t.out())).toMatchObject({
      dataImportId,
      status: 'DATA_IMPORT_STATUS_PENDING',
    });
    expect(emu.store.data.imports[dataImportId]?.dataImport.status).toBe(
      'DATA_IMPORT_STATUS_PENDING',
    );
  });

  test('the environment is required; usage errors exit 2', async () => {
    const t = io({ IMPORTKIT_API_KEY: undefined });
    expect(await run(['submit', 'good.json', DATA], t.io)).toBe(2);
    expect(t.err()).toContain('IMPORTKIT_API_KEY is not set');
    const u = io();
    expect(await run(['submit', 'good.json', DATA, '--url', 'http://x/y'], u.io)).toBe(2);
    expect(await run(['submit'], u.io)).toBe(2);
    expect(await run(['status', 'x', '--timeout', '3'], u.io)).toBe(2);
  });

  test('server errors: exit 1 with the server’s message and never the key', async () => {
    const wrong = io({ IMPORTKIT_API_KEY: `${KEY}-wrong` });
    expect(await run(['status', 'abc'], wrong.io)).toBe(1);
    expect(wrong.err()).toMatch(/HTTP 401, code 16: the bearer credential is not valid/);
    const missing = io();
    expect(await run(['status', 'abc'], missing.io)).toBe(1);
    expect(missing.err()).toMatch(/HTTP 404, code 5: data import abc not found/);
    const echo = await plainServer((req, res) =>
      json(res, 400, { code: 3, message: `boom ${req.headers.authorization}` }),
    );
    try {
      const e = io({ IMPORTKIT_BASE_URL: echo.url });
      expect(await run(['status', 'abc'], e.io)).toBe(1);
      expect(e.err()).toContain('boom Bearer [redacted]');
      for (const t of [wrong, missing, e]) expect(t.out() + t.err()).not.toContain(KEY);
    } finally {
      await echo.close();
    }
  });

  test('on a terminal: a progress line for the upload and a status line rewritten in place', async () => {
    const t = io({ CI: undefined, TERM: 'xterm' }, true);
    expect(
      await run(['submit', 'good.json', DATA, '--wait', '--poll-interval', '0.01'], t.io),
    ).toBe(0);
    const ESC = String.fromCharCode(27);
    const line =
      /\rwaiting for [0-9a-f-]{36}: (PENDING|IN_PROGRESS|SUCCEEDED) \(\d+ s\)(.)\[K/.exec(t.err());
    expect(line?.[2]).toBe(ESC);
    expect(t.err()).not.toContain('status: ');
  });
});
