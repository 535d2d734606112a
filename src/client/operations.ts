/**
 * The operations: each one request through the transport, with method and path exactly
 * as the reference writes them, answering the resource itself (the Run, not `{ run }`).
 */
import { z } from 'zod';
import {
  Asset,
  Channel,
  DATA_IMPORT_STATUS_VALUES,
  DataImport,
  type DataTypeKey,
  type ImportDocument,
  Organization,
  RUN_UPDATE_MASK_FIELDS,
  Run,
  SavedSearch,
  UserDefinedFunctionVersion,
  View,
} from '../model/index.js';
import { RequestError, type RequestPlace, ResponseError } from './errors.js';
import { maskOf, maskPaths, toSnakePath } from './mask.js';
import type { QueryValue, Transport } from './transport.js';
import { fileBody, type UploadOptions } from './upload.js';
import { zipBody } from './zip-body.js';

/** Options every operation takes. */
export interface CallOptions {
  signal?: AbortSignal;
  /** This call's overall time limit in ms (overrides the client's). */
  deadlineMs?: number;
}

export interface UpdateOptions extends CallOptions {
  /** The mask to send instead of one built from the fields given. */
  updateMask?: string;
}

export interface UploadTarget {
  uploadUrl: string;
  dataImportId: string;
}

export interface ListDataImportsOptions extends CallOptions {
  /** Imports per page (the service's default is 50, at most 1000). */
  pageSize?: number;
  /** A CEL filter over data_import_id, source_url, status, run_id. */
  filter?: string;
  /** `created_date` or `modified_date`, optionally followed by ` desc`. */
  orderBy?: string;
  /** Start from this page (a token from an earlier page). */
  pageToken?: string;
}

export interface DataImportPage {
  dataImports: DataImport[];
  /** Present when another page follows. */
  nextPageToken?: string;
}

/** What DetectConfig answers: one config, keyed like a document. */
export type DetectedConfig = Pick<
  ImportDocument,
  'csvConfig' | 'parquetConfig' | 'hdf5Config' | 'tdmsConfig'
> &
  Record<string, unknown>;

type WithId<K extends string, T> = { [P in K]: string } & Partial<Omit<T, K>>;

export type RunUpdate = WithId<'runId', Run>;
export type ViewUpdate = WithId<'viewId', View>;
export type ChannelUpdate = WithId<'channelId', Channel>;
export type SavedSearchUpdate = WithId<'savedSearchId', SavedSearch>;

/**
 * Proto3 JSON lets a server write an enum as its number: a DataImport status `3` is read
 * as its name (SUCCEEDED); a number beyond the known values is kept as its decimal text.
 */
const TolerantDataImport = z.preprocess((value) => {
  if (typeof value !== 'object' || value === null) return value;
  const status = (value as { status?: unknown }).status;
  if (typeof status !== 'number') return value;
  return { ...value, status: DATA_IMPORT_STATUS_VALUES[status] ?? String(status) };
}, DataImport);

const UploadTargetBody = z.looseObject({ uploadUrl: z.string(), dataImportId: z.string() });
const UrlImportBody = z.looseObject({ dataImportId: z.string() });
const ListBody = z.looseObject({
  dataImports: z.array(TolerantDataImport).optional(),
  nextPageToken: z.string().optional(),
});
const DetectBody = z.looseObject({});

