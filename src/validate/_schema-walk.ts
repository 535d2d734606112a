import type { JsonSchema } from '../model/index.js';

/** A node of a committed JSON Schema (an object; `true`/`false` schemas are not used). */
export type SchemaNode = Record<string, unknown>;

/** The `$defs` name a node refers to (`#/$defs/Uint32` → `Uint32`), if it is a local reference. */
export function refName(node: SchemaNode): string | undefined {
  const ref = node.$ref;
  return typeof ref === 'string' && ref.startsWith('#/$defs/') ? ref.slice(8) : undefined;
}

/** The node itself, or the `$defs` entry of the root it refers to (followed until not a reference). */
export function deref(root: JsonSchema, node: SchemaNode): SchemaNode {
  let out = node;
  for (let hops = 0; hops < 16; hops++) {
    const name = refName(out);
    if (name === undefined) return out;
    const next = (root.$defs as Record<string, SchemaNode> | undefined)?.[name];
    if (next === undefined) return out;
    out = next;
  }
  return out;
}

function child(node: SchemaNode, token: string): SchemaNode | undefined {
  const props = node.properties as Record<string, SchemaNode> | undefined;
  if (props && Object.hasOwn(props, token)) return props[token];
  if (typeof node.additionalProperties === 'object' && node.additionalProperties !== null)
    return node.additionalProperties as SchemaNode;
  if (typeof node.items === 'object' && node.items !== null && /^(0|[1-9][0-9]*)$/.test(token))
    return node.items as SchemaNode;
  return undefined;
}

/**
 * The schema that applies to the value at a place of a document (JSON pointer tokens),
 * references followed; undefined where the schema says nothing (an unknown key).
 */
export function schemaAt(root: JsonSchema, tokens: readonly string[]): SchemaNode | undefined {
  let node: SchemaNode | undefined = deref(root, root);
  for (const t of tokens) {
    if (node === undefined) return undefined;
    const next: SchemaNode | undefined = child(node, t);
    node = next === undefined ? undefined : deref(root, next);
  }
  return node;
}
