/**
 * The work of `emulator.test.ts`, point 5a: the list filter parsed from hostile text of
 * length n, for the test to time in a Node process of its own (see
 * `test/helpers/doubling-apart.ts`). Whether the filter is refused or read, what counts is
 * the time it took: a regular expression that backtracks shows only there.
 */
import { parseFilter } from '../../src/emulator/list.js';
import type { DoublingCases } from '../helpers/doubling-apart.js';

const shapes: Array<[(n: number) => string, number]> = [
  // 42 backslashes then a stray character took 15 s before.
  [(n) => `status == "${'\\'.repeat(n)}"a`, 50_000],
  [(n) => `status == "a${' '.repeat(n)}x`, 50_000],
  [(n) => `status in [${'"a",'.repeat(n)}"b"`, 10_000],
  [(n) => `status == "${'\\"'.repeat(n)}`, 50_000],
  [(n) => `${'status == "a" && '.repeat(n)}status == "b`, 1_000],
];

function parse(shape: (n: number) => string) {
  return (n: number) => {
    try {
      parseFilter(shape(n));
    } catch {
      // refused: what counts is the time it took
    }
  };
}

/** Each shape by its text at n = 2. */
export const cases: DoublingCases = Object.fromEntries(
  shapes.map(([shape, n]) => [shape(2), { f: parse(shape), n }]),
);
