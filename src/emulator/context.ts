/**
 * What a route is given: the emulator's state and settings in one small object (no route
 * reaches into the server's closure), and the helpers that change the state safely.
 */
import { createHash } from 'node:crypto';
import { invalid, notFound } from './http.js';
import { runImport } from './imports.js';
import type { Dropped } from './proto-read.js';
import type { Store } from './store.js';
import type { ImportRecord, Owned } from './store-state.js';

export interface KeyOrganization {
  organizationId: string;
  organizationName: string;
}

export interface EmulatorContext {
  store: Store;
  /** The base URL clients use (known once the server listens). */
  baseUrl: string;
  uploadsDir: string;
  now: () => string;
  newId: () => string;
  stepDelayMs: number;
  fetchTimeoutMs: number;
  /** The largest file an upload may hold, after gzip decompression. */
  maxUploadBytes: number;
  /** Imports under way (see `startImport`). */
  running: Set<Promise<void>>;
  /** Imports whose file is arriving right now (a second upload meanwhile is refused). */
  uploading: Set<string>;
  /** Refuse (400, or FAILED for a config) what the platform would silently drop. */
  strict: boolean;
  /** The emulator's log: one line each, for what an answer does not show. */
  log: (line: string) => void;
  /** URL prefix → local folder: URL imports of these addresses read the folder. */
  urlMap: ReadonlyArray<readonly [string, string]>;
}

/**
 * What the gateway dropped from a request (unknown fields, unknown enum names): each named
 * in the log, as the platform drops it; in strict mode, a 400 naming them instead.
 */
export function noteDropped(ctx: EmulatorContext, operation: string, dropped: Dropped[]): void {
  if (dropped.length === 0) return;
  const list = dropped.map((d) => `${d.path} (${d.why})`).join(', ');
  if (ctx.strict) {
    throw invalid(
      `${operation}: the platform would silently drop ${list}; refused in strict mode`,
      dropped[0]?.path,
    );
  }
  for (const d of dropped)
    ctx.log(`${operation}: dropped ${d.path}, ${d.why}, as the platform does`);
}

/** A stable UUID-shaped id from its parts (same parts, same id, across restarts). */
export function stableId(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\0')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** Runs an import in the background; `ctx.running` holds it until it ends. */
export function startImport(ctx: EmulatorContext, rec: ImportRecord): void {
  // runImport never throws; should it, the import alone is lost, never the process.
  const p = runImport(rec, ctx)
    .catch(() => {})
    .finally(() => ctx.running.delete(p));
  ctx.running.add(p);
}

/**
 * Persists a request's change. When that fails, `undo` takes the change back before the
 * request fails, so the store holds only what was saved and later writes are unaffected.
 */
export async function commit(
  ctx: EmulatorContext,
  undo: () => void | Promise<void>,
): Promise<void> {
  try {
    await ctx.store.save();
  } catch (err) {
    await undo();
    throw err;
  }
}

/** An undo for a change to `target`'s fields: puts back a copy taken now. */
export function undoOf(target: Record<string, unknown>): () => void {
  const before = structuredClone(target);
  return () => {
    for (const key of Object.keys(target)) delete target[key];
    Object.assign(target, before);
  };
}

/** The resource `id` of `table` when it belongs to `orgId`, else a 404 naming `what`. */
export function owned<T>(
  table: Record<string, Owned<T>>,
  id: string,
  orgId: string,
  what: string,
): Owned<T> {
  const found = Object.hasOwn(table, id) ? table[id] : undefined;
  if (!found || found.orgId !== orgId) throw notFound(what, id);
  return found;
}

/** Marks `target` as changed now by `userId`. */
export function stamp(
  ctx: EmulatorContext,
  target: { modifiedDate?: string; modifiedByUserId?: string },
  userId: string,
): void {
  target.modifiedDate = ctx.now();
  target.modifiedByUserId = userId;
}
