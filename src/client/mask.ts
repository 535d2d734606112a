/** Update masks: comma-separated snake_case field paths, as the reference writes them. */

import { toSnakePath } from '../model/plain.js';

export { toCamelPath, toSnakePath } from '../model/plain.js';

/** The mask naming every field of `fields` except the id field. */
export function maskOf(fields: Record<string, unknown>, idField: string): string {
  return Object.keys(fields)
    .filter((k) => k !== idField && fields[k] !== undefined)
    .map(toSnakePath)
    .join(',');
}

/** Splits a mask into its trimmed, non-empty paths. */
export function maskPaths(mask: string): string[] {
  return mask
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
}
