/**
 * The canonical order of a config's keys: an object's keys in the field order of its zod
 * object (the reference's order; keys the schema does not know after them), a record keyed
 * by column numbers in ascending numbers. `fmt` puts the keys of a config file in this
 * order, and `infer` returns its drafts in it: one order, so a draft is canonical as written.
 */
import type { z } from 'zod';
import { ImportDocument } from './document.js';

type Schema = z.ZodType;

/** What a walk over a config reads of a zod schema's definition. */
export interface SchemaDef {
  type: string;
  innerType?: Schema;
  shape?: Record<string, Schema>;
  element?: Schema;
  valueType?: Schema;
  entries?: Record<string, string>;
}

function defOf(schema: Schema): SchemaDef {
  return (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;
}

/** A zod schema without its optional, nullable and default wrappers. */
export function unwrapSchema(schema: Schema): Schema {
  let s = schema;
  for (;;) {
    const d = defOf(s);
    if ((d.type === 'optional' || d.type === 'nullable' || d.type === 'default') && d.innerType)
      s = d.innerType;
    else return s;
  }
}

/** The definition of a zod schema, its wrappers taken off. */
export function schemaDef(schema: Schema): SchemaDef {
  return defOf(unwrapSchema(schema));
}

/**
 * The places of a map's keys in canonical order: `order[i]` is the index in `keys` of the
 * key that goes i-th. Stable: keys of the same rank (unknown ones, a record's names) keep
 * their order.
 */
export function canonicalKeyOrder(
  def: SchemaDef,
  keys: ReadonlyArray<string | undefined>,
): number[] {
  const rank = rankOf(def, keys);
  return keys
    .map((_, i) => i)
    .sort((a, b) => (rank ? (rank[a] as number) - (rank[b] as number) : 0) || a - b);
}

function rankOf(def: SchemaDef, keys: ReadonlyArray<string | undefined>): number[] | undefined {
  if (def.type === 'object' && def.shape) {
    const names = Object.keys(def.shape);
    return keys.map((k) => {
      const i = k === undefined ? -1 : names.indexOf(k);
      return i === -1 ? names.length : i;
    });
  }
  if (def.type === 'record' && keys.every((k) => k !== undefined && /^\d+$/.test(k)))
    return keys.map(Number);
  return undefined;
}

/** The schema of the value under `key` of an object or a record, when the schema knows it. */
export function childSchema(def: SchemaDef, key: string): Schema | undefined {
  if (def.type === 'object')
    return def.shape && Object.hasOwn(def.shape, key) ? def.shape[key] : undefined;
  return def.type === 'record' ? def.valueType : undefined;
}

/** A copy of a config document (or of a value of `schema`) with its keys in canonical order. */
export function inCanonicalOrder<T>(value: T, schema: Schema = ImportDocument): T {
  const def = schemaDef(schema);
  if (Array.isArray(value)) {
    const element = def.type === 'array' ? def.element : undefined;
    return (element ? value.map((v) => inCanonicalOrder(v, element)) : value) as T;
  }
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const order = canonicalKeyOrder(
    def,
    entries.map(([k]) => k),
  );
  return Object.fromEntries(
    order.map((i) => {
      const [k, v] = entries[i] as [string, unknown];
      const child = childSchema(def, k);
      return [k, child ? inCanonicalOrder(v, child) : v];
    }),
  ) as T;
}
