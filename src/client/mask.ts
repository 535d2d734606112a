/** Update masks: comma-separated snake_case field paths, as the reference writes them. */

/** `isArchived` → `is_archived`; `properties.searchTerm` → `properties.search_term`. */
export function toSnakePath(path: string): string {
  return path
    .split('.')
    .map((part) => part.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`))
    .join('.');
}

/** `is_archived` → `isArchived`. */
export function toCamelPath(path: string): string {
  return path
    .split('.')
    .map((part) => part.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()))
    .join('.');
}

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
