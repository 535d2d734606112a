/**
 * The one PATCH handler: read `{ <key>: resource, updateMask }`, find the caller's resource,
 * apply the masked fields, stamp, save, answer the resource. What differs per resource
 * (views, runs, channels, saved searches) is a row: an UpdateSpec in the resource's file.
 */
import { z } from 'zod';
import { toCamelPath } from '../../model/plain.js';
import { commit, type EmulatorContext, owned, stamp, undoOf } from '../context.js';
import { invalid, parseBody, readJson, requiredId } from '../http.js';
import type { Owned, Table } from '../store.js';
import type { Route, RouteCall } from './table.js';

export interface UpdateSpec {
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
  /** Checks or side effects of one masked path, before any field is applied. */
  onField?: (
    target: Record<string, unknown>,
    path: string,
    value: unknown,
    id: string,
    ctx: EmulatorContext,
  ) => void;
}

const UpdateBody = (key: string, schema: z.ZodType) =>
  z.looseObject({ [key]: schema, updateMask: z.string().optional() });

export function updateRoute(spec: UpdateSpec): Route {
  return { method: 'PATCH', path: spec.path, handler: (call, ctx) => update(spec, call, ctx) };
}

async function update(spec: UpdateSpec, call: RouteCall, ctx: EmulatorContext) {
  const body = parseBody(UpdateBody(spec.key, spec.schema), await readJson(call.req));
  const patch = body[spec.key] as Record<string, unknown>;
  const id =
    spec.idField === undefined ? (call.params[0] ?? '') : requiredId(patch, spec.idField, spec.key);
  const table = ctx.store.data[spec.table] as Record<string, Owned<unknown>>;
  const target = owned(table, id, call.orgId, spec.what).value as Record<string, unknown>;
  const undo = undoOf(target);
  applyMask(target, patch, body.updateMask as string | undefined, spec.fields, spec.what, (p, v) =>
    spec.onField?.(target, p, v, id, ctx),
  );
  stamp(ctx, target, call.userId);
  ctx.store.touch(spec.table, id);
  await commit(ctx, undo);
  return { [spec.key]: spec.schema.parse(target) };
}

/** Applies `mask` field by field; unknown fields are code 3. */
function applyMask(
  target: Record<string, unknown>,
  patch: Record<string, unknown>,
  mask: string | undefined,
  allowed: readonly string[],
  what: string,
  special: (path: string, value: unknown) => void,
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
