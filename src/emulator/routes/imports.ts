/**
 * Data imports: create one for an upload or a URL, detect a config from sample bytes,
 * list, get and retry. The upload itself is `uploads.ts`; the import's run is `../imports.ts`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_KEYS, DataImport, ImportDocument, toSnakePath } from '../../model/index.js';
import {
  commit,
  type EmulatorContext,
  noteDropped,
  stableId,
  startImport,
  undoOf,
} from '../context.js';
import { HttpFailure, invalid, notFound, objectBody, readJson } from '../http.js';
import { describeIssues } from '../imports.js';
import { FilterError, parseFilter, parseOrderBy } from '../list.js';
import { type Dropped, readMessage } from '../proto-read.js';
import { DetectConfigRequest, DetectConfigResponse, messageOf } from '../proto-shape.js';
import { writeMessage } from '../proto-write.js';
import type { ImportRecord } from '../store-state.js';
import type { Route, RouteCall } from './table.js';

const ID = '([^/:]+)';

export const importRoutes: Route[] = [
  { method: 'POST', path: '/api/v2/data-imports:upload', handler: createForUpload },
  { method: 'POST', path: '/api/v2/data-imports:url', handler: createFromUrl },
  {
    method: 'POST',
    path: '/api/v2/data-imports:detect-config',
    // Not stored: its base64 sample may be longer than a stored string.
    handler: async ({ req }, ctx) => {
      const raw = await readJson(req, { longStrings: true });
      const read = readMessage(messageOf(DetectConfigRequest), raw);
      noteDropped(ctx, 'DetectConfig', read.dropped);
      return writeMessage(messageOf(DetectConfigResponse), await detectConfig(read.value));
    },
  },
  {
    method: 'GET',
    path: '/api/v2/data-imports',
    handler: ({ url, orgId }, ctx) => listImports(ctx, url.searchParams, orgId),
  },
  { method: 'POST', path: new RegExp(`^/api/v2/data-imports/${ID}:retry$`), handler: retry },
  {
    method: 'GET',
    path: new RegExp(`^/api/v2/data-imports/${ID}$`),
    handler: ({ params, orgId }, ctx) => ({
      dataImport: answerOf(ownImport(ctx, params[0] ?? '', orgId)),
    }),
  },
];

/** The DataImport as the service answers it: the record's fields and its config. */
function answerOf(rec: ImportRecord): Record<string, unknown> {
  const { url: _url, ...config } = rec.document;
  return writeMessage(messageOf(DataImport), { ...rec.dataImport, ...config });
}

/**
 * A create's body read as the gateway reads it (the config normalised: names in either
 * case, enum numbers, quoted integers, nulls; a wrong type or a bad timestamp is a 400).
 * What the gateway would drop is dropped and logged, with what importkit's validator says
 * of the document as it was sent; in strict mode the import is created but ends FAILED
 * with the validator's errors (`refusal`), as `importkit check` would have said.
 */
async function readDocument(
  req: IncomingMessage,
  ctx: EmulatorContext,
  operation: string,
  source: 'upload' | 'url',
): Promise<{ body: Record<string, unknown>; refusal?: string }> {
  const raw = objectBody(await readJson(req));
  const { value: body, dropped } = readMessage(messageOf(ImportDocument), raw);
  if (source === 'upload' && body.url !== undefined) {
    delete body.url;
    dropped.push({ path: 'url', why: 'an unknown field' });
  }
  if (dropped.length === 0) return { body };
  noteDropped({ ...ctx, strict: false }, operation, dropped);
  const { url: _url, ...sent } = raw;
  const { validateConfig } = await import('../../validate/index.js');
  const issues = validateConfig(sent).issues;
  for (const i of issues)
    ctx.log(
      `${operation}: the validator, on the config as sent: ${i.severity} at ${i.path || '/'}: ${i.message}`,
    );
  if (!ctx.strict) return { body };
  return { body, refusal: `invalid config: ${describeIssues(issues) || listDropped(dropped)}` };
}

const listDropped = (dropped: readonly Dropped[]) =>
  dropped.map((d) => `${d.path} is ${d.why}`).join('; ');

function ownImport(ctx: EmulatorContext, id: string, orgId: string): ImportRecord {
  const imports = ctx.store.data.imports;
  const rec = Object.hasOwn(imports, id) ? imports[id] : undefined;
  if (!rec || rec.orgId !== orgId) throw notFound('data import', id);
  return rec;
}

async function createForUpload({ req, orgId, userId }: RouteCall, ctx: EmulatorContext) {
  const { body, refusal } = await readDocument(req, ctx, 'CreateDataImportFromUpload', 'upload');
  const rec = newImport(ctx, body, 'upload', orgId, userId);
  if (refusal !== undefined) rec.refusal = refusal;
  await commit(ctx, () => forget(ctx, rec));
  const uploadUrl = `${reachedAt(req, ctx)}/uploads/${rec.dataImport.dataImportId}?token=${rec.uploadToken}`;
  return { uploadUrl, dataImportId: rec.dataImport.dataImportId };
}

/**
 * The address the client reached the emulator at (its Host header: `emulator:8080` from a
 * container beside it), so the upload URL handed out reaches it too; else its own URL.
 */
function reachedAt(req: IncomingMessage, ctx: EmulatorContext): string {
  const host = req.headers.host;
  const plain = host !== undefined && /^([\w.-]+|\[[\da-f:.]+\])(:\d{1,5})?$/i.test(host);
  return plain ? `http://${host}` : ctx.baseUrl;
}

