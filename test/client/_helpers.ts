import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Emulator } from '../../src/emulator/index.js';
import { platformExamples } from '../helpers/paths.js';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const corpusDir = platformExamples;

/** A key long and odd enough that finding it anywhere is no accident. */
export const SECRET = `sk-test-${randomUUID()}-do-not-leak`;

/** A fetch that counts its calls (and records their methods and URLs). */
export function countingFetch() {
  const calls: Array<{ method: string; url: string }> = [];
  const f = (input: string, init: RequestInit) => {
    calls.push({ method: init.method ?? 'GET', url: input });
    return fetch(input, init);
  };
  return { fetch: f, calls };
}

/** Puts a run, an asset and a channel in the emulator's state for `orgName`. */
export function seedResources(emu: Emulator, key: string) {
  const org = emu.organizations.get(key);
  if (!org) throw new Error('unknown key');
  const orgId = org.organizationId;
  const s = emu.store.data;
  const t = '2024-01-01T00:00:00.000Z';
  const assetId = randomUUID();
  const runId = randomUUID();
  const channelId = randomUUID();
  s.assets[assetId] = {
    orgId,
    value: { assetId, name: 'rig', organizationId: orgId, createdDate: t, modifiedDate: t },
  };
  s.runs[runId] = {
    orgId,
    value: {
      runId,
      name: 'run 1',
      organizationId: orgId,
      isArchived: false,
      assetIds: [assetId],
      createdDate: t,
      modifiedDate: t,
    },
  };
  s.channels[channelId] = {
    orgId,
    value: {
      channelId,
      name: 'temp',
      assetId,
      active: true,
      dataType: 'CHANNEL_DATA_TYPE_DOUBLE',
      createdDate: t,
      modifiedDate: t,
    },
  };
  return { orgId, assetId, runId, channelId };
}

/** A hand-written server for one test: `handler` answers every request. */
export async function plainServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; server: Server; close: () => Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Every text an error carries: message, cause chain, own string fields. */
export function errorTexts(err: unknown): string {
  const out: string[] = [];
  let e: unknown = err;
  for (let i = 0; i < 6 && e; i++) {
    if (e instanceof Error) {
      out.push(e.message, e.stack ?? '', String(e));
      for (const v of Object.values(e))
        out.push(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));
      e = e.cause;
    } else {
      out.push(String(e));
      break;
    }
  }
  return out.join('\n');
}

/** A local port nothing listens on (a server is opened there and closed). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}
