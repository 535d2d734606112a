/**
 * The canonical order of a config's keys, read from the committed JSON Schemas instead of
 * the zod schemas they are generated from (`inCanonicalOrder` in the model): the same order
 * (an object's keys in its schema's `properties` order, the field order of its zod object;
 * keys the schema does not know after them; a record keyed by column numbers in ascending
 * numbers), without building zod's schemas, which `infer` would otherwise pay for at
 * start-up (about 95 modules). The schemas hold no unions, so each place has one node.
 */
import type { JsonSchema } from '../model/plain.js';
import { deref, type SchemaNode } from './_schema-walk.js';
import { DOCUMENT_SCHEMA } from './document-schema.js';

const NUMBER = /^\d+$/;

/** A copy of a config document with its keys in canonical order (as `fmt` writes them). */
export function inSchemaOrder<T>(value: T): T {
  const root = DOCUMENT_SCHEMA;
  return ordered(root, deref(root, root), value) as T;
}

function ordered(root: JsonSchema, node: SchemaNode | undefined, value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = objectNode(node?.items);
    return items ? value.map((v) => ordered(root, deref(root, items), v)) : value;
  }
  if (value === null || typeof value !== 'object' || node === undefined) return value;
  const entries = Object.entries(value);
  const rank = rankOf(node, entries);
  const order = entries.map((_, i) => i);
  if (rank) order.sort((a, b) => (rank[a] as number) - (rank[b] as number) || a - b);
  return Object.fromEntries(
    order.map((i) => {
      const [k, v] = entries[i] as [string, unknown];
      const child = childOf(node, k);
      return [k, child ? ordered(root, deref(root, child), v) : v];
    }),
  );
}

function objectNode(x: unknown): SchemaNode | undefined {
  return typeof x === 'object' && x !== null ? (x as SchemaNode) : undefined;
}

/** An object's keys by their place in `properties`; a record's numeric keys by number. */
function rankOf(node: SchemaNode, entries: Array<[string, unknown]>): number[] | undefined {
  const props = objectNode(node.properties);
  if (props) {
    const names = Object.keys(props);
    return entries.map(([k]) => {
      const i = names.indexOf(k);
      return i === -1 ? names.length : i;
    });
  }
  if (objectNode(node.additionalProperties) && entries.every(([k]) => NUMBER.test(k)))
    return entries.map(([k]) => Number(k));
  return undefined;
}

/** The schema of the value under `key`: a property of an object, or a record's values. */
function childOf(node: SchemaNode, key: string): SchemaNode | undefined {
  const props = objectNode(node.properties);
  if (props) return Object.hasOwn(props, key) ? objectNode(props[key]) : undefined;
  return objectNode(node.additionalProperties);
}
