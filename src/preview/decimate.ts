/**
 * Min/max decimation of one time axis, streamed: rows go into buckets of `span` consecutive
 * rows; each bucket keeps its first and last time and, per numeric channel, its smallest
 * and largest value in the order they came. When the buckets fill up (2 × target), pairs
 * are merged and the span doubles, so memory stays bounded however many rows come, and
 * every spike survives as a bucket's min or max. Buckets never merge across a gap (rows
 * skipped between slices of a sampled file), so the plot never draws over what was not read.
 */
import type { RowBatch } from '../check/index.js';

/** Per channel: smallest and largest value of each bucket, NaN for none. */
interface Extremes {
  min: Float64Array;
  max: Float64Array;
  /** 1 when the bucket's max came after its min. */
  maxLater: Uint8Array;
}

/** What a decimated axis gives the page: shared times and per channel values. */
export interface DecimatedAxis {
  /** Times in ms, ascending. */
  x: number[];
  /** Per numeric channel (by channel index): values aligned with `x`; null breaks the line. */
  y: Map<number, Array<number | null>>;
}

export class AxisDecimator {
  private n = 0;
  private span = 1;
  private inBucket = 0;
  private readonly cap: number;
  private readonly first: Float64Array;
  private readonly last: Float64Array;
  private readonly gap: Uint8Array;
  private readonly ext = new Map<number, Extremes>();
  private pendingGap = false;

  constructor(
    numericChannels: readonly number[],
    private readonly target: number,
  ) {
    this.cap = Math.max(4, target * 2);
    this.first = new Float64Array(this.cap);
    this.last = new Float64Array(this.cap);
    this.gap = new Uint8Array(this.cap);
    for (const c of numericChannels) {
      this.ext.set(c, {
        min: new Float64Array(this.cap),
        max: new Float64Array(this.cap),
        maxLater: new Uint8Array(this.cap),
      });
    }
  }

  /** Adds a batch's rows (rows whose time does not parse are left out). */
  add(batch: RowBatch): void {
    if (batch.gap && this.n > 0) this.pendingGap = true;
    const cols: Array<[Extremes, Float64Array]> = [];
    batch.channels.forEach((c, k) => {
      const e = this.ext.get(c);
      const col = batch.columns[k];
      if (e && col instanceof Float64Array) cols.push([e, col]);
    });
    for (let i = 0; i < batch.length; i++) {
      const t = batch.times[i] as number;
      if (Number.isNaN(t)) continue;
      const b = this.bucketFor(t);
      this.last[b] = t;
      for (const [e, col] of cols) {
        const v = col[i] as number;
        if (Number.isNaN(v)) continue;
        const min = e.min[b] as number;
        const max = e.max[b] as number;
        // The extreme that changes last is the later one.
        if (Number.isNaN(min) || v < min) {
          e.min[b] = v;
          e.maxLater[b] = 0;
        }
        if (Number.isNaN(max) || v > max) {
          e.max[b] = v;
          e.maxLater[b] = 1;
        }
      }
    }
  }

  /** The bucket the next row goes into (a new one when the current is full or after a gap). */
  private bucketFor(t: number): number {
    if (this.n > 0 && this.inBucket < this.span && !this.pendingGap) {
      this.inBucket += 1;
      return this.n - 1;
    }
    if (this.n === this.cap) this.compact();
    const b = this.n;
    this.n += 1;
    this.inBucket = 1;
    this.first[b] = t;
    this.gap[b] = this.pendingGap ? 1 : 0;
    this.pendingGap = false;
    for (const e of this.ext.values()) {
      e.min[b] = Number.NaN;
      e.max[b] = Number.NaN;
      e.maxLater[b] = 1;
    }
    return b;
  }

  /** Merges neighbouring buckets (never across a gap); the span doubles. */
  private compact(): void {
    let w = 0;
    for (let i = 0; i < this.n; w++) {
      const pair = i + 1 < this.n && this.gap[i + 1] === 0;
      this.move(i, w);
      if (pair) this.merge(i + 1, w);
      i += pair ? 2 : 1;
    }
    this.n = w;
    this.span *= 2;
    this.inBucket = this.span;
  }

  private move(from: number, to: number): void {
    this.first[to] = this.first[from] as number;
    this.last[to] = this.last[from] as number;
    this.gap[to] = this.gap[from] as number;
    for (const e of this.ext.values()) {
      e.min[to] = e.min[from] as number;
      e.max[to] = e.max[from] as number;
      e.maxLater[to] = e.maxLater[from] as number;
    }
  }

  /** Folds bucket `from` (later in time) into bucket `to`. */
  private merge(from: number, to: number): void {
    this.last[to] = this.last[from] as number;
    for (const e of this.ext.values()) {
      const lo = e.min[from] as number;
      const hi = e.max[from] as number;
      const curLo = e.min[to] as number;
      const curHi = e.max[to] as number;
      const lower = !Number.isNaN(lo) && (Number.isNaN(curLo) || lo < curLo);
      const higher = !Number.isNaN(hi) && (Number.isNaN(curHi) || hi > curHi);
      if (lower) e.min[to] = lo;
      if (higher) e.max[to] = hi;
      if (lower && higher) e.maxLater[to] = e.maxLater[from] as number;
      else if (lower) e.maxLater[to] = 0;
      else if (higher) e.maxLater[to] = 1;
    }
  }

  /** The points to draw: two per bucket (its extremes in the order they came), gaps as NaN. */
  result(): DecimatedAxis {
    if (this.n > this.target) this.compact();
    const x: number[] = [];
    const y = new Map<number, Array<number | null>>();
    for (const c of this.ext.keys()) y.set(c, []);
    const push = (t: number, values: (e: Extremes) => number) => {
      x.push(t);
      for (const [c, e] of this.ext) {
        const v = values(e);
        (y.get(c) as Array<number | null>).push(Number.isNaN(v) ? null : v);
      }
    };
    for (let b = 0; b < this.n; b++) {
      const t0 = this.first[b] as number;
      const t1 = this.last[b] as number;
      if (this.gap[b]) push(t0, () => Number.NaN);
      push(t0, (e) => ((e.maxLater[b] as number) ? (e.min[b] as number) : (e.max[b] as number)));
      push(t1, (e) => ((e.maxLater[b] as number) ? (e.max[b] as number) : (e.min[b] as number)));
    }
    return sortedByTime({ x, y });
  }
}

/** Time that goes backwards still gets a plot: points sorted by time (stable). */
function sortedByTime(axis: DecimatedAxis): DecimatedAxis {
  const { x } = axis;
  let sorted = true;
  for (let i = 1; i < x.length && sorted; i++) sorted = (x[i] as number) >= (x[i - 1] as number);
  if (sorted) return axis;
  const order = x.map((_, i) => i).sort((a, b) => (x[a] as number) - (x[b] as number) || a - b);
  const y = new Map<number, Array<number | null>>();
  for (const [c, values] of axis.y) {
    y.set(
      c,
      order.map((i) => values[i] ?? null),
    );
  }
  return { x: order.map((i) => x[i] as number), y };
}