async function createFromUrl({ req, orgId, userId }: RouteCall, ctx: EmulatorContext) {
  const { body, refusal } = await readDocument(req, ctx, 'CreateDataImportFromUrl', 'url');
  const url = body.url;
  if (typeof url !== 'string' || !/^(https?|s3):\/\/\S+$/i.test(url)) {
    throw invalid('url must be an http, https or s3 address', 'url');
  }
  const rec = newImport(ctx, body, 'url', orgId, userId);
  if (refusal !== undefined) rec.refusal = refusal;
  rec.dataImport.sourceUrl = url;
  await commit(ctx, () => forget(ctx, rec));
  startImport(ctx, rec);
  return { dataImportId: rec.dataImport.dataImportId };
}

async function retry({ params, orgId }: RouteCall, ctx: EmulatorContext) {
  const id = params[0] ?? '';
  const rec = ownImport(ctx, id, orgId);
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
  rec.dataImport.modifiedDate = ctx.now();
  delete rec.dataImport.errorMessage;
  ctx.store.touch('imports', id);
  await commit(ctx, undo);
  startImport(ctx, rec);
  return {};
}

function newImport(
  ctx: EmulatorContext,
  body: Record<string, unknown>,
  source: 'upload' | 'url',
  orgId: string,
  userId: string,
): ImportRecord {
  const keys = CONFIG_KEYS.filter((k) => body[k] !== undefined);
  if (keys.length !== 1) {
    throw invalid(`the body needs exactly one of ${CONFIG_KEYS.join(', ')} (found ${keys.length})`);
  }
  const key = keys[0] as string;
  const id = ctx.newId();
  const t = ctx.now();
  const rec: ImportRecord = {
    orgId,
    userId,
    source,
    uploadToken: randomBytes(16).toString('hex'),
    document: source === 'url' ? { url: body.url, [key]: body[key] } : { [key]: body[key] },
    seq: ctx.store.nextSeq(),
    dataImport: {
      dataImportId: id,
      status: 'DATA_IMPORT_STATUS_PENDING',
      createdDate: t,
      modifiedDate: t,
    },
  };
  ctx.store.data.imports[id] = rec;
  ctx.store.touch('imports', id);
  return rec;
}

/** Takes back an import whose creation could not be saved. */
function forget(ctx: EmulatorContext, rec: ImportRecord) {
  const data = ctx.store.data;
  const id = rec.dataImport.dataImportId;
  if (id !== undefined) {
    delete data.imports[id];
    ctx.store.touch('imports', id);
  }
  if (data.seq === rec.seq) data.seq -= 1;
}

/**
 * A query parameter by its JSON name or its proto name (`pageSize`, `page_size`), as the
 * gateway maps both onto the request's field.
 */
function param(q: URLSearchParams, name: string): string | null {
  return q.get(name) ?? q.get(toSnakePath(name));
}

function pageSizeOf(q: URLSearchParams): number {
  const sizeText = param(q, 'pageSize');
  if (sizeText === null || sizeText === '') return 50;
  const n = Number(sizeText);
  if (!Number.isInteger(n) || n < 0)
    throw invalid('pageSize must be a whole number ≥ 0', 'page_size');
  return n === 0 ? 50 : Math.min(n, 1000);
}

/** Where a page starts: 0, or the offset its token holds when made for the same query. */
function offsetOf(q: URLSearchParams, query: string): number {
  const token = param(q, 'pageToken');
  if (!token) return 0;
  try {
    const t = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as {
      o: number;
      q: string;
    };
    if (t.q !== stableId(query) || !Number.isInteger(t.o) || t.o < 0) throw new Error('mismatch');
    return t.o;
  } catch {
    throw invalid('pageToken does not belong to this filter and order', 'page_token');
  }
}

function listImports(ctx: EmulatorContext, q: URLSearchParams, orgId: string) {
  const pageSize = pageSizeOf(q);
  const filter = param(q, 'filter') ?? '';
  const orderBy = param(q, 'orderBy') ?? '';
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
  const offset = offsetOf(q, query);
  const all = Object.values(ctx.store.data.imports)
    .filter((r) => r.orgId === orgId && test(r))
    .sort(order);
  const page = pageOf(all, offset, pageSize);
  const body = { dataImports: page, nextPageToken: '' };
  const next = offset + page.length;
  if (next < all.length) {
    body.nextPageToken = Buffer.from(JSON.stringify({ o: next, q: stableId(query) })).toString(
      'base64url',
    );
  }
  return body;
}

/**
 * A page holds at most this much JSON: past it, the page ends early (it always holds one
 * import) and its token goes on from there, so that a list of imports with 4 MiB configs
 * never builds an answer larger than a string can be.
 */
const MAX_PAGE_BYTES = 16 * 1024 * 1024;

function pageOf(all: readonly ImportRecord[], offset: number, pageSize: number): unknown[] {
  const page: unknown[] = [];
  let bytes = 0;
  for (const rec of all.slice(offset, offset + pageSize)) {
    const item = answerOf(rec);
    bytes += JSON.stringify(item).length;
    if (page.length > 0 && bytes > MAX_PAGE_BYTES) break;
    page.push(item);
  }
  return page;
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
    const { inferConfig } = await import('../../infer/index.js');
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
