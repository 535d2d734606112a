/**
 * The emulator's HTTP server (node:http): fault injection, bearer authentication, then the
 * route table (`routes/`), each operation read and answered with the same zod model the
 * client uses. A request flows: faults.decide → authenticate → seed the organization once →
 * findRoute → handler(call, context) → 200 with its JSON, or the failure it threw.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  commit,
  type EmulatorContext,
  type KeyOrganization,
  stableId,
  startImport,
  undoOf,
} from './context.js';
import { FaultInjector, type FaultSpec } from './faults.js';
import { HttpFailure, requestUrl, send, sendFailure, sendStatus } from './http.js';
import { findRoute, ROUTES } from './routes/index.js';
import { seededIds, seedOrganization } from './seed.js';
import { applySeed, type EmulatorSeed, SeedError, type SeededIds } from './seed-file.js';
import { Store } from './store.js';

export type { KeyOrganization } from './context.js';
export { filenameOf } from './routes/index.js';

export interface EmulatorOptions {
  /** Port to listen on (default 0: any free port). */
  port?: number;
  /** Address to listen on (default 127.0.0.1). */
  host?: string;
  /** Keep state and uploads here, so a restart loses nothing (default: memory and a temp folder). */
  dataDir?: string;
  /** API key → organization name. Default: one key, `emulator-key`, of organization `local`. */
  apiKeys?: Record<string, string>;
  /** Injected faults (see faults.ts for the SPEC syntax). */
  faults?: string | FaultSpec;
  /** Pause between the steps of an import, so pollers see PENDING and IN_PROGRESS (default 0). */
  stepDelayMs?: number;
  /** The largest file an upload may hold, after gzip decompression (default 2 GiB). */
  maxUploadBytes?: number;
  /** How long a URL import may take to fetch its file, in ms (default 30 s). */
  fetchTimeoutMs?: number;
  /** Time limits of one request, in ms (defaults well under Node's: see EMULATOR_TIMEOUTS). */
  timeouts?: Partial<EmulatorTimeouts>;
  /**
   * Refuse what the platform silently drops (an unknown field or enum name): a 400 for an
   * update, FAILED for an import's config. Default false: drop it, as the platform does,
   * and say so in the log.
   */
  strict?: boolean;
  /** Where the emulator's log lines go (dropped fields, import warnings). Default: nowhere. */
  log?: (line: string) => void;
  /**
   * URL prefix → local folder: a URL import of an address under the prefix reads the file
   * from the folder (`{ 'https://bucket.example/': './data' }`). The emulator stays offline.
   */
  urlMap?: Record<string, string>;
  /** Resources to start with (see EmulatorSeed), for the organization it names or the first key's. */
  seed?: EmulatorSeed;
}

export interface EmulatorTimeouts {
  /** To receive a request's headers. */
  headersMs: number;
  /** To receive a whole request, body included. */
  requestMs: number;
  /** A connection that sends nothing for this long is closed. */
  idleMs: number;
}

/** Node's defaults (60 s for headers, 300 s for a request) let a slow client hold a socket. */
export const EMULATOR_TIMEOUTS: EmulatorTimeouts = {
  headersMs: 10_000,
  requestMs: 120_000,
  idleMs: 30_000,
};

export interface Emulator {
  /** The base URL clients use, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  readonly port: number;
  /** Change the injected faults while running. */
  readonly faults: FaultInjector;
  readonly store: Store;
  /** The organization of each key. */
  readonly organizations: ReadonlyMap<string, KeyOrganization>;
  /** The ids of what `seed` put in, and the organization they belong to. */
  readonly seeded: { organization: KeyOrganization; ids: SeededIds } | undefined;
  /** Resolves when every import under way has ended. */
  idle(): Promise<void>;
  /** Stops listening, waits for imports under way, and writes the state. */
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const { ctx, ownTemp } = await openContext(options);
  const faults = new FaultInjector(options.faults ?? { rules: [], seed: 1 });
  const keys = new Map<string, KeyOrganization>();
  for (const [key, name] of Object.entries(options.apiKeys ?? { 'emulator-key': 'local' })) {
    keys.set(key, { organizationId: stableId('organization', name), organizationName: name });
  }
  const seeded = options.seed ? await seedFromOptions(ctx, options.seed, keys) : undefined;
  resumeImports(ctx);
  const server = createEmulatorServer({ ...EMULATOR_TIMEOUTS, ...options.timeouts }, (req, res) =>
    onRequest(ctx, faults, keys, req, res),
  );
  const address = await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  // A wildcard address is not one to connect to: its loopback is (other addresses: serve).
  const local = host === '0.0.0.0' ? '127.0.0.1' : host === '[::]' ? '[::1]' : host;
  ctx.baseUrl = `http://${local}:${address.port}`;

