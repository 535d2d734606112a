/**
 * The sampled check reads the first and the last values of each channel (values.ts). The
 * walk to the last ones passes every segment between them, a read or two each: on a file
 * of 100,000 small segments, half of a sampled check. The inspection's walk notes where a
 * walk may begin (segments.ts WalkStart); split at the latest of them that cuts no range
 * of values, the read is two: the first values, stopping once read, then from that start
 * to the end. What each request reads is the same.
 */
import type { TdmsValueRequest } from './raw-segment.js';
import type { WalkStart } from './segments.js';

/** The two reads of a split: before the start (stopping once read) and from it. */
export interface SampledSplit {
  start: WalkStart;
  head: TdmsValueRequest[];
  tail: TdmsValueRequest[];
}

/**
 * The split of `requests` at the latest start (after the first segment) where no request's
 * range holds values on both sides; undefined when there is none.
 */
export function sampledSplit(
  requests: readonly TdmsValueRequest[],
  starts: readonly WalkStart[],
): SampledSplit | undefined {
  for (let k = starts.length - 1; k >= 0; k--) {
    const start = starts[k] as WalkStart;
    if (start.segment <= 1) return undefined;
    const seen = new Map(start.objects.map((o) => [o.path, o.seen]));
    const cuts = requests.map((r) => seen.get(r.path) ?? 0);
    const cutsNone = requests.every((r, i) =>
      r.ranges.every(([a, b]) => (cuts[i] as number) <= a || (cuts[i] as number) >= b),
    );
    if (!cutsNone) continue;
    return {
      start,
      head: requests.map((r, i) => ({
        ...r,
        ranges: r.ranges.filter(([, b]) => b <= (cuts[i] as number)),
      })),
      tail: requests.map((r, i) => ({
        ...r,
        ranges: r.ranges.filter(([a]) => a >= (cuts[i] as number)),
      })),
    };
  }
  return undefined;
}
