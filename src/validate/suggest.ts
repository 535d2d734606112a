/** "Did you mean" suggestions by edit distance. */

import { listSome } from '../model/plain.js';

/** Levenshtein distance, case-insensitive, bounded by `max` (returns max + 1 when further). */
export function editDistance(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  if (Math.abs(s.length - t.length) > max) return max + 1;
  let prev = Array.from({ length: t.length + 1 }, (_, i) => i);
  for (let i = 1; i <= s.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      const v = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[t.length] ?? 0;
}

/**
 * The candidate nearest to `input`, when it is near enough to be a likely misspelling:
 * by default at most a third of the input's length away (and at least 1, at most 4 edits).
 */
export function closest(
  input: string,
  candidates: Iterable<string>,
  limit = Math.min(4, Math.max(1, Math.floor(input.length / 3))),
): string | undefined {
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const c of candidates) {
    const d = editDistance(input, c, limit);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/** Up to this many candidates, a path is compared with each of them. */
const ALL_UP_TO = 64;
/** Past ALL_UP_TO, how many neighbours on each side of a path, in each order, it is compared with. */
const NEIGHBOURS = 12;

/** The index in sorted `keys` where `key` would go. */
function insertionPoint(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] as string) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A path's last part first, then the rest: `day2/run-1.csv` → `run-1.csv/day2`. */
function nameFirst(path: string): string {
  const at = path.lastIndexOf('/');
  return at < 0 ? path : `${path.slice(at + 1)}/${path.slice(0, at)}`;
}

/**
 * `closest` for many paths against the same many candidates (the members of an archive a
 * batch lists): the candidates are sorted once, by path and by name first, and each path is
 * compared only with its neighbours in both orders (those that share its start, or its file
 * name with a near folder) instead of with every candidate, so that N missing paths against
 * M members cost N × a constant comparisons, not N × M (2,000 against 2,000 took 40 s). With
 * a few candidates it is `closest` itself.
 */
export function pathSuggester(
  candidates: readonly string[],
): (given: string) => string | undefined {
  if (candidates.length <= ALL_UP_TO) return (given) => closest(given, candidates);
  const byPath = [...candidates].sort();
  const byName = candidates
    .map((c) => [nameFirst(c), c] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const names = byName.map(([key]) => key);
  return (given) => {
    const near = new Set<string>();
    const at = insertionPoint(byPath, given);
    for (const c of byPath.slice(Math.max(0, at - NEIGHBOURS), at + NEIGHBOURS)) near.add(c);
    const atName = insertionPoint(names, nameFirst(given));
    for (const [, c] of byName.slice(Math.max(0, atName - NEIGHBOURS), atName + NEIGHBOURS))
      near.add(c);
    return closest(given, near);
  };
}

/** How a hint writes names: the quote around the suggestion, how many candidates it lists. */
export interface HintStyle {
  /** Quotes the suggested name (default `'name'`). */
  quote?: (name: string) => string;
  /** Lists at most this many candidates, then "and N more" (default 8). */
  max?: number;
}

const singleQuoted = (name: string): string => `'${name}'`;

/** `Did you mean 'timeColumn'?`: the one way a suggestion is written. */
export function didYouMean(near: string, quote: (name: string) => string = singleQuoted): string {
  return `Did you mean ${quote(near)}?`;
}

/**
 * The hint for a name that is not here (a column, dataset, member, group, channel, message,
 * key, value or path): the nearest candidate, else what is here (`listed`: `The file's
 * columns`). The one place a "did you mean" and a list of candidates are written.
 */
export function notFoundHint(
  given: string,
  candidates: readonly string[],
  listed: string,
  near: string | undefined = closest(given, candidates),
  style: HintStyle = {},
): string {
  if (near) return didYouMean(near, style.quote);
  return `${listed}: ${listSome(candidates, style.max ?? 8) || 'none'}.`;
}

/** `first_data_row` → `firstDataRow` (the proto's snake_case names to the JSON names). */
export function camelCase(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
