/**
 * Data imports: create one for an upload or a URL, detect a config from sample bytes,
 * list, get and retry. The upload itself is `uploads.ts`; the import's run is `../imports.ts`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_KEYS, DataImport } from '../../model/index.js';
import { commit, type EmulatorContext, stableId, startImport, undoOf } from '../context.js';
import { HttpFailure, invalid, notFound, objectBody, readJson } from '../http.js';
import { FilterError, parseFilter, parseOrderBy } from '../list.js';
import type { ImportRecord } from '../store.js';
import type { Route, RouteCall } from './table.js';

const ID = '([^/:]+)';

export const importRoutes: Route[] = [
  { method: 'POST', path: '/api/v2/data-imports:upload', handler: createForUpload },
  { method: 'POST', path: '/api/v2/data-imports:url', handler: createFromUrl },
  {
    method: 'POST',
    path: '/api/v2/data-imports:detect-config',
    // Not stored: its base64 sample may be longer than a stored string.
    handler: async ({ req }) =>
      detectConfig(objectBody(await readJson(req, { longStrings: true }))),
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
      dataImport: DataImport.parse(answerOf(ownImport(ctx, params[0] ?? '', orgId))),
    }),
  },
];

/** The DataImport as the service answers it: the record's fields and its config. */
function answerOf(rec: ImportRecord): Record<string, unknown> {
  const { url: _url, ...config } = rec.document;
  return { ...rec.dataImport, ...config };
}

function ownImport(ctx: EmulatorContext, id: string, orgId: string): ImportRecord {
  const imports = ctx.store.data.imports;
  const rec = Object.hasOwn(imports, id) ? imports[id] : undefined;
  if (!rec || rec.orgId !== orgId) throw notFound('data import', id);
  return rec;
}

async function createForUpload({ req, orgId, userId }: RouteCall, ctx: EmulatorContext) {
  const body = objectBody(await readJson(req));
  const rec = newImport(ctx, body, 'upload', orgId, userId);
  await commit(ctx, () => forget(ctx, rec));
  const uploadUrl = `${ctx.baseUrl}/uploads/${rec.dataImport.dataImportId}?token=${rec.uploadToken}`;
  return { uploadUrl, dataImportId: rec.dataImport.dataImportId };
}

async function createFromUrl({ req, orgId, userId }: RouteCall, ctx: EmulatorContext) {
  const body = objectBody(await readJson(req));
  const url = body.url;
  if (typeof url !== 'string' || !/^(https?|s3):\/\/\S+$/i.test(url)) {
    throw invalid('url must be an http, https or s3 address', 'url');
  }
  const rec = newImport(ctx, body, 'url', orgId, userId);
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
  delete rec.dataImport.warnings;
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
  if (typeof body[key] !== 'object' || body[key] === null || Array.isArray(body[key])) {
    throw invalid(`${key} must be an object`, key);
  }
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

function pageSizeOf(q: URLSearchParams): number {
  const sizeText = q.get('pageSize');
  if (sizeText === null || sizeText === '') return 50;
  const n = Number(sizeText);
  if (!Number.isInteger(n) || n < 0)
    throw invalid('pageSize must be a whole number ≥ 0', 'page_size');
  return n === 0 ? 50 : Math.min(n, 1000);
}

/** Where a page starts: 0, or the offset its token holds when made for the same query. */
function offsetOf(q: URLSearchParams, query: string): number {
  const token = q.get('pageToken');
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
  const offset = offsetOf(q, query);
  const all = Object.values(ctx.store.data.imports)
    .filter((r) => r.orgId === orgId && test(r))
    .sort(order);
  const page = pageOf(all, offset, pageSize);
  const body: { dataImports: unknown[]; nextPageToken?: string } = { dataImports: page };
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
    const item = DataImport.parse(answerOf(rec));
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
