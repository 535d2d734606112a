/**
 * The emulator's HTTP server (node:http): bearer authentication, fault injection, the
 * data-import operations and the eight operations of the reference, each read and
 * answered with the same zod model the client uses.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { PassThrough, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { z } from 'zod';
import { toCamelPath } from '../client/index.js';
import { CONFIG_KEYS, MAX_NESTING_DEPTH } from '../model/document.js';
import {
  Asset,
  Channel,
  DataImport,
  Organization,
  RUN_UPDATE_MASK_FIELDS,
  Run,
  SavedSearch,
  UserDefinedFunctionVersion,
  View,
} from '../model/resources.js';
import { FaultInjector, type FaultSpec } from './faults.js';
import { runImport } from './imports.js';
import { FilterError, parseFilter, parseOrderBy } from './list.js';
import { seedOrganization } from './seed.js';
import { type ImportRecord, type Owned, Store } from './store.js';

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

/** A gzip upload may decompress to at most this many times its size (past the first 16 MiB). */
export const MAX_INFLATION_RATIO = 100;
const INFLATION_SLACK = 16 * 1024 * 1024;

export interface KeyOrganization {
  organizationId: string;
  organizationName: string;
}

export interface Emulator {
  /** The base URL clients use, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  readonly port: number;
  /** Change the injected faults while running. */
  readonly faults: FaultInjector;
  readonly store: Store;
  /** The organization of each key. */
  readonly organizations: ReadonlyMap<string, KeyOrganization>;
  /** Resolves when every import under way has ended. */
  idle(): Promise<void>;
  /** Stops listening, waits for imports under way, and writes the state. */
  close(): Promise<void>;
}

/** A stable UUID-shaped id from its parts (same parts, same id, across restarts). */
export function stableId(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\0')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** gRPC code → HTTP status, as gateways map them. */
const HTTP_OF_CODE: Record<number, number> = {
  3: 400,
  5: 404,
  6: 409,
  7: 403,
  8: 429,
  9: 400,
  12: 501,
  13: 500,
  14: 503,
  16: 401,
};

class HttpFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly details: Array<Record<string, unknown>> = [],
    /** The HTTP status, when not the one of `code`. */
    readonly http?: number,
  ) {
    super(message);
  }
}

const invalid = (message: string, field?: string) =>
  new HttpFailure(
    3,
    message,
    field
      ? [
          {
            '@type': 'type.googleapis.com/google.rpc.BadRequest',
            fieldViolations: [{ field, description: message }],
          },
        ]
      : [],
  );
const notFound = (what: string, id: string) => new HttpFailure(5, `${what} ${id} not found`);

