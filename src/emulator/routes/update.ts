/**
 * The one PATCH handler: read `{ <key>: resource, updateMask }`, find the caller's resource,
 * apply the masked fields, stamp, save, answer the resource. What differs per resource
 * (views, runs, channels, saved searches) is a row: an UpdateSpec in the resource's file.
 */
import type { z } from 'zod';
import { toCamelPath } from '../../model/plain.js';
import { commit, type EmulatorContext, noteDropped, owned, stamp, undoOf } from '../context.js';
import { invalid, readJson, requiredId } from '../http.js';
import { readMessage } from '../proto-read.js';
import { messageOf, updateBodyMessage } from '../proto-shape.js';
import { writeMessage } from '../proto-write.js';
import type { Owned, Table } from '../store-state.js';
import type { Route, RouteCall } from './table.js';

export interface UpdateSpec {
  /** The operation's name in the reference (`UpdateRun`), for messages and the log. */
  operation: string;
  path: string | RegExp;
  /** The body's field holding the resource (`view`, `savedSearch`), also its answer's. */
  key: string;
  schema: z.ZodType;
  /** How messages name the resource (`saved search`). */
  what: string;
  /** The resource's table in the state. */
  table: Exclude<Table, 'imports'>;
  /** The body field holding the id; without it, the id is the path's capture. */
  idField?: string;
  /** The update-mask paths that can be updated (snake_case). */
  fields: readonly string[];
  /** A mask path that names a field by another name (`display_units` → `displayUnitId`). */
  fieldOf?: Readonly<Record<string, string>>;
  /** Checks or side effects of one masked path, before any field is applied. */
  onField?: (
    target: Record<string, unknown>,
    path: string,
    value: unknown,
    id: string,
    ctx: EmulatorContext,
  ) => void;
}

export function updateRoute(spec: UpdateSpec): Route {
  return { method: 'PATCH', path: spec.path, handler: (call, ctx) => update(spec, call, ctx) };
}

async function update(spec: UpdateSpec, call: RouteCall, ctx: EmulatorContext) {
  const read = readMessage(updateBodyMessage(spec.key, spec.schema), await readJson(call.req));
  noteDropped(ctx, spec.operation, read.dropped);
  const body = read.value;
  const patch = (body[spec.key] ?? {}) as Record<string, unknown>;
  const id =
    spec.idField === undefined ? (call.params[0] ?? '') : requiredId(patch, spec.idField, spec.key);
  const table = ctx.store.data[spec.table] as Record<string, Owned<unknown>>;
  const target = owned(table, id, call.orgId, spec.what).value as Record<string, unknown>;
  const undo = undoOf(target);
  applyMask(target, patch, body.updateMask as string | undefined, spec, (p, v) =>
    spec.onField?.(target, p, v, id, ctx),
  );
  stamp(ctx, target, call.userId);
  ctx.store.touch(spec.table, id);
  await commit(ctx, undo);
  return { [spec.key]: writeMessage(messageOf(spec.schema), target) };
}

/**
 * Applies `mask` (snake_case paths, as the reader normalised them) field by field; a path
 * the resource does not allow is code 3. A masked field without a value is reset: it is
 * answered with its default, as the platform answers an unset field.
 */
function applyMask(
  target: Record<string, unknown>,
  patch: Record<string, unknown>,
  mask: string | undefined,
  spec: UpdateSpec,
  special: (path: string, value: unknown) => void,
) {
  const allowed = spec.fields;
  const paths = (mask ?? '').split(',').filter(Boolean);
  if (paths.length === 0)
    throw invalid(`updateMask is required: name the ${spec.what} fields to update`, 'update_mask');
  const unknown = paths.filter((p) => !allowed.includes(p));
  if (unknown.length > 0) {
    throw invalid(
      `updateMask names ${unknown.map((p) => `'${p}'`).join(', ')}, which cannot be updated on a ${spec.what} (allowed: ${allowed.join(', ')})`,
      'update_mask',
    );
  }
  const keyOf = (p: string) => spec.fieldOf?.[p] ?? toCamelPath(p);
  for (const p of paths) special(p, patch[keyOf(p)]);
  for (const p of paths) {
    const key = keyOf(p);
    const value = patch[key];
    if (value === undefined) delete target[key];
    else target[key] = value;
  }
}