/**
 * `value` without its `null` members: protobuf's JSON writer (the gateway emits unpopulated
 * fields) writes `null` for an unset message field, which means the same as leaving it out.
 */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null) continue;
    Object.defineProperty(out, k, {
      value: withoutNulls(v),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** Parses `body[key]` (or the body itself for key `''`) with `schema`, nulls read as unset. */
function field<S extends z.ZodType>(key: string, schema: S) {
  return (body: unknown, place: RequestPlace): z.infer<S> => {
    const value = withoutNulls(
      key === ''
        ? body
        : typeof body === 'object' && body !== null
          ? (body as Record<string, unknown>)[key]
          : undefined,
    );
    if (value === undefined) throw new ResponseError(place, 200, `the answer has no '${key}'`);
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      const at = first
        ? `${key}${first.path.length ? `.${first.path.join('.')}` : ''}: ${first.message}`
        : key;
      throw new ResponseError(place, 200, at, { cause: parsed.error });
    }
    return parsed.data;
  };
}

const enc = encodeURIComponent;

function withoutUrl(document: ImportDocument): Omit<ImportDocument, 'url'> {
  const { url: _url, ...rest } = document;
  return rest;
}

function callSignal(options: CallOptions) {
  return { signal: options.signal, deadlineMs: options.deadlineMs };
}

const RUN_MASK = new Set<string>(RUN_UPDATE_MASK_FIELDS);

interface UpdateSpec<T> {
  method: 'PATCH';
  path: string;
  key: string;
  idField: string;
  schema: z.ZodType<T>;
  /** A mask path the service names otherwise (`display_unit_id` → `display_units`). */
  maskNames?: Readonly<Record<string, string>>;
}

/**
 * The mask paths of an update: the given mask or one built from the fields, in snake_case
 * as the reference writes them (a given mask may use either case: `isPinned` is sent as
 * `is_pinned`), checked against `allowed`.
 */
function updatePaths(
  label: string,
  idField: string,
  fields: Record<string, unknown>,
  options: UpdateOptions,
  allowed?: ReadonlySet<string>,
  maskNames: Readonly<Record<string, string>> = {},
): string[] {
  const id = fields[idField];
  if (typeof id !== 'string' || id === '') {
    throw new RequestError(`${label}: '${idField}' is required`, 'update_mask_invalid');
  }
  const mask = options.updateMask ?? maskOf(fields, idField);
  const paths = maskPaths(mask)
    .map(toSnakePath)
    .map((p) => maskNames[p] ?? p);
  if (paths.length === 0) {
    throw new RequestError(
      `${label}: nothing to update (no field besides '${idField}' and no updateMask)`,
    );
  }
  if (allowed) {
    const refused = paths.filter((p) => !allowed.has(p));
    if (refused.length > 0) {
      throw new RequestError(
        `${label}: ${refused.map((p) => `'${p}'`).join(', ')} cannot be updated; the mask allows ${[...allowed].join(', ')}`,
      );
    }
  }
  return paths;
}

/** One PATCH with `{ [key]: fields, updateMask }`, answering the updated resource (a refused mask rejects, never throws). */
async function sendUpdate<T>(
  t: Transport,
  label: string,
  spec: UpdateSpec<T>,
  fields: Record<string, unknown>,
  options: UpdateOptions,
  allowed?: ReadonlySet<string>,
): Promise<T> {
  const paths = updatePaths(label, spec.idField, fields, options, allowed, spec.maskNames);
  return t.request({
    method: spec.method,
    path: spec.path,
    json: { [spec.key]: fields, updateMask: paths.join(',') },
    retry: 'unsent',
    ...callSignal(options),
    parse: field(spec.key, spec.schema),
  });
}

/** CreateDataImportFromUpload: POST /api/v2/data-imports:upload → { uploadUrl, dataImportId }. */
function createImportFromUpload(
  t: Transport,
  document: ImportDocument,
  options: CallOptions = {},
): Promise<UploadTarget> {
  return t.request({
    method: 'POST',
    path: '/api/v2/data-imports:upload',
    json: withoutUrl(document),
    retry: 'unsent',
    ...callSignal(options),
    parse: field('', UploadTargetBody),
  });
}

/** Streams a file to the upload URL CreateDataImportFromUpload gave. */
async function uploadFile(
  t: Transport,
  uploadUrl: string,
  path: string,
  options: UploadOptions = {},
): Promise<void> {
  await t.request({
    method: 'POST',
    path: uploadUrl,
    body: () => fileBody(path, options),
    retry: 'unsent',
    signal: options.signal,
    timeoutMs: options.timeoutMs ?? 0,
    deadlineMs: 0,
    parse: () => undefined,
  });
}

/**
 * Streams a zip of the listed files of a folder (paths inside it, POSIX `/`) to the upload
 * URL: the body of a BatchConfig import, made as it is sent (a retry makes it again).
 */
async function uploadFolder(
  t: Transport,
  uploadUrl: string,
  folder: string,
  members: readonly string[],
  options: UploadOptions = {},
): Promise<void> {
  await t.request({
    method: 'POST',
    path: uploadUrl,
    body: () => zipBody(folder, members, options),
    retry: 'unsent',
    signal: options.signal,
    timeoutMs: options.timeoutMs ?? 0,
    deadlineMs: 0,
    parse: () => undefined,
  });
}

/** CreateDataImportFromUrl: POST /api/v2/data-imports:url → the new import's id. */
async function createImportFromUrl(
  t: Transport,
  url: string,
  document: ImportDocument,
  options: CallOptions = {},
): Promise<{ dataImportId: string }> {
  const body = await t.request({
    method: 'POST',
    path: '/api/v2/data-imports:url',
    json: { ...withoutUrl(document), url },
    retry: 'unsent',
    ...callSignal(options),
    parse: field('', UrlImportBody),
  });
  return { dataImportId: body.dataImportId };
}

/** GetDataImport: GET /api/v2/data-imports/{dataImportId}. */
function getDataImport(
  t: Transport,
  dataImportId: string,
  options: CallOptions = {},
): Promise<DataImport> {
  return t.request({
    method: 'GET',
    path: `/api/v2/data-imports/${enc(dataImportId)}`,
    retry: 'safe',
    ...callSignal(options),
    parse: field('dataImport', TolerantDataImport),
  });
}

/** ListDataImports, page by page: GET /api/v2/data-imports?pageSize&pageToken&filter&orderBy. */
async function* listDataImports(
  t: Transport,
  options: ListDataImportsOptions = {},
): AsyncGenerator<DataImportPage> {
  let pageToken = options.pageToken;
  do {
    const query: Record<string, QueryValue> = {
      pageSize: options.pageSize,
      pageToken,
      filter: options.filter,
      orderBy: options.orderBy,
    };
    const body = await t.request({
      method: 'GET',
      path: '/api/v2/data-imports',
      query,
      retry: 'safe',
      ...callSignal(options),
      parse: field('', ListBody),
    });
    const page: DataImportPage = { dataImports: body.dataImports ?? [] };
    if (body.nextPageToken) page.nextPageToken = body.nextPageToken;
    yield page;
    pageToken = body.nextPageToken || undefined;
  } while (pageToken);
}

/** RetryDataImport: POST /api/v2/data-imports/{dataImportId}:retry (failed URL imports only). */
async function retryDataImport(
  t: Transport,
  dataImportId: string,
  options: CallOptions = {},
): Promise<void> {
  await t.request({
    method: 'POST',
    path: `/api/v2/data-imports/${enc(dataImportId)}:retry`,
    json: {},
    retry: 'unsent',
    ...callSignal(options),
    parse: () => undefined,
  });
}

/** DetectConfig: POST /api/v2/data-imports:detect-config with the first bytes of a file. */
function detectConfig(
  t: Transport,
  bytes: Uint8Array,
  type: DataTypeKey,
  options: CallOptions = {},
): Promise<DetectedConfig> {
  return t.request({
    method: 'POST',
    path: '/api/v2/data-imports:detect-config',
    json: {
      data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
      type,
    },
    retry: 'safe',
    ...callSignal(options),
    parse: field('', DetectBody) as (b: unknown, p: RequestPlace) => DetectedConfig,
  });
}

/** UpdateView: PATCH /api/v1/views/{viewId}. */
function updateView(t: Transport, fields: ViewUpdate, options: UpdateOptions = {}): Promise<View> {
  return sendUpdate(
    t,
    'updateView',
    {
      method: 'PATCH',
      path: `/api/v1/views/${enc(fields.viewId)}`,
      key: 'view',
      idField: 'viewId',
      schema: View,
    },
    fields,
    options,
  );
}

/** ApiKeyOrganization: GET /api/v2/api-keys/organization. */
function getApiKeyOrganization(t: Transport, options: CallOptions = {}): Promise<Organization> {
  return t.request({
    method: 'GET',
    path: '/api/v2/api-keys/organization',
    retry: 'safe',
    ...callSignal(options),
    parse: field('organization', Organization),
  });
}

/**
 * UpdateRun: PATCH /api/v2/runs. Refuses, before sending, any field the reference does
 * not allow in the run's mask (name, description, start_time, stop_time, is_pinned,
 * client_key, tags, is_archived, metadata).
 */
function updateRun(t: Transport, fields: RunUpdate, options: UpdateOptions = {}): Promise<Run> {
  return sendUpdate(
    t,
    'updateRun',
    { method: 'PATCH', path: '/api/v2/runs', key: 'run', idField: 'runId', schema: Run },
    fields,
    options,
    RUN_MASK,
  );
}

/** UpdateChannel: PATCH /api/v3/channels. */
function updateChannel(
  t: Transport,
  fields: ChannelUpdate,
  options: UpdateOptions = {},
): Promise<Channel> {
  return sendUpdate(
    t,
    'updateChannel',
    {
      method: 'PATCH',
      path: '/api/v3/channels',
      key: 'channel',
      idField: 'channelId',
      schema: Channel,
      // The proto's UpdateChannel mask names the display unit `display_units`.
      maskNames: { display_unit_id: 'display_units' },
    },
    fields,
    options,
  );
}

/** GetUserDefinedFunctionVersions: GET /api/v1/user-defined-functions/versions; query passed through. */
function getUserDefinedFunctionVersions(
  t: Transport,
  query: Record<string, QueryValue> = {},
  options: CallOptions = {},
): Promise<UserDefinedFunctionVersion[]> {
  return t.request({
    method: 'GET',
    path: '/api/v1/user-defined-functions/versions',
    query,
    retry: 'safe',
    ...callSignal(options),
    parse: (body, place) =>
      typeof body === 'object' && body !== null && !('userDefinedFunctions' in body)
        ? []
        : field('userDefinedFunctions', z.array(UserDefinedFunctionVersion))(body, place),
  });
}

/** GetAsset: GET /api/v1/assets/{assetId}. */
function getAsset(t: Transport, assetId: string, options: CallOptions = {}): Promise<Asset> {
  return t.request({
    method: 'GET',
    path: `/api/v1/assets/${enc(assetId)}`,
    retry: 'safe',
    ...callSignal(options),
    parse: field('asset', Asset),
  });
}

/** UpdateSavedSearch: PATCH /api/v1/saved_searches. */
function updateSavedSearch(
  t: Transport,
  fields: SavedSearchUpdate,
  options: UpdateOptions = {},
): Promise<SavedSearch> {
  return sendUpdate(
    t,
    'updateSavedSearch',
    {
      method: 'PATCH',
      path: '/api/v1/saved_searches',
      key: 'savedSearch',
      idField: 'savedSearchId',
      schema: SavedSearch,
    },
    fields,
    options,
  );
}

/** Binds an operation to its transport: `op(t, ...args)` becomes `(...args)`. */
function bound<A extends unknown[], R>(t: Transport, op: (t: Transport, ...args: A) => R) {
  return (...args: A): R => op(t, ...args);
}

/** The operations over one transport, each documented where it is defined above. */
export function createOperations(t: Transport) {
  return {
    createImportFromUpload: bound(t, createImportFromUpload),
    uploadFile: bound(t, uploadFile),
    uploadFolder: bound(t, uploadFolder),
    createImportFromUrl: bound(t, createImportFromUrl),
    getDataImport: bound(t, getDataImport),
    listDataImports: bound(t, listDataImports),
    retryDataImport: bound(t, retryDataImport),
    detectConfig: bound(t, detectConfig),
    updateView: bound(t, updateView),
    getApiKeyOrganization: bound(t, getApiKeyOrganization),
    updateRun: bound(t, updateRun),
    updateChannel: bound(t, updateChannel),
    getUserDefinedFunctionVersions: bound(t, getUserDefinedFunctionVersions),
    getAsset: bound(t, getAsset),
    updateSavedSearch: bound(t, updateSavedSearch),
  };
}

export type Operations = ReturnType<typeof createOperations>;