  async function idle() {
    while (ctx.running.size > 0) await Promise.allSettled([...ctx.running]);
  }

  return {
    url: ctx.baseUrl,
    port: address.port,
    faults,
    store: ctx.store,
    organizations: keys,
    seeded,
    idle,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await idle();
      await ctx.store.save();
      await ctx.store.close();
      if (ownTemp) await rm(ownTemp, { recursive: true, force: true });
    },
  };
}

/** The state (from `dataDir`, or memory and a temp folder of our own) and the settings. */
async function openContext(
  options: EmulatorOptions,
): Promise<{ ctx: EmulatorContext; ownTemp: string | undefined }> {
  const store = await Store.open(options.dataDir);
  const ownTemp = options.dataDir
    ? undefined
    : await mkdtemp(join(tmpdir(), 'importkit-emulator-'));
  const uploadsDir = options.dataDir
    ? join(options.dataDir, 'uploads')
    : join(ownTemp ?? '', 'uploads');
  await mkdir(uploadsDir, { recursive: true });
  const ctx: EmulatorContext = {
    store,
    baseUrl: '',
    uploadsDir,
    now: () => new Date().toISOString(),
    newId: () => randomUUID(),
    stepDelayMs: options.stepDelayMs ?? 0,
    fetchTimeoutMs: options.fetchTimeoutMs ?? 30_000,
    maxUploadBytes: options.maxUploadBytes ?? 2 * 1024 ** 3,
    running: new Set(),
    uploading: new Set(),
    strict: options.strict ?? false,
    log: options.log ?? (() => {}),
    urlMap: Object.entries(options.urlMap ?? {}),
  };
  return { ctx, ownTemp };
}

/** The seed's resources, given to the organization it names (else the first key's). */
async function seedFromOptions(
  ctx: EmulatorContext,
  seed: EmulatorSeed,
  keys: ReadonlyMap<string, KeyOrganization>,
): Promise<{ organization: KeyOrganization; ids: SeededIds }> {
  const all = [...keys.entries()];
  const named = seed.organization;
  const found =
    named === undefined ? all[0] : all.find(([, org]) => org.organizationName === named);
  if (!found)
    throw new SeedError(
      `the seed names organization '${named}', which no API key has (${all.map(([, o]) => o.organizationName).join(', ')})`,
    );
  const [key, organization] = found;
  const userId = stableId('user', key);
  await seedOnce(ctx, organization.organizationId, userId);
  const ids = await applySeed(ctx, seed, organization.organizationId, userId);
  return { organization, ids };
}

/** Imports a restart interrupted pick up where they were. */
function resumeImports(ctx: EmulatorContext) {
  for (const rec of Object.values(ctx.store.data.imports)) {
    const s = rec.dataImport.status;
    const ready = rec.source === 'url' || rec.filePath !== undefined;
    if (ready && (s === 'DATA_IMPORT_STATUS_PENDING' || s === 'DATA_IMPORT_STATUS_IN_PROGRESS'))
      startImport(ctx, rec);
  }
}

function createEmulatorServer(
  timeouts: EmulatorTimeouts,
  onRequest: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
): Server {
  const server = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      // How often the two limits above are checked (Node's default is every 30 s).
      connectionsCheckingInterval: Math.max(
        10,
        Math.min(1000, timeouts.headersMs / 4, timeouts.requestMs / 4),
      ),
    },
    (req, res) => {
      // Any throw ends its own request, never the process.
      onRequest(req, res).catch(() => res.destroy());
    },
  );
  server.keepAliveTimeout = 5_000;
  // A socket idle this long is destroyed (there is no 'timeout' listener).
  server.timeout = timeouts.idleMs;
  return server;
}

