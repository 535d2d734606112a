/**
 * A sampled read of TDMS values (the sampled check: the first and last values of each
 * channel; the preview: the first rows and a few slices) wants values here and there in
 * the file, and a walk from the first segment passes every segment between them, a read
 * or two each: on a file of 100,000 small segments, half of a sampled check. The
 * inspection's walk notes where a walk may begin (walk-starts.ts WalkStart). The read is cut
 * into pieces at such starts, where no request's range holds values on both sides and the
 * values before the start since the start before it are not wanted: each piece begins at
 * its start, and stops once its values are read (raw.ts `stopWhenRead`). What each request
 * reads is the same, in the same order.
 */
import type { TdmsValueRequest } from './raw-segment.js';
import type { WalkStart } from './walk-starts.js';

/** A piece of a read: where it begins (the first segment: no start) and its requests. */
export interface ReadPiece {
  start?: WalkStart;
  /** The segment the next piece begins at (the piece's walk stops there at the latest). */
  to: number;
  requests: TdmsValueRequest[];
}

/**
 * The pieces of a read of `requests` (one when no start is worth beginning at). Each
 * request keeps its place in every piece (the handler's request numbers are the same),
 * with the ranges that fall in the piece.
 */
export function readPieces(
  requests: readonly TdmsValueRequest[],
  starts: readonly WalkStart[],
): ReadPiece[] {
  // Each request's values before a start, worked out once a start (a start lists every object).
  const counted = new Map<WalkStart | undefined, number[]>();
  const seenAt = (start: WalkStart | undefined): number[] => {
    let cut = counted.get(start);
    if (!cut) {
      const seen = new Map(start?.objects.map((o) => [o.path, o.seen]));
      cut = requests.map((r) => seen.get(r.path) ?? 0);
      counted.set(start, cut);
    }
    return cut;
  };
  // Values wanted in [from, to) of each request's values.
  const wanted = (from: number[], to: number[]) =>
    requests.some((r, i) =>
      r.ranges.some(([a, b]) => a < (to[i] as number) && b > (from[i] as number)),
    );
  const clean = starts.filter((s) => {
    if (s.segment <= 1) return false;
    const cut = seenAt(s);
    return requests.every((r, i) =>
      r.ranges.every(([a, b]) => (cut[i] as number) <= a || (cut[i] as number) >= b),
    );
  });
  const cuts: WalkStart[] = [];
  const end = requests.map(() => Number.POSITIVE_INFINITY);
  clean.forEach((s, k) => {
    const here = seenAt(s);
    const before = k > 0 ? seenAt(clean[k - 1]) : seenAt(undefined);
    const after = k + 1 < clean.length ? seenAt(clean[k + 1]) : end;
    // Worth beginning at: nothing wanted since the start before, something until the next.
    if (!wanted(before, here) && wanted(here, after)) cuts.push(s);
  });
  return piecesAt(requests, cuts, seenAt);
}

/** The pieces between `cuts` (in file order), each request's ranges in its piece. */
function piecesAt(
  requests: readonly TdmsValueRequest[],
  cuts: readonly WalkStart[],
  seenAt: (start: WalkStart | undefined) => number[],
): ReadPiece[] {
  const bounds = [undefined, ...cuts];
  return bounds.map((start, k) => {
    const next = cuts[k];
    const from = seenAt(start);
    const to = next ? seenAt(next) : requests.map(() => Number.POSITIVE_INFINITY);
    return {
      ...(start ? { start } : {}),
      to: next?.segment ?? Number.MAX_SAFE_INTEGER,
      requests: requests.map((r, i) => ({
        ...r,
        ranges: r.ranges.filter(([a, b]) => a >= (from[i] as number) && b <= (to[i] as number)),
      })),
    };
  });
}
