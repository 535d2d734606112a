/**
 * Whether a time cell repeats the one before it exactly. Times are compared as doubles; past
 * 2^53 (nanoseconds since 1970) a double holds integers two apart or more, so two times one
 * nanosecond apart can be one double: there the cells' text tells them apart. Used by the
 * tally of a CSV check (check-tally.ts), in a range and where two ranges meet.
 */

/** The time column's state these read and write (check-tally.ts `TimeTally`). */
interface KeptCell {
  prev: number;
  prevCell: Uint8Array;
  prevCellLength: number;
}

const UTF8 = new TextDecoder();

/** Beyond it, a double holds integers two apart or more: nanoseconds since 1970. */
const EXACT = 2 ** 53;

/** Keeps the time cell's bytes when its number is past EXACT (at most the buffer's 32). */
export function keepCell(time: KeptCell, t: number, b: Uint8Array, s: number, e: number): void {
  if (Math.abs(t) < EXACT || e - s > time.prevCell.length) {
    time.prevCellLength = 0;
    return;
  }
  for (let k = s; k < e; k++) time.prevCell[k - s] = b[k] as number;
  time.prevCellLength = e - s;
}

/**
 * Whether a time equal to the last as a double is the same time: always below EXACT; past
 * it, when the cells are written alike (a time kept of no more than 32 bytes).
 */
export function sameCell(time: KeptCell, b: Uint8Array, s: number, e: number): boolean {
  if (Math.abs(time.prev) < EXACT) return true;
  if (time.prevCellLength !== e - s) return false;
  for (let k = s; k < e; k++) if (b[k] !== time.prevCell[k - s]) return false;
  return true;
}

/** A repeat where two ranges meet: the range's first time is the last time before it. */
export function seamRepeats(t: KeptCell, first: { t: number; place: { value: string } }): boolean {
  if (Math.abs(first.t) < EXACT) return true;
  const before = UTF8.decode(t.prevCell.subarray(0, t.prevCellLength));
  return t.prevCellLength > 0 && before.replace(/["\s]/g, '') === first.place.value.trim();
}
