/**
 * A submit cut short after the import exists: Ctrl-C (SIGINT to the real binary, spawned)
 * while the service has not yet answered the create, or while the upload is under way, and
 * an upload the service refuses. Each time the command says which import exists, in what
 * state, and the command that sends the file again to the same import; `--json` says the
 * same as data; and that command, run as printed, finishes the import.
 *
 * A small proxy in front of the emulator holds the create's answer or the upload, and sends
 * SIGINT to the child at that moment, so the timing is exact, not slept for.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import {
  createServer,
  type IncomingMessage,
  request,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { run } from '../../src/cli/run.js';
import { type Emulator, startEmulator } from '../../src/emulator/index.js';
import { inferConfig } from '../../src/infer/index.js';
import { ensureBuilt } from '../helpers/built.js';
import { platformExamples, repoRoot } from '../helpers/paths.js';

const BIN = join(repoRoot, 'bin', 'importkit.js');
const KEY = 'unfinished-key-0123456789';
const DATA = join(platformExamples, 'csv-absolute-datetime.csv');
let emu: Emulator;
let dir: string;

beforeAll(async () => {
  emu = await startEmulator({ apiKeys: { [KEY]: 'unfinished' } });
  dir = await mkdtemp(join(tmpdir(), 'importkit-unfinished-'));
  const draft = await inferConfig(DATA);
  (draft.document as { csvConfig: { assetName?: string } }).csvConfig.assetName = 'rig';
  await writeFile(join(dir, 'good.json'), JSON.stringify(draft.document));
  await ensureBuilt('dist/src/cli/run.js');
}, 240_000);
afterAll(async () => {
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});

type Step = 'create' | 'upload';

/**
 * A proxy to the emulator. At the step `hold` names it calls `at()` and waits for it: a
 * held create is answered after that (as the emulator answered it), a held upload is never
 * passed on (the client gives up on it). The create's uploadUrl is rewritten to the proxy,
 * so the upload comes through it too.
 */
