/**
 * Integers written as text compared exactly, as a column's facts (cells.ts) keep its least
 * and greatest integer and whether it goes forward: numbers up to 15 digits, which doubles
 * hold exactly, BigInts beyond.
 */

/** Compares two integer strings exactly (optional sign, digits): BigInt beyond 15 digits. */
export function compareIntStrings(a: string, b: string): number {
  if (a.length <= 15 && b.length <= 15) return Math.sign(Number(a) - Number(b));
  const x = BigInt(a.replace(/^\+/, ''));
  const y = BigInt(b.replace(/^\+/, ''));
  return x < y ? -1 : x > y ? 1 : 0;
}
