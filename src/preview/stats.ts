/**
 * What the rows read say about the time axis and each channel, gathered as they stream:
 * first and last time, smallest and largest, steps (for the median), backwards steps,
 * times that do not parse; per channel the count, nulls, min/max and, for text, the first
 * values.
 */
import type { RowBatch } from '../check/index.js';

/** Steps kept for the median (the first ones read). */
const MAX_STEPS = 20_000;
/** First values kept per text channel. */
export const FIRST_VALUES = 20;

export class TimeStats {
  rows = 0;
  unparseable = 0;
  first = Number.NaN;
  last = Number.NaN;
  min = Number.POSITIVE_INFINITY;
  max = Number.NEGATIVE_INFINITY;
  backwards = 0;
  /** Time of the first backwards step. */
  firstBackwards = Number.NaN;
  readonly steps: number[] = [];
  private prev: number[] = [];

  add(batch: RowBatch): void {
    let prev = batch.gap ? Number.NaN : (this.prev[batch.axis] ?? Number.NaN);
    for (let i = 0; i < batch.length; i++) {
      const t = batch.times[i] as number;
      this.rows += 1;
      if (Number.isNaN(t)) {
        this.unparseable += 1;
        continue;
      }
      if (Number.isNaN(this.first)) this.first = t;
      this.last = t;
      if (t < this.min) this.min = t;
      if (t > this.max) this.max = t;
      if (!Number.isNaN(prev)) {
        if (t < prev) {
          this.backwards += 1;
          if (Number.isNaN(this.firstBackwards)) this.firstBackwards = t;
        } else if (this.steps.length < MAX_STEPS) this.steps.push(t - prev);
      }
      prev = t;
    }
    this.prev[batch.axis] = prev;
  }

  /** The median step in ms (undefined with fewer than two times). */
  medianStep(): number | undefined {
    if (this.steps.length === 0) return undefined;
    const s = [...this.steps].sort((a, b) => a - b);
    return s[Math.floor(s.length / 2)];
  }
}

export class ChannelStats {
  count = 0;
  nulls = 0;
  min = Number.POSITIVE_INFINITY;
  max = Number.NEGATIVE_INFINITY;
  /** Text channels: the first values with their times. */
  readonly firstValues: Array<{ t: number; v: string }> = [];

  addNumbers(col: Float64Array, length: number): void {
    for (let i = 0; i < length; i++) {
      const v = col[i] as number;
      if (Number.isNaN(v)) {
        this.nulls += 1;
        continue;
      }
      this.count += 1;
      if (v < this.min) this.min = v;
      if (v > this.max) this.max = v;
    }
  }

  addText(col: ReadonlyArray<string | null>, times: Float64Array, length: number): void {
    for (let i = 0; i < length; i++) {
      const v = col[i];
      if (v === null || v === undefined) {
        this.nulls += 1;
        continue;
      }
      this.count += 1;
      if (this.firstValues.length < FIRST_VALUES) {
        this.firstValues.push({ t: times[i] as number, v });
      }
    }
  }
}
