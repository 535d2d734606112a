/**
 * The import flow of the emulator: PENDING → IN_PROGRESS → SUCCEEDED or FAILED. It uses
 * importkit's own validator and inspectors, never rules of its own: the document is
 * validated, the file is inspected where an inspector exists for its kind, and every
 * column, path or dataset the config names must be in that profile.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import {
  type BaseProfile,
  formatOfConfigKey,
  InspectError,
  inspectFile,
  type NamedColumn,
} from '../inspect/index.js';
import {
  type BatchConfig,
  type Channel,
  configKeysOf,
  type ImportDocument,
  kindOfKey,
  pushAll,
} from '../model/index.js';
import type { Issue } from '../model/plain.js';
import { channelsOf } from './config-facts.js';
import { MAX_STRING_BYTES } from './http.js';
import type { Store } from './store.js';
import type { ImportRecord } from './store-state.js';

export interface ImportContext {
  store: Store;
  uploadsDir: string;
  now: () => string;
  newId: () => string;
  /** Waits between the steps of the flow, so a poller can see them (default 0). */
  stepDelayMs: number;
  /** How long fetching a URL import's file may take, redirects included. */
  fetchTimeoutMs: number;
  /** The emulator's log (an import's warnings go there: the DataImport has no field for them). */
  log: (line: string) => void;
  /** URL prefix → local folder, for URL imports of addresses the emulator does not fetch. */
  urlMap: ReadonlyArray<readonly [string, string]>;
}

class ImportFailure extends Error {}