async function proxy() {
  const upstream = new URL(emu.url);
  const state: {
    url: string;
    hold: Step | undefined;
    at: () => Promise<void>;
    close: () => Promise<void>;
  } = { url: '', hold: undefined, at: async () => undefined, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const step: Step | undefined = req.url?.includes('data-imports:upload')
      ? 'create'
      : req.url?.startsWith('/uploads/')
        ? 'upload'
        : undefined;
    if (step === 'upload' && state.hold === 'upload') {
      req.resume();
      void state.at();
      return;
    }
    forward(req, upstream, async (status, body) => {
      let text = body.toString('utf8');
      if (step === 'create') {
        text = text.split(emu.url).join(state.url);
        if (state.hold === 'create') await state.at();
      }
      answer(res, status, text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return state;
}

function forward(
  req: IncomingMessage,
  to: URL,
  done: (status: number, body: Buffer) => Promise<void>,
): void {
  const out = request(
    { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
    (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => void done(res.statusCode ?? 502, Buffer.concat(parts)));
    },
  );
  out.on('error', () => undefined);
  req.pipe(out);
}

function answer(res: ServerResponse, status: number, text: string): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(text);
}

/** The binary as a process, its output gathered; `waitFor` resolves once stderr matches. */
/** The import as GetDataImport answers it now, without the configs it has not (null). */
async function answered(id: string): Promise<unknown> {
  const r = await fetch(`${emu.url}/api/v2/data-imports/${id}`, {
    headers: { authorization: `Bearer ${KEY}` },
  });
  const { dataImport } = (await r.json()) as { dataImport: Record<string, unknown> };
  return Object.fromEntries(Object.entries(dataImport).filter(([, v]) => v !== null));
}

function child(args: string[], url: string) {
  const c: ChildProcess = spawn(process.execPath, [BIN, ...args], {
    cwd: dir,
    env: { ...process.env, IMPORTKIT_BASE_URL: url, IMPORTKIT_API_KEY: KEY, CI: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: Array<{ re: RegExp; resolve: () => void }> = [];
  c.stdout?.on('data', (d) => {
    stdout += String(d);
  });
  c.stderr?.on('data', (d) => {
    stderr += String(d);
    for (const w of waiters.splice(0)) {
      if (w.re.test(stderr)) w.resolve();
      else waiters.push(w);
    }
  });
  const exited = new Promise<number | null>((r) => c.on('close', (code) => r(code)));
  return {
    interrupt: () => c.kill('SIGINT'),
    waitFor: (re: RegExp) =>
      new Promise<void>((resolve) => {
        if (re.test(stderr)) resolve();
        else waiters.push({ re, resolve });
      }),
    done: async () => ({ code: await exited, stdout, stderr }),
  };
}

const idOf = (text: string) => /created data import ([0-9a-f-]{36})/.exec(text)?.[1] ?? '';

/** The command line the report says sends the file again, as words (single quotes undone). */
function resumeCommand(text: string): string[] {
  const line = /^ {4}importkit (submit .*)$/m.exec(text)?.[1] ?? '';
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '');
}

function memoryIo() {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    stdout: { write: (s) => void out.push(s) },
    stderr: { write: (s) => void err.push(s) },
    env: { IMPORTKIT_BASE_URL: emu.url, IMPORTKIT_API_KEY: KEY, CI: '1' },
    cwd: dir,
  };
  return { io, out: () => out.join(''), err: () => err.join('') };
}

describe('a submit cut short after the create says which import exists and how to finish it', () => {
  test('Ctrl-C during the upload: exit 130, the PENDING import named, and the printed command finishes it', async () => {
    const p = await proxy();
    try {
      const c = child(['submit', 'good.json', DATA, '--wait', '--poll-interval', '0.05'], p.url);
      p.hold = 'upload';
      p.at = async () => void c.interrupt();
      const r = await c.done();
      const id = idOf(r.stderr);
      const rec = emu.store.data.imports[id];
      expect(rec?.dataImport.status).toBe('DATA_IMPORT_STATUS_PENDING');
      expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({
        code: 130,
        stdout: '',
        stderr: [
          `created data import ${id}`,
          'interrupted: the upload stopped before the service had the whole file',
          `data import ${id} is PENDING, without its file: nothing is imported until the file is sent`,
          '  to send the file again to the same import:',
          `    importkit submit good.json ${DATA} --import ${id} --upload-url '${p.url}/uploads/${id}?token=${rec?.uploadToken}' --wait --poll-interval 0.05`,
          `  or leave it: it holds no data (the platform has no call to delete an import; importkit status ${id} shows it)`,
          '',
        ].join('\n'),
      });
      // Run as printed, the command sends the file to the same import, which ends SUCCEEDED.
      const before = Object.keys(emu.store.data.imports).length;
      p.hold = undefined;
      const f = await child(resumeCommand(r.stderr), p.url).done();
      expect(f.code, f.stderr).toBe(0);
      expect(f.stdout).toMatch(new RegExp(`^data import ${id}: SUCCEEDED`));
      expect(Object.keys(emu.store.data.imports).length).toBe(before);
    } finally {
      await p.close();
    }
  }, 60_000);

  test('Ctrl-C before the create is answered: it waits for the answer, then names the import (--json: the same as data)', async () => {
    const p = await proxy();
    try {
      const c = child(['submit', 'good.json', DATA, '--json'], p.url);
      p.hold = 'create';
      p.at = async () => {
        c.interrupt();
        await c.waitFor(/Ctrl-C again/);
      };
      const r = await c.done();
      const id = idOf(r.stderr);
      const rec = emu.store.data.imports[id];
      const resume = `importkit submit good.json ${DATA} --import ${id} --upload-url '${p.url}/uploads/${id}?token=${rec?.uploadToken}' --json`;
      expect({ code: r.code, stderr: r.stderr }).toEqual({
        code: 130,
        stderr: [
          'interrupted: waiting for the service to answer the create, to say which import it made (Ctrl-C again stops at once)',
          `created data import ${id}`,
          'interrupted: the file was not sent',
          `data import ${id} is PENDING, without its file: nothing is imported until the file is sent`,
          '  to send the file again to the same import:',
          `    ${resume}`,
          `  or leave it: it holds no data (the platform has no call to delete an import; importkit status ${id} shows it)`,
          '',
        ].join('\n'),
      });
      expect(JSON.parse(r.stdout)).toEqual({
        dataImport: await answered(id),
        interrupted: true,
        next: resume,
        uploadUrl: `${p.url}/uploads/${id}?token=${rec?.uploadToken}`,
      });
    } finally {
      await p.close();
    }
  }, 60_000);

  test('an upload the service refuses: exit 1, the error, then the import and how to send its file again', async () => {
    const small = await startEmulator({ apiKeys: { [KEY]: 'unfinished' }, maxUploadBytes: 100 });
    try {
      const t = memoryIo();
      t.io.env.IMPORTKIT_BASE_URL = small.url;
      expect(await run(['submit', 'good.json', DATA], t.io)).toBe(1);
      const id = idOf(t.err());
      const rec = small.store.data.imports[id];
      expect(t.err()).toBe(
        [
          `created data import ${id}`,
          `importkit submit: POST ${small.url}/uploads/${id}?token=${rec?.uploadToken} failed: HTTP 413, code 3: the upload is refused: its data is larger than 100 bytes`,
          `data import ${id} is PENDING, without its file: nothing is imported until the file is sent`,
          '  to send the file again to the same import:',
          `    importkit submit good.json ${DATA} --import ${id} --upload-url '${small.url}/uploads/${id}?token=${rec?.uploadToken}'`,
          `  or leave it: it holds no data (the platform has no call to delete an import; importkit status ${id} shows it)`,
          '',
        ].join('\n'),
      );
      expect(t.out()).toBe('');
    } finally {
      await small.close();
    }
  });
});