function send(
  res: ServerResponse,
  http: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  res.writeHead(http, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function sendStatus(
  res: ServerResponse,
  code: number,
  message: string,
  details: unknown[] = [],
  headers = {},
  http = HTTP_OF_CODE[code] ?? 500,
) {
  send(res, http, { code, message, details }, headers);
}

/**
 * The answer to a request that threw: its own failure, a 400 for a malformed
 * percent-encoding, else a 500 that names no server path (only the error's code).
 */
function sendFailure(req: IncomingMessage, res: ServerResponse, err: unknown) {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  req.resume();
  if (err instanceof HttpFailure) {
    return sendStatus(res, err.code, err.message, err.details, {}, err.http);
  }
  if (err instanceof URIError) {
    return sendStatus(res, 3, 'the request path holds a malformed percent-encoding (%XX)');
  }
  const errno = (err as NodeJS.ErrnoException | undefined)?.code;
  const what = typeof errno === 'string' && /^[A-Z_]+$/.test(errno) ? ` (${errno})` : '';
  return sendStatus(res, 13, `internal error${what}: the request was not carried out`);
}

async function readJson(req: IncomingMessage, limit = 16 * 1024 * 1024): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw invalid(`the request body is larger than ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid('the request body is not JSON');
  }
  // Deeper values would overflow the stack when the state is written (JSON.stringify).
  if (nestsBeyond(value, MAX_NESTING_DEPTH)) {
    throw invalid(`the request body nests more than ${MAX_NESTING_DEPTH} levels deep`);
  }
  return value;
}

/** Whether a parsed JSON value has an object or array deeper than `limit` (no recursion). */
export function nestsBeyond(value: unknown, limit: number): boolean {
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 0 }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    if (typeof top.v !== 'object' || top.v === null) continue;
    if (top.depth > limit) return true;
    for (const child of Object.values(top.v)) stack.push({ v: child, depth: top.depth + 1 });
  }
  return false;
}

function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid('the request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/** Reads `name` from `attachment; filename="name"` (or `filename*=UTF-8''...`). */
export function filenameOf(disposition: string | undefined): string | undefined {
  if (!disposition) return undefined;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall through to the plain form
    }
  }
  const quoted = /filename\s*=\s*"((?:\\.|[^"\\])*)"/i.exec(disposition);
  if (quoted?.[1] !== undefined) return quoted[1].replace(/\\(.)/g, '$1');
  const plain = /filename\s*=\s*([^;\s]+)/i.exec(disposition);
  return plain?.[1];
}

/**
 * The name an upload is stored under: the base name of the one sent (`upload` when none),
 * without `.gz` when gzip-encoded. A name that cannot be a file name is a 400.
 */
export function uploadName(disposition: string | undefined, gzip: boolean): string {
  let name = basename((filenameOf(disposition) ?? '').replace(/\\/g, '/')) || 'upload';
  if (gzip) name = name.replace(/\.gz$/i, '') || 'upload';
  const why =
    name === '.' || name === '..'
      ? `'${name}' names a folder`
      : // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
        /[\u0000-\u001f\u007f]/.test(name)
        ? 'it holds control characters'
        : Buffer.byteLength(name) > 255
          ? 'it is longer than 255 bytes'
          : undefined;
  if (why) throw invalid(`the file name in Content-Disposition cannot be used: ${why}`, 'filename');
  return name;
}

/**
 * The transforms an upload goes through before the disk: gunzip when gzip-encoded, and a
 * guard that ends it (413) past `maxBytes`, or when gzip data grows past
 * MAX_INFLATION_RATIO times its size (a decompression bomb).
 */
function uploadStages(gzip: boolean, maxBytes: number): Transform[] {
  let wire = 0;
  let data = 0;
  const tooLarge = (why: string) => new HttpFailure(3, `the upload is refused: ${why}`, [], 413);
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      wire += chunk.length;
      done(null, chunk);
    },
  });
  const guard = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      data += chunk.length;
      if (data > maxBytes) {
        return done(tooLarge(`its data is larger than ${maxBytes} bytes`));
      }
      if (gzip && data > INFLATION_SLACK && data > MAX_INFLATION_RATIO * wire) {
        return done(tooLarge(`it decompresses to more than ${MAX_INFLATION_RATIO} times its size`));
      }
      done(null, chunk);
    },
  });
  return gzip ? [counter, createGunzip(), guard] : [guard];
}

/**
 * Pipes a request body through `stages`. Unlike a pipeline that starts at the request,
 * a failing stage leaves the request (and its socket) alone, so the answer that says why
 * still reaches the client while the rest of the body is drained.
 */
async function saveBody(
  req: IncomingMessage,
  stages: Array<NodeJS.ReadWriteStream | NodeJS.WritableStream>,
): Promise<void> {
  const entry = new PassThrough();
  const cutOff = () => {
    if (!req.complete) entry.destroy(new Error('the upload ended before its last byte'));
  };
  req.on('close', cutOff);
  req.on('error', cutOff);
  req.pipe(entry);
  try {
    await pipeline([entry, ...stages]);
  } finally {
    req.off('close', cutOff);
    req.unpipe(entry);
  }
}

/** The request's path and query as a URL (`//x` is a path here, not a host). */
function requestUrl(target: string): URL {
  try {
    return new URL(`http://emulator${target.startsWith('/') ? '' : '/'}${target}`);
  } catch {
    throw invalid('the request path cannot be read as a URL path');
  }
}

const UpdateBody = <S extends z.ZodType>(key: string, schema: S) =>
  z.looseObject({ [key]: schema, updateMask: z.string().optional() });

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const store = await Store.open(options.dataDir);
  const ownTemp = options.dataDir
    ? undefined
    : await mkdtemp(join(tmpdir(), 'importkit-emulator-'));
  const uploadsDir = options.dataDir
    ? join(options.dataDir, 'uploads')
    : join(ownTemp ?? '', 'uploads');
  await mkdir(uploadsDir, { recursive: true });
  const faults = new FaultInjector(options.faults ?? { rules: [], seed: 1 });
  const keys = new Map<string, KeyOrganization>();
  for (const [key, name] of Object.entries(options.apiKeys ?? { 'emulator-key': 'local' })) {
    keys.set(key, { organizationId: stableId('organization', name), organizationName: name });
  }
  const running = new Set<Promise<void>>();
  /** Imports whose file is arriving right now (a second upload meanwhile is refused). */
  const uploading = new Set<string>();
  let baseUrl = '';
  const now = () => new Date().toISOString();
  const ctx = {
    store,
    uploadsDir,
    now,
    newId: () => randomUUID(),
    stepDelayMs: options.stepDelayMs ?? 0,
    fetchTimeoutMs: options.fetchTimeoutMs ?? 30_000,
  };
  const maxUploadBytes = options.maxUploadBytes ?? 2 * 1024 ** 3;
  const timeouts = { ...EMULATOR_TIMEOUTS, ...options.timeouts };

  function start(rec: ImportRecord) {
    // runImport never throws; should it, the import alone is lost, never the process.
    const p = runImport(rec, ctx)
      .catch(() => {})
      .finally(() => running.delete(p));
    running.add(p);
  }

  /**
   * Persists a request's change. When that fails, `undo` takes the change back before the
   * request fails, so the store holds only what was saved and later writes are unaffected.
   */
  async function commit(undo: () => void | Promise<void>): Promise<void> {
    try {
      await store.save();
    } catch (err) {
      await undo();
      throw err;
    }
  }

  /** An undo for a change to `target`'s fields: puts back a copy taken now. */
  function undoOf(target: Record<string, unknown>): () => void {
    const before = structuredClone(target);
    return () => {
      for (const key of Object.keys(target)) delete target[key];
      Object.assign(target, before);
    };
  }

  // Imports a restart interrupted pick up where they were.
  for (const rec of Object.values(store.data.imports)) {
    const s = rec.dataImport.status;
    const ready = rec.source === 'url' || rec.filePath !== undefined;
    if (ready && (s === 'DATA_IMPORT_STATUS_PENDING' || s === 'DATA_IMPORT_STATUS_IN_PROGRESS'))
      start(rec);
  }

  function owned<T>(
    table: Record<string, Owned<T>>,
    id: string,
    orgId: string,
    what: string,
  ): Owned<T> {
    const found = Object.hasOwn(table, id) ? table[id] : undefined;
    if (!found || found.orgId !== orgId) throw notFound(what, id);
    return found;
  }

  /** Applies `mask` field by field; unknown fields are code 3. */
  function applyMask(
    target: Record<string, unknown>,
    patch: Record<string, unknown>,
    mask: string | undefined,
    allowed: readonly string[],
    what: string,
    special: (path: string, value: unknown) => void = () => {},
  ) {
    const paths = (mask ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    if (paths.length === 0)
      throw invalid(`updateMask is required: name the ${what} fields to update`, 'update_mask');
    const unknown = paths.filter((p) => !allowed.includes(p));
    if (unknown.length > 0) {
      throw invalid(
        `updateMask names ${unknown.map((p) => `'${p}'`).join(', ')}, which cannot be updated on a ${what} (allowed: ${allowed.join(', ')})`,
        'update_mask',
      );
    }
    for (const p of paths) special(p, patch[toCamelPath(p)]);
    for (const p of paths) {
      const key = toCamelPath(p);
      const value = patch[key];
      if (value === undefined) delete target[key];
      else target[key] = value;
    }
  }

  function stamp(target: { modifiedDate?: string; modifiedByUserId?: string }, userId: string) {
    target.modifiedDate = now();
    target.modifiedByUserId = userId;
  }

  async function handle(
    req: IncomingMessage,
    res: ServerResponse,
    org: KeyOrganization,
    userId: string,
  ) {
    const u = requestUrl(req.url ?? '/');
    const path = u.pathname;
    const method = req.method ?? 'GET';
    const orgId = org.organizationId;
    const s = store.data;
    let m: RegExpExecArray | null;

    if (path === '/api/v2/api-keys/organization' && method === 'GET') {
      return send(res, 200, { organization: Organization.parse({ ...org, isAbacEnabled: false }) });
    }

    if (path === '/api/v2/data-imports:upload' && method === 'POST') {
      const body = objectBody(await readJson(req));
      const rec = newImport(body, 'upload', orgId, userId);
      await commit(() => forget(rec));
      const uploadUrl = `${baseUrl}/uploads/${rec.dataImport.dataImportId}?token=${rec.uploadToken}`;
      return send(res, 200, { uploadUrl, dataImportId: rec.dataImport.dataImportId });
    }

    if (path === '/api/v2/data-imports:url' && method === 'POST') {
      const body = objectBody(await readJson(req));
      const url = body.url;
      if (typeof url !== 'string' || !/^(https?|s3):\/\/\S+$/i.test(url)) {
        throw invalid('url must be an http, https or s3 address', 'url');
      }
      const rec = newImport(body, 'url', orgId, userId);
      rec.dataImport.sourceUrl = url;
      await commit(() => forget(rec));
      start(rec);
      return send(res, 200, { dataImportId: rec.dataImport.dataImportId });
    }

    if (path === '/api/v2/data-imports:detect-config' && method === 'POST') {
      const body = objectBody(await readJson(req));
      return send(res, 200, await detectConfig(body));
    }

    if (path === '/api/v2/data-imports' && method === 'GET') {
      return send(res, 200, listImports(u.searchParams, orgId));
    }

    m = /^\/api\/v2\/data-imports\/([^/:]+):retry$/.exec(path);
    if (m && method === 'POST') {
      const id = decodeURIComponent(m[1] ?? '');
      const rec = Object.hasOwn(s.imports, id) ? s.imports[id] : undefined;
      if (!rec || rec.orgId !== orgId) throw notFound('data import', id);
      if (rec.source !== 'url')
        throw new HttpFailure(
          9,
          `data import ${id} was not created from a URL: only URL imports can be retried`,
        );
      if (rec.dataImport.status !== 'DATA_IMPORT_STATUS_FAILED') {
        throw new HttpFailure(
          9,
          `data import ${id} is ${rec.dataImport.status}: only a FAILED import can be retried`,
        );
      }
      const undo = undoOf(rec.dataImport);
      rec.dataImport.status = 'DATA_IMPORT_STATUS_PENDING';
      rec.dataImport.modifiedDate = now();
      delete rec.dataImport.errorMessage;
      delete rec.dataImport.warnings;
      await commit(undo);
      start(rec);
      return send(res, 200, {});
    }

    m = /^\/api\/v2\/data-imports\/([^/:]+)$/.exec(path);
    if (m && method === 'GET') {
      const id = decodeURIComponent(m[1] ?? '');
      const rec = Object.hasOwn(s.imports, id) ? s.imports[id] : undefined;
      if (!rec || rec.orgId !== orgId) throw notFound('data import', id);
      return send(res, 200, { dataImport: DataImport.parse(rec.dataImport) });
    }

    m = /^\/uploads\/([^/]+)$/.exec(path);
    if (m && method === 'POST') return upload(req, res, decodeURIComponent(m[1] ?? ''), u, orgId);

    m = /^\/api\/v1\/views\/([^/]+)$/.exec(path);
    if (m && method === 'PATCH') {
      const id = decodeURIComponent(m[1] ?? '');
      const body = parse(UpdateBody('view', View), await readJson(req));
      const view = owned(s.views, id, orgId, 'view').value as Record<string, unknown>;
      const undo = undoOf(view);
      applyMask(
        view,
        body.view as Record<string, unknown>,
        body.updateMask as string | undefined,
        ['name', 'axis_groups', 'channels', 'is_pinned'],
        'view',
      );
      stamp(view, userId);
      await commit(undo);
      return send(res, 200, { view: View.parse(view) });
    }

    if (path === '/api/v2/runs' && method === 'PATCH') {
      const body = parse(UpdateBody('run', Run), await readJson(req));
      const patch = body.run as Record<string, unknown>;
      const id = requiredId(patch, 'runId', 'run');
      const run = owned(s.runs, id, orgId, 'run').value as Record<string, unknown>;
      const undo = undoOf(run);
      applyMask(
        run,
        patch,
        body.updateMask as string | undefined,
        RUN_UPDATE_MASK_FIELDS,
        'run',
        (p, value) => {
          if (p === 'client_key' && typeof run.clientKey === 'string' && run.clientKey !== '') {
            throw new HttpFailure(9, `run ${id} already has a client_key: it can be set only once`);
          }
          if (p === 'is_archived') {
            if (value === true && run.isArchived !== true) run.archivedDate = now();
            if (value !== true) delete run.archivedDate;
          }
        },
      );
      stamp(run, userId);
      await commit(undo);
      return send(res, 200, { run: Run.parse(run) });
    }

    if (path === '/api/v3/channels' && method === 'PATCH') {
      const body = parse(UpdateBody('channel', Channel), await readJson(req));
      const patch = body.channel as Record<string, unknown>;
      const id = requiredId(patch, 'channelId', 'channel');
      const channel = owned(s.channels, id, orgId, 'channel').value as Record<string, unknown>;
      const undo = undoOf(channel);
      applyMask(
        channel,
        patch,
        body.updateMask as string | undefined,
        [
          'name',
          'description',
          'unit_id',
          'display_description',
          'display_unit_id',
          'active',
          'metadata',
          'enum_types',
          'bit_field_elements',
          'data_type',
        ],
        'channel',
      );
      stamp(channel, userId);
      await commit(undo);
      return send(res, 200, { channel: Channel.parse(channel) });
    }

    if (path === '/api/v1/saved_searches' && method === 'PATCH') {
      const body = parse(UpdateBody('savedSearch', SavedSearch), await readJson(req));
      const patch = body.savedSearch as Record<string, unknown>;
      const id = requiredId(patch, 'savedSearchId', 'savedSearch');
      const search = owned(s.savedSearches, id, orgId, 'saved search').value as Record<
        string,
        unknown
      >;
      const undo = undoOf(search);
      applyMask(
        search,
        patch,
        body.updateMask as string | undefined,
        ['name', 'properties'],
        'saved search',
      );
      stamp(search, userId);
      await commit(undo);
      return send(res, 200, { savedSearch: SavedSearch.parse(search) });
    }

    if (path === '/api/v1/user-defined-functions/versions' && method === 'GET') {
      const ids = u.searchParams.getAll('userDefinedFunctionVersionIds');
      const fid = u.searchParams.get('userDefinedFunctionId');
      const all = Object.values(s.udfVersions)
        .filter((v) => v.orgId === orgId)
        .map((v) => v.value)
        .filter((v) => ids.length === 0 || ids.includes(v.userDefinedFunctionVersionId ?? ''))
        .filter((v) => !fid || v.userDefinedFunctionId === fid);
      return send(res, 200, {
        userDefinedFunctions: all.map((v) => UserDefinedFunctionVersion.parse(v)),
      });
    }

    m = /^\/api\/v1\/assets\/([^/]+)$/.exec(path);
    if (m && method === 'GET') {
      const id = decodeURIComponent(m[1] ?? '');
      return send(res, 200, { asset: Asset.parse(owned(s.assets, id, orgId, 'asset').value) });
    }

    throw new HttpFailure(12, `${method} ${path} is not an operation of this service`);
  }

  function parse<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
    const r = schema.safeParse(body);
    if (!r.success) {
      const first = r.error.issues[0];
      const where = first?.path.join('.') ?? '';
      throw invalid(
        `invalid request${where ? ` at ${where}` : ''}: ${first?.message ?? 'bad shape'}`,
        where || undefined,
      );
    }
    return r.data;
  }

  function requiredId(patch: Record<string, unknown>, key: string, what: string): string {
    const id = patch[key];
    if (typeof id !== 'string' || id === '')
      throw invalid(`${what}.${key} is required`, `${what}.${key}`);
    return id;
  }

  function newImport(
    body: Record<string, unknown>,
    source: 'upload' | 'url',
    orgId: string,
    userId: string,
  ): ImportRecord {
    const keys = CONFIG_KEYS.filter((k) => body[k] !== undefined);
    if (keys.length !== 1) {
      throw invalid(
        `the body needs exactly one of ${CONFIG_KEYS.join(', ')} (found ${keys.length})`,
      );
    }
    const key = keys[0] as string;
    if (typeof body[key] !== 'object' || body[key] === null || Array.isArray(body[key])) {
      throw invalid(`${key} must be an object`, key);
    }
    const id = randomUUID();
    const t = now();
    const rec: ImportRecord = {
      orgId,
      userId,
      source,
      uploadToken: randomBytes(16).toString('hex'),
      document: source === 'url' ? { url: body.url, [key]: body[key] } : { [key]: body[key] },
      seq: store.nextSeq(),
      dataImport: {
        dataImportId: id,
        status: 'DATA_IMPORT_STATUS_PENDING',
        createdDate: t,
        modifiedDate: t,
        [key]: body[key],
      },
    };
    store.data.imports[id] = rec;
    return rec;
  }

  /** Takes back an import whose creation could not be saved. */
  function forget(rec: ImportRecord) {
    const id = rec.dataImport.dataImportId;
    if (id !== undefined) delete store.data.imports[id];
    if (store.data.seq === rec.seq) store.data.seq -= 1;
  }

  async function upload(
    req: IncomingMessage,
    res: ServerResponse,
    id: string,
    u: URL,
    orgId: string,
  ) {
    const rec = Object.hasOwn(store.data.imports, id) ? store.data.imports[id] : undefined;
    if (!rec || rec.orgId !== orgId || u.searchParams.get('token') !== rec.uploadToken) {
      throw notFound('upload', id);
    }
    if (rec.source !== 'upload') throw new HttpFailure(9, `data import ${id} takes no upload`);
    if (rec.filePath !== undefined || uploading.has(id)) {
      throw new HttpFailure(9, `data import ${id} already has its file`);
    }
    uploading.add(id);
    try {
      await receive(req, res, rec, id);
    } finally {
      uploading.delete(id);
    }
  }

  async function receive(req: IncomingMessage, res: ServerResponse, rec: ImportRecord, id: string) {
    const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
    if (encoding !== 'identity' && encoding !== 'gzip') {
      throw invalid(`Content-Encoding '${encoding}' is not supported (gzip or none)`);
    }
    const gzip = encoding === 'gzip';
    const name = uploadName(req.headers['content-disposition'], gzip);
    const dir = join(uploadsDir, id);
    await mkdir(dir, { recursive: true });
    const path = join(dir, name);
    try {
      await saveBody(req, [...uploadStages(gzip, maxUploadBytes), createWriteStream(path)]);
    } catch (err) {
      await rm(path, { force: true });
      const code = (err as NodeJS.ErrnoException).code;
      if (typeof code === 'string' && code.startsWith('Z_')) {
        throw invalid('the upload is not valid gzip data');
      }
      throw err;
    }
    const modified = rec.dataImport.modifiedDate;
    rec.filePath = path;
    rec.fileName = name;
    rec.dataImport.modifiedDate = now();
    await commit(async () => {
      delete rec.filePath;
      delete rec.fileName;
      if (modified === undefined) delete rec.dataImport.modifiedDate;
      else rec.dataImport.modifiedDate = modified;
      await rm(path, { force: true });
    });
    start(rec);
    send(res, 200, {});
  }

  function listImports(q: URLSearchParams, orgId: string) {
    const sizeText = q.get('pageSize');
    let pageSize = 50;
    if (sizeText !== null && sizeText !== '') {
      const n = Number(sizeText);
      if (!Number.isInteger(n) || n < 0)
        throw invalid('pageSize must be a whole number ≥ 0', 'page_size');
      pageSize = n === 0 ? 50 : Math.min(n, 1000);
    }
    const filter = q.get('filter') ?? '';
    const orderBy = q.get('orderBy') ?? '';
    let test: ReturnType<typeof parseFilter>;
    let order: ReturnType<typeof parseOrderBy>;
    try {
      test = parseFilter(filter);
      order = parseOrderBy(orderBy);
    } catch (err) {
      if (err instanceof FilterError) throw invalid(err.message, filter ? 'filter' : 'order_by');
      throw err;
    }
    const query = `${filter}\0${orderBy}`;
    let offset = 0;
    const token = q.get('pageToken');
    if (token) {
      try {
        const t = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as {
          o: number;
          q: string;
        };
        if (t.q !== stableId(query) || !Number.isInteger(t.o) || t.o < 0)
          throw new Error('mismatch');
        offset = t.o;
      } catch {
        throw invalid('pageToken does not belong to this filter and order', 'page_token');
      }
    }
    const all = Object.values(store.data.imports)
      .filter((r) => r.orgId === orgId && test(r))
      .sort(order);
    const page = all.slice(offset, offset + pageSize).map((r) => DataImport.parse(r.dataImport));
    const body: { dataImports: unknown[]; nextPageToken?: string } = { dataImports: page };
    if (offset + pageSize < all.length) {
      body.nextPageToken = Buffer.from(
        JSON.stringify({ o: offset + pageSize, q: stableId(query) }),
      ).toString('base64url');
    }
    return body;
  }

  async function detectConfig(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (typeof body.data !== 'string') throw invalid('data (base64 bytes) is required', 'data');
    const type = body.type;
    const ext =
      type === 'DATA_TYPE_KEY_CSV'
        ? 'csv'
        : type === 'DATA_TYPE_KEY_PARQUET_FLATDATASET' ||
            type === 'DATA_TYPE_KEY_PARQUET_SINGLE_CHANNEL_PER_ROW'
          ? 'parquet'
          : undefined;
    if (!ext)
      throw invalid(
        `the emulator detects CSV and Parquet configs only (type ${String(type)})`,
        'type',
      );
    const bytes = Buffer.from(body.data, 'base64');
    const dir = await mkdtemp(join(tmpdir(), 'importkit-detect-'));
    try {
      const file = join(dir, `detect.${ext}`);
      // A Parquet footer alone gets the leading magic, so the inspector reads it from the tail.
      await writeFile(
        file,
        ext === 'parquet' && bytes.subarray(0, 4).toString() !== 'PAR1'
          ? Buffer.concat([Buffer.from('PAR1'), bytes])
          : bytes,
      );
      const { inferConfig } = await import('../infer/index.js');
      try {
        const draft = await inferConfig(file);
        return draft.document as Record<string, unknown>;
      } catch (err) {
        throw invalid(
          `cannot detect a config: ${(err as Error).message.replace(file, 'the data')}`,
          'data',
        );
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse) {
    const decision = faults.decide();
    if (decision.latencyMs > 0) await new Promise((r) => setTimeout(r, decision.latencyMs));
    const action = decision.action;
    if (action.kind === 'drop') {
      req.socket.destroy();
      return;
    }
    if (action.kind === 'status') {
      req.resume();
      if (action.status === 429) {
        return sendStatus(res, 8, 'too many requests (injected fault)', [], {
          'retry-after': String(action.retryAfter ?? 1),
        });
      }
      return sendStatus(res, 14, 'service unavailable (injected fault)');
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
      );
    }
    const userId = stableId('user', m[1]);
    try {
      if (!store.data.seeded.includes(org.organizationId)) {
        const undo = [store.data.views, store.data.savedSearches, store.data.udfVersions].map(
          (table) => undoOf(table),
        );
        seedOrganization(store.data, org.organizationId, userId, now());
        store.data.seeded.push(org.organizationId);
        await commit(() => {
          for (const u of undo) u();
          store.data.seeded = store.data.seeded.filter((id) => id !== org.organizationId);
        });
      }
      await handle(req, res, org, userId);
    } catch (err) {
      sendFailure(req, res, err);
    }
  }

  const server: Server = createServer(
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
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  baseUrl = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}`;

  async function idle() {
    while (running.size > 0) await Promise.allSettled([...running]);
  }

  return {
    url: baseUrl,
    port: address.port,
    faults,
    store,
    organizations: keys,
    idle,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await idle();
      await store.save();
      if (ownTemp) await rm(ownTemp, { recursive: true, force: true });
    },
  };
}