async function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server.address() as AddressInfo;
}

async function onRequest(
  ctx: EmulatorContext,
  faults: FaultInjector,
  keys: ReadonlyMap<string, KeyOrganization>,
  req: IncomingMessage,
  res: ServerResponse,
) {
  if (await injectFault(faults, req, res)) return;
  let found: ReturnType<typeof routeOf>;
  try {
    // As behind the gateway, a path that names no operation is answered before the service
    // (and its authentication) is reached.
    found = routeOf(req);
  } catch (err) {
    return sendFailure(req, res, err);
  }
  const auth = req.headers.authorization ?? '';
  const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  const org = m?.[1] ? keys.get(m[1]) : undefined;
  if (!m?.[1] || !org) {
    req.resume();
    return sendStatus(
      res,
      16,
      m
        ? 'the bearer credential is not valid'
        : 'missing bearer credential (Authorization: Bearer <key>)',
      [],
      // RFC 6750: a 401 names the scheme it wants.
      {
        'www-authenticate': m
          ? 'Bearer realm="importkit-emulator", error="invalid_token"'
          : 'Bearer realm="importkit-emulator"',
      },
    );
  }
  const userId = stableId('user', m[1]);
  try {
    await seedOnce(ctx, org.organizationId, userId);
    await dispatch(ctx, req, res, found, org, userId);
  } catch (err) {
    sendFailure(req, res, err);
  }
}

/**
 * The request's route, or the failure the gateway answers: 404 with code 5 `Not Found` for
 * a path no operation has, 501 with code 12 for a method the path does not take.
 */
function routeOf(req: IncomingMessage) {
  const url = requestUrl(req.url ?? '/');
  const path = url.pathname;
  const method = req.method ?? 'GET';
  const found = findRoute(ROUTES, method, path);
  if (found) return { url, found };
  const known = ['GET', 'POST', 'PATCH'].some((m) => findRoute(ROUTES, m, path));
  if (known) throw new HttpFailure(12, `${method} ${path} is not an operation of this service`);
  throw new HttpFailure(5, 'Not Found');
}

/** Acts on the fault injector's decision for this request; true when it was answered. */
async function injectFault(
  faults: FaultInjector,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  const decision = faults.decide();
  if (decision.latencyMs > 0) await new Promise((r) => setTimeout(r, decision.latencyMs));
  const action = decision.action;
  if (action.kind === 'drop') {
    req.socket.destroy();
    return true;
  }
  if (action.kind === 'status') {
    req.resume();
    if (action.status === 429) {
      sendStatus(res, 8, 'too many requests (injected fault)', [], {
        'retry-after': String(action.retryAfter ?? 1),
      });
    } else {
      sendStatus(res, 14, 'service unavailable (injected fault)');
    }
    return true;
  }
  return false;
}

/** An organization's sample views, saved search and functions, created on its first request. */
async function seedOnce(ctx: EmulatorContext, orgId: string, userId: string) {
  const data = ctx.store.data;
  if (data.seeded.includes(orgId)) return;
  const undo = [data.views, data.savedSearches, data.udfVersions].map((table) => undoOf(table));
  seedOrganization(data, orgId, userId, ctx.now());
  data.seeded.push(orgId);
  const ids = seededIds(orgId);
  for (const id of ids.views) ctx.store.touch('views', id);
  for (const id of ids.savedSearches) ctx.store.touch('savedSearches', id);
  for (const id of ids.userDefinedFunctionVersions) ctx.store.touch('udfVersions', id);
  await commit(ctx, () => {
    for (const u of undo) u();
    data.seeded = data.seeded.filter((id) => id !== orgId);
  });
}

/** Finds the request's route and answers 200 with what its handler returns. */
async function dispatch(
  ctx: EmulatorContext,
  req: IncomingMessage,
  res: ServerResponse,
  { url, found }: ReturnType<typeof routeOf>,
  org: KeyOrganization,
  userId: string,
) {
  const params = found.captures.map((c) => decodeURIComponent(c));
  const call = { req, res, url, params, org, orgId: org.organizationId, userId };
  send(res, 200, await found.route.handler(call, ctx));
}
