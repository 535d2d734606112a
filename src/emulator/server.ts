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
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { z } from 'zod';
import { toCamelPath } from '../client/index.js';
import { CONFIG_KEYS } from '../model/document.js';
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
}

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
) {
  send(res, HTTP_OF_CODE[code] ?? 500, { code, message, details }, headers);
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
  try {
    return JSON.parse(text);
  } catch {
    throw invalid('the request body is not JSON');
  }
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
  };

  function start(rec: ImportRecord) {
    const p = runImport(rec, ctx).finally(() => running.delete(p));
    running.add(p);
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
    const u = new URL(req.url ?? '/', 'http://emulator');
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
      await store.save();
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
      await store.save();
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
      rec.dataImport.status = 'DATA_IMPORT_STATUS_PENDING';
      rec.dataImport.modifiedDate = now();
      delete rec.dataImport.errorMessage;
      delete rec.dataImport.warnings;
      await store.save();
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
      applyMask(
        view,
        body.view as Record<string, unknown>,
        body.updateMask as string | undefined,
        ['name', 'axis_groups', 'channels', 'is_pinned'],
        'view',
      );
      stamp(view, userId);
      await store.save();
      return send(res, 200, { view: View.parse(view) });
    }

    if (path === '/api/v2/runs' && method === 'PATCH') {
      const body = parse(UpdateBody('run', Run), await readJson(req));
      const patch = body.run as Record<string, unknown>;
      const id = requiredId(patch, 'runId', 'run');
      const run = owned(s.runs, id, orgId, 'run').value as Record<string, unknown>;
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
      await store.save();
      return send(res, 200, { run: Run.parse(run) });
    }

    if (path === '/api/v3/channels' && method === 'PATCH') {
      const body = parse(UpdateBody('channel', Channel), await readJson(req));
      const patch = body.channel as Record<string, unknown>;
      const id = requiredId(patch, 'channelId', 'channel');
      const channel = owned(s.channels, id, orgId, 'channel').value as Record<string, unknown>;
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
      await store.save();
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
      applyMask(
        search,
        patch,
        body.updateMask as string | undefined,
        ['name', 'properties'],
        'saved search',
      );
      stamp(search, userId);
      await store.save();
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
    const raw = filenameOf(req.headers['content-disposition']) ?? 'upload';
    let name = basename(raw.replace(/\\/g, '/')) || 'upload';
    if (encoding === 'gzip') name = name.replace(/\.gz$/i, '') || 'upload';
    const dir = join(uploadsDir, id);
    await mkdir(dir, { recursive: true });
    const path = join(dir, name);
    try {
      if (encoding === 'gzip') await pipeline(req, createGunzip(), createWriteStream(path));
      else await pipeline(req, createWriteStream(path));
    } catch (err) {
      await rm(path, { force: true });
      if ((err as NodeJS.ErrnoException).code?.startsWith('Z_')) {
        throw invalid('the upload is not valid gzip data');
      }
      throw err;
    }
    rec.filePath = path;
    rec.fileName = name;
    rec.dataImport.modifiedDate = now();
    await store.save();
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
    if (!store.data.seeded.includes(org.organizationId)) {
      seedOrganization(store.data, org.organizationId, userId, now());
      store.data.seeded.push(org.organizationId);
      await store.save();
    }
    try {
      await handle(req, res, org, userId);
    } catch (err) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      req.resume();
      if (err instanceof HttpFailure) return sendStatus(res, err.code, err.message, err.details);
      return sendStatus(res, 13, `internal error: ${(err as Error)?.message ?? String(err)}`);
    }
  }

  const server: Server = createServer((req, res) => {
    onRequest(req, res).catch(() => res.destroy());
  });
  server.keepAliveTimeout = 5_000;
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
