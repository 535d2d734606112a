/**
 * The tallies of consecutive parts of one column (tallied apart, each in a worker thread),
 * joined in order into what one pass over the whole column counts: the same counts, the
 * same first rows. A channel's counts simply add up. A time tally compares each value with
 * the one before, which the first value of a part never was: the part says which value
 * that is (its `head`), and the join compares it with the last value of the part before.
 */
import type { Chunk } from './chunk.js';
import type { ChannelTally } from './tally.js';
import type { TimeState, TimeTally } from './tally-time.js';

/** A time column's part, tallied on its own from no value before. */
export interface TimePart {
  tally: TimeTally;
  /**
   * The part's first value compared with nothing (the first time not null and not NaN),
   * with its row; undefined when a gap (values not read) came before it, or there is none.
   */
  head?: { value: bigint | number; row: number };
  /** The value the next part's first value is compared with (the state's `prev`). */
  prev: bigint | number | undefined;
  /** A gap inside the part: no value before it is compared with what comes after. */
  gap: boolean;
}

/**
 * Follows a part's time tally as it is fed, to find its head: call `before` with the state
 * before each piece is tallied and `after` with the piece once it is; `gap` when values were
 * skipped. `part` gives what the join needs.
 */
export class HeadWatch {
  #open = true;
  #gap = false;
  #head: TimePart['head'];

  gap(): void {
    // Only a gap after a value compared breaks what follows from what came before.
    this.#open = false;
    this.#gap = true;
  }

  /** After a piece was tallied into `state` (rows from `base`): the head, when it was in it. */
  after(state: TimeState, piece: Chunk, base: number): TimePart['head'] {
    if (!this.#open || state.prev === undefined) return undefined;
    this.#open = false;
    this.#head = headOf(piece, base);
    return this.#head;
  }

  part(state: TimeState): TimePart {
    return {
      tally: state.tally,
      ...(this.#head ? { head: this.#head } : {}),
      prev: state.prev,
      gap: this.#gap,
    };
  }
}

/**
 * The first value of a piece that a time tally compares (not null, not NaN/±inf), with its
 * row (1-based, rows counted from `base`): a part's head when the piece is its first with one.
 */
export function headOf(piece: Chunk, base: number): TimePart['head'] {
  const values = piece.numbers;
  if (values === undefined) return undefined;
  for (let i = 0; i < piece.length; i++) {
    if (piece.has !== undefined && !piece.has(i)) continue;
    const v = values[i] as bigint | number;
    if (typeof v === 'number' && v - v !== 0) continue;
    return { value: v, row: base + i + 1 };
  }
  return undefined;
}

/**
 * Adds a part's time tally to `s`, the tally of the parts before it. `joined`: the part
 * starts right after them (no values between them left unread); `shift`: rows before the
 * part that its own rows do not count.
 */
export function joinTimePart(s: TimeState, p: TimePart, joined: boolean, shift: number): void {
  const t = s.tally;
  const u = p.tally;
  const prev = s.prev;
  if (joined && prev !== undefined && p.head !== undefined) {
    const v = p.head.value;
    if (v < prev) {
      t.decreases += 1;
      t.firstDecrease ??= p.head.row + shift;
    } else if (v === prev) {
      t.repeats += 1;
      t.firstRepeat ??= p.head.row + shift;
    }
  }
  t.decreases += u.decreases;
  keepFirst(t, u, 'firstDecrease', shift);
  t.repeats += u.repeats;
  keepFirst(t, u, 'firstRepeat', shift);
  t.nulls += u.nulls;
  keepFirst(t, u, 'firstNull', shift);
  if (u.nonFinite !== undefined) {
    // A text column's first value that is no time goes with its row.
    if (t.firstNonFinite === undefined && u.unparsed !== undefined) t.unparsed = u.unparsed;
    t.nonFinite = (t.nonFinite ?? 0) + u.nonFinite;
    keepFirst(t, u, 'firstNonFinite', shift);
  }
  if (u.min !== undefined && (t.min === undefined || u.min < t.min)) t.min = u.min;
  if (u.max !== undefined && (t.max === undefined || u.max > t.max)) t.max = u.max;
  // What the next value is compared with: the part's last, else (none in it) the value
  // before it, unless a gap came between.
  if (p.prev !== undefined) s.prev = p.prev;
  else if (p.gap || !joined) s.prev = undefined;
}

/** Adds a part's channel tally to `r`, the tally of the parts before it (`shift` as above). */
export function joinChannelPart(r: ChannelTally, u: ChannelTally, shift: number): void {
  r.nan += u.nan;
  r.posInf += u.posInf;
  r.negInf += u.negInf;
  keepFirst(r, u, 'firstNonFinite', shift);
  r.outside += u.outside;
  r.fractions += u.fractions;
  keepFirst(r, u, 'firstOutside', shift);
  if (u.outsideMin !== undefined && (r.outsideMin === undefined || u.outsideMin < r.outsideMin)) {
    r.outsideMin = u.outsideMin;
  }
  if (u.outsideMax !== undefined && (r.outsideMax === undefined || u.outsideMax > r.outsideMax)) {
    r.outsideMax = u.outsideMax;
  }
  // In order of first appearance: the part's new values after those seen before.
  for (const [value, n] of u.unknown) r.unknown.set(value, (r.unknown.get(value) ?? 0) + n);
  keepFirst(r, u, 'firstUnknown', shift);
}

/** A first row of the parts before, else the part's (its rows after `shift` more). */
function keepFirst<K extends string>(
  into: Partial<Record<K, number>>,
  from: Partial<Record<K, number>>,
  key: K,
  shift: number,
): void {
  const row = from[key];
  if (into[key] === undefined && row !== undefined) into[key] = row + shift;
}
