/**
 * `out[key] = value` that makes an own, enumerable property whatever the key: names that
 * come from data (an archive member called `__proto__` or `constructor`, a key of a config
 * map) are data, so a plain assignment, which would set the prototype for `__proto__`,
 * never stores them.
 */
export function setOwn(out: object, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `map[key]` when `key` is the map's own key (never something its prototype holds). */
export function ownValue<T>(
  map: Readonly<Record<string, T>> | undefined,
  key: string,
): T | undefined {
  return map !== undefined && Object.hasOwn(map, key) ? map[key] : undefined;
}
