/**
 * Lists of any length without spreading them into a call's arguments: `out.push(...items)`
 * or `Math.max(...values)` puts each element on the stack, and a list the size of the data
 * (a folder's files, a file's rows) overflows it. `test/architecture/spread-arguments.test.ts`
 * keeps such spreads out of src/. And how a list is written in a message (`listSome`): here,
 * below every stage, so that the value tallies a `--jobs` worker thread loads write lists
 * without loading the validator.
 */

/** Appends every item to `target`, in order; answers `target`. */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}

/** The largest of `values`, or `empty` when there is none. */
export function maxOf(values: Iterable<number>, empty = Number.NEGATIVE_INFINITY): number {
  let out = empty;
  let first = true;
  for (const v of values) {
    if (first || v > out) out = v;
    first = false;
  }
  return out;
}

/** The smallest of `values`, or `empty` when there is none. */
export function minOf(values: Iterable<number>, empty = Number.POSITIVE_INFINITY): number {
  let out = empty;
  let first = true;
  for (const v of values) {
    if (first || v < out) out = v;
    first = false;
  }
  return out;
}

/** `a`, `a and b`, `a, b and 3 more`: the one way a list of candidates is written. */
export function listSome(items: readonly string[], max = 3, total = items.length): string {
  const shown = items.slice(0, max);
  const more = total - shown.length;
  if (more > 0) return `${shown.join(', ')} and ${more} more`;
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}