function fail(message: string): never {
  throw new ImportFailure(message);
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs one import to its end; never throws (a failure is the FAILED state). */
export async function runImport(rec: ImportRecord, ctx: ImportContext): Promise<void> {
  const di = rec.dataImport;
  try {
    if (ctx.stepDelayMs > 0) await wait(ctx.stepDelayMs);
    setStatus(rec, 'DATA_IMPORT_STATUS_IN_PROGRESS', ctx);
    await ctx.store.save();
    if (ctx.stepDelayMs > 0) await wait(ctx.stepDelayMs);
    const warnings = await process(rec, ctx);
    for (const w of boundedWarnings(warnings))
      ctx.log(`data import ${di.dataImportId}: warning: ${w}`);
    delete di.errorMessage;
    setStatus(rec, 'DATA_IMPORT_STATUS_SUCCEEDED', ctx);
  } catch (err) {
    di.errorMessage = clipText(
      err instanceof ImportFailure
        ? err.message
        : `internal error: ${(err as Error)?.message ?? String(err)}`,
    );
    setStatus(rec, 'DATA_IMPORT_STATUS_FAILED', ctx);
  }
  try {
    await ctx.store.save();
  } catch {
    // The state stays in memory; the next write that succeeds carries it.
  }
}

/** Warnings kept on a DataImport: the first MAX_WARNINGS, each clipped, then how many more. */
const MAX_WARNINGS = 100;

function boundedWarnings(warnings: readonly string[]): string[] {
  const kept = warnings.slice(0, MAX_WARNINGS).map((w) => clipText(w));
  const more = warnings.length - kept.length;
  return more > 0 ? [...kept, `and ${more} more warning${more === 1 ? '' : 's'}`] : kept;
}

/** A message the emulator stores, at most MAX_STRING_BYTES long (cut with '…'). */
function clipText(text: string): string {
  if (Buffer.byteLength(text) <= MAX_STRING_BYTES) return text;
  // A character cut in two decodes as U+FFFD at the end: dropped.
  const head = Buffer.from(text)
    .subarray(0, MAX_STRING_BYTES - 3)
    .toString('utf8');
  return `${head.replace(/\uFFFD$/, '')}…`;
}

function setStatus(rec: ImportRecord, status: string, ctx: ImportContext): void {
  rec.dataImport.status = status;
  rec.dataImport.modifiedDate = ctx.now();
  ctx.store.touch('imports', rec.dataImport.dataImportId ?? '');
}

/** The first errors of `issues`, each with its place, in one line. */
export function describeIssues(issues: readonly Issue[]): string {
  const errors = issues.filter((i) => i.severity === 'error');
  const shown = errors.slice(0, 3).map((i) => (i.path ? `${i.message} (at ${i.path})` : i.message));
  const more = errors.length > 3 ? `; and ${errors.length - 3} more` : '';
  return `${shown.join('; ')}${more}`;
}

async function process(rec: ImportRecord, ctx: ImportContext): Promise<string[]> {
  const warnings: string[] = [];
  if (rec.refusal !== undefined) fail(rec.refusal);
  const { url: _url, ...configs } = rec.document;
  // Loaded here, with the first import, so the server starts without it.
  const { validateConfig } = await import('../validate/index.js');
  const result = validateConfig(configs);
  if (!result.ok) fail(`invalid config: ${describeIssues(result.issues)}`);
  for (const i of result.issues) if (i.severity === 'warning') warnings.push(i.message);

  const key = configKeysOf(configs).find((k) => configs[k] !== undefined);
  if (!key) fail('invalid config: no config in the document');
  const kind = kindOfKey(key);
  const canonical = result.value as Record<string, unknown> | undefined;
  const config = (canonical?.[key] ?? configs[key]) as Record<string, unknown>;

  if (rec.source === 'url') await fetchSource(rec, ctx);
  if (!rec.filePath) fail('no file was uploaded');

  const file = rec.filePath;
  const hidePath = (text: string) => text.split(file).join(rec.fileName ?? 'the file');
  if (kind === 'batch') {
    pushAll(warnings, await checkBatchUpload(file, config, hidePath));
    createResources(rec, config, 'batch', ctx);
    return warnings;
  }
  // The library's own check (the one `importkit check` runs) decides whether the file fits.
  let checked: Issue[] | undefined;
  try {
    const { checkConfig } = await import('../check/index.js');
    checked = await checkConfig(result.value as ImportDocument, file);
  } catch (err) {
    if (err instanceof InspectError) fail(`cannot read the file: ${hidePath(err.message)}`);
    checked = undefined;
  }
  if (checked) {
    const errors = checked.filter((i) => i.severity === 'error');
    if (errors.length > 0) fail(hidePath(describeIssues(errors)));
    for (const i of checked) if (i.severity === 'warning') warnings.push(hidePath(i.message));
  }
  const entry = formatOfConfigKey(key);
  const facts = await entry?.facts?.();
  if (entry && facts?.timeRange) {
    // A format whose profile says when its data starts and stops (column statistics, the
    // sampled rows of a dataset, the time packets).
    let profile: BaseProfile;
    try {
      profile = await inspectFile(file);
    } catch (err) {
      fail(`cannot read the file: ${hidePath((err as Error).message)}`);
    }
    if (!checked) {
      // The check stage could not run for this kind: at least every named column must exist.
      if (entry.id !== profile.format) {
        fail(`the file is ${profile.format.toUpperCase()}, but the config is a ${key}`);
      }
      const missing = missingColumns(facts.columnsNamed?.(config) ?? [], profile);
      if (missing.length > 0) fail(missing.join('; '));
    }
    const times = facts.timeRange(config, profile);
    if (times.start) rec.dataImport.dataStartTime = times.start;
    if (times.stop) rec.dataImport.dataStopTime = times.stop;
  } else if (checked) {
    const times = await rowsTimeRange(result.value as ImportDocument, file);
    if (times.start) rec.dataImport.dataStartTime = times.start;
    if (times.stop) rec.dataImport.dataStopTime = times.stop;
  } else {
    warnings.push(
      `the emulator does not read ${kind?.toUpperCase() ?? key} files: the file was not checked`,
    );
  }
  createResources(rec, config, kind ?? 'csv', ctx);
  return warnings;
}

/**
 * dataStartTime / dataStopTime of a format whose profile gives none (TDMS, ULog): the
 * earliest and latest row time of the rows the format's row reader samples (the one
 * `importkit preview` draws: the head and the tail of each time axis, and slices between).
 * Nothing for relative times without a start (they would count from 1970), or rows that
 * cannot be read.
 */
async function rowsTimeRange(
  document: ImportDocument,
  file: string,
): Promise<{ start?: string; stop?: string }> {
  const { readConfigRows } = await import('../check/index.js');
  const rows = await readConfigRows(document, file).catch(() => undefined);
  if (!rows) return {};
  if (rows.timeFormat?.startsWith('TIME_FORMAT_RELATIVE_') && !rows.relativeStartTime) return {};
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  const read = await rows
    .read((batch) => {
      for (let i = 0; i < batch.length; i++) {
        const t = batch.times[i] ?? Number.NaN;
        if (t < lo) lo = t;
        if (t > hi) hi = t;
      }
    })
    .catch(() => undefined);
  if (!read || !Number.isFinite(lo) || !Number.isFinite(hi)) return {};
  if (Math.abs(lo) > 8.64e15 || Math.abs(hi) > 8.64e15) return {};
  return { start: new Date(lo).toISOString(), stop: new Date(hi).toISOString() };
}

/** A batch: the archive's listed members unpacked and checked; the warnings, or FAILED. */
async function checkBatchUpload(
  file: string,
  config: Record<string, unknown>,
  hidePath: (text: string) => string,
): Promise<string[]> {
  const { importBatch } = await import('./batch.js');
  const outcome = await importBatch(file, config as BatchConfig);
  if (outcome.failure !== undefined) fail(hidePath(outcome.failure));
  return outcome.warnings.map(hidePath);
}

/** Each named column that the profile lacks, as a message naming it. */
function missingColumns(named: readonly NamedColumn[], profile: BaseProfile): string[] {
  const out: string[] = [];
  const columns = profile.fields.map((f) => f.column).filter((c): c is number => c !== undefined);
  // A loop, not Math.max(...columns): a data-sized array spread into a call overflows the stack.
  const maxColumn =
    columns.length > 0 ? columns.reduce((a, b) => (b > a ? b : a)) : profile.fields.length;
  const names = new Set<string>();
  for (const f of profile.fields) {
    for (const n of [f.name, f.path]) {
      if (n === undefined) continue;
      names.add(n);
      names.add(n.replace(/^\//, ''));
    }
  }
  for (const c of named) {
    if (c.column !== undefined) {
      if (c.column < 1 || c.column > maxColumn) {
        out.push(
          `column ${c.column} (${c.where}) is not in the file: it has ${maxColumn} column${maxColumn === 1 ? '' : 's'}`,
        );
      }
    } else if (
      c.name !== undefined &&
      !names.has(c.name) &&
      !names.has(c.name.replace(/^\//, ''))
    ) {
      out.push(`column '${c.name}' (${c.where}) is not in the file`);
    }
  }
  return out;
}

/** Addresses a URL import may fetch from: http on this machine only. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
/** Redirects followed, each checked like the first address. */
const MAX_REDIRECTS = 5;

/** The URL to fetch, when the emulator may fetch it; else the import fails saying why. */
function allowedUrl(text: string, asked: string): URL {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    fail(`cannot fetch '${asked}': '${text}' is not a URL`);
  }
  if (u.protocol !== 'http:' || !LOOPBACK_HOSTS.has(u.hostname)) {
    const via = text === asked ? '' : ` (redirected to '${text}')`;
    fail(
      `cannot fetch '${asked}'${via}: the emulator fetches only http addresses on this machine (127.0.0.1, localhost, [::1]); map other addresses to a local folder with --url-map PREFIX=FOLDER`,
    );
  }
  return u;
}

/** Fetches `asked`, following redirects by hand so that every hop is checked. */
async function fetchChecked(asked: string, signal: AbortSignal): Promise<Response> {
  let u = allowedUrl(asked, asked);
  for (let hop = 0; ; hop++) {
    let response: Response;
    try {
      response = await fetch(u, { signal, redirect: 'manual' });
    } catch (err) {
      fail(`cannot fetch '${asked}': ${(err as Error).message}`);
    }
    const location = response.headers.get('location');
    if (response.status < 300 || response.status > 399 || location === null) return response;
    await response.body?.cancel();
    if (hop >= MAX_REDIRECTS) fail(`cannot fetch '${asked}': more than ${MAX_REDIRECTS} redirects`);
    u = allowedUrl(new URL(location, u).toString(), asked);
  }
}

/** The name a fetched file is stored under: the URL's last segment, made safe. */
export function fetchedName(u: URL): string {
  const last = u.pathname.split('/').pop() ?? '';
  let name: string;
  try {
    name = decodeURIComponent(last);
  } catch {
    name = last;
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
  name = name.replace(/[/\\\u0000-\u001f\u007f]/g, '_').slice(0, 200);
  return name === '' || name === '.' || name === '..' ? 'download' : name;
}

/**
 * The local file a mapped URL names (`https://bucket.example/a/b.csv` with the prefix
 * `https://bucket.example/` mapped to `./data` → `./data/a/b.csv`); undefined when no
 * prefix maps it. A path that leaves the folder fails the import.
 */
function mappedFile(url: string, map: ImportContext['urlMap']): string | undefined {
  const entry = map.find(([prefix]) => url.startsWith(prefix));
  if (!entry) return undefined;
  const [prefix, folder] = entry;
  let rest: string;
  try {
    rest = decodeURIComponent(url.slice(prefix.length).replace(/[?#].*$/, ''));
  } catch {
    fail(`cannot fetch '${url}': its path holds a malformed percent-encoding`);
  }
  const root = resolve(folder);
  const file = resolve(root, rest);
  const inside = relative(root, file);
  if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..' || rest.includes('\0'))
    fail(`cannot fetch '${url}': its path leaves the folder it is mapped to`);
  return file;
}

/** A mapped URL's file, copied into the uploads folder as a download would be. */
async function copyMapped(rec: ImportRecord, ctx: ImportContext, url: string, file: string) {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) fail(`cannot fetch '${url}': HTTP 404 (no file at the mapped path)`);
  const dir = join(ctx.uploadsDir, rec.dataImport.dataImportId ?? 'unknown');
  const name = fetchedName(new URL(url));
  const path = join(dir, name);
  await mkdir(dir, { recursive: true });
  await pipeline(createReadStream(file), createWriteStream(path));
  rec.filePath = path;
  rec.fileName = name;
}

/**
 * URL imports: an address under a mapped prefix reads its local folder; otherwise http on
 * loopback only, fetched into the uploads folder; anything else fails.
 */
async function fetchSource(rec: ImportRecord, ctx: ImportContext): Promise<void> {
  const url = rec.dataImport.sourceUrl ?? '';
  const mapped = mappedFile(url, ctx.urlMap);
  if (mapped !== undefined) return copyMapped(rec, ctx, url, mapped);
  const signal = AbortSignal.timeout(ctx.fetchTimeoutMs);
  const response = await fetchChecked(url, signal);
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    fail(`cannot fetch '${url}': HTTP ${response.status}`);
  }
  const dir = join(ctx.uploadsDir, rec.dataImport.dataImportId ?? 'unknown');
  const name = fetchedName(new URL(response.url || url));
  const path = join(dir, name);
  // The body is consumed or destroyed on every path: one left unread errors later, unheard.
  const source = Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>);
  source.on('error', () => {});
  try {
    await mkdir(dir, { recursive: true });
    await pipeline(source, createWriteStream(path));
  } catch (err) {
    source.destroy();
    await rm(path, { force: true }).catch(() => {});
    const errno = (err as NodeJS.ErrnoException).code;
    fail(`cannot fetch '${url}': the download failed${errno ? ` (${errno})` : ''}`);
  }
  rec.filePath = path;
  rec.fileName = name;
}

/** The asset, run and channels the config names, created (or found) in the organization. */
function createResources(
  rec: ImportRecord,
  config: Record<string, unknown>,
  kind: string,
  ctx: ImportContext,
): void {
  const now = ctx.now();
  const owner: Owner = {
    org: rec.orgId,
    now,
    stamp: {
      createdDate: now,
      modifiedDate: now,
      createdByUserId: rec.userId,
      modifiedByUserId: rec.userId,
    },
  };
  const assetName = typeof config.assetName === 'string' ? config.assetName : undefined;
  const assetId = assetName ? findOrCreateAsset(assetName, owner, ctx) : undefined;
  if (assetId) rec.dataImport.assetId = assetId;
  const runId = typeof config.runId === 'string' ? config.runId : undefined;
  const runName = typeof config.runName === 'string' ? config.runName : undefined;
  if (runId) rec.dataImport.runId = extendRun(runId, assetId, rec, owner, ctx);
  else if (runName) rec.dataImport.runId = createRun(runName, assetId, rec, owner, ctx);
  if (assetId) createChannels(assetId, kind, config, owner, ctx);
}

/** Who creates the resources of one import, and when. */
interface Owner {
  org: string;
  now: string;
  stamp: {
    createdDate: string;
    modifiedDate: string;
    createdByUserId: string;
    modifiedByUserId: string;
  };
}

/** The id of the organization's asset of that name, created when there is none. */
function findOrCreateAsset(name: string, owner: Owner, ctx: ImportContext): string {
  const s = ctx.store.data;
  const found = Object.values(s.assets).find((a) => a.orgId === owner.org && a.value.name === name);
  if (found?.value.assetId) return found.value.assetId;
  const assetId = ctx.newId();
  s.assets[assetId] = {
    orgId: owner.org,
    value: {
      assetId,
      name,
      organizationId: owner.org,
      tags: [],
      metadata: [],
      isArchived: false,
      ...owner.stamp,
    },
  };
  ctx.store.touch('assets', assetId);
  return assetId;
}

/** An existing run the import adds to: it gains the asset and the data's time range. */
function extendRun(
  runId: string,
  assetId: string | undefined,
  rec: ImportRecord,
  owner: Owner,
  ctx: ImportContext,
): string {
  const run = ctx.store.data.runs[runId];
  if (!run || run.orgId !== owner.org) fail(`run ${runId} not found`);
  const start = rec.dataImport.dataStartTime;
  if (assetId && !run.value.assetIds?.includes(assetId))
    run.value.assetIds = [...(run.value.assetIds ?? []), assetId];
  // A later ingestion overwrites the run's start time with the start of its data (UpdateRun's
  // rule 3, which names start_time only: the stop time is left as it is).
  if (start) run.value.startTime = start;
  run.value.modifiedDate = owner.now;
  ctx.store.touch('runs', runId);
  return runId;
}

/** A new run of that name over the data's time range. */
function createRun(
  runName: string,
  assetId: string | undefined,
  rec: ImportRecord,
  owner: Owner,
  ctx: ImportContext,
): string {
  const start = rec.dataImport.dataStartTime;
  const stop = rec.dataImport.dataStopTime;
  const id = ctx.newId();
  ctx.store.data.runs[id] = {
    orgId: owner.org,
    value: {
      runId: id,
      name: runName,
      organizationId: owner.org,
      assetIds: assetId ? [assetId] : [],
      tags: [],
      metadata: [],
      isPinned: false,
      isArchived: false,
      isAdhoc: false,
      ...(start ? { startTime: start } : {}),
      ...(stop ? { stopTime: stop } : {}),
      ...owner.stamp,
    },
  };
  ctx.store.touch('runs', id);
  return id;
}

/** The channels the config declares that the asset does not have yet. */
function createChannels(
  assetId: string,
  kind: string,
  config: Record<string, unknown>,
  owner: Owner,
  ctx: ImportContext,
): void {
  const s = ctx.store.data;
  for (const c of channelsOf(kind, config)) {
    const exists = Object.values(s.channels).some(
      (ch) => ch.orgId === owner.org && ch.value.assetId === assetId && ch.value.name === c.name,
    );
    if (exists) continue;
    const channelId = ctx.newId();
    const channel: Channel = {
      channelId,
      name: c.name,
      assetId,
      description: c.description ?? '',
      unitId: c.units ?? '',
      dataType: c.dataType ?? 'CHANNEL_DATA_TYPE_DOUBLE',
      metadata: [],
      enumTypes: c.enumTypes ?? [],
      bitFieldElements: c.bitFieldElements ?? [],
      displayDescription: '',
      displayUnitId: '',
      active: true,
      ...owner.stamp,
    };
    s.channels[channelId] = { orgId: owner.org, value: channel };
    ctx.store.touch('channels', channelId);
  }
}
