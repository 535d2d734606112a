/**
 * The line start a sampled CSV check reads its tail from (check-head.ts `nextLineStart`),
 * and the search under it and under a parallel check's ranges (line-start.ts).
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { nextLineStart } from '../../src/formats/csv/check-head.js';
import { lineStartAfter } from '../../src/formats/csv/line-start.js';
import { memorySource } from '../../src/inspect/index.js';

const READ = 64 * 1024;

test('a CRLF split between two reads is one line end', async () => {
  for (const eol of ['\r\n', '\n', '\r']) {
    const text = `${'a'.repeat(READ - 1)}${eol}b,1\n`;
    const source = memorySource(new TextEncoder().encode(text));
    expect(await nextLineStart(source, 0, source.size), JSON.stringify(eol)).toBe(
      READ - 1 + eol.length,
    );
  }
});

test('LF, CRLF and a lone CR inside one read; none: the size', async () => {
  const bytes = new TextEncoder().encode('ab\r\ncd\ref\ngh');
  const source = memorySource(bytes);
  expect(await nextLineStart(source, 0, source.size)).toBe(4);
  expect(await nextLineStart(source, 4, source.size)).toBe(7);
  expect(await nextLineStart(source, 7, source.size)).toBe(10);
  expect(await nextLineStart(source, 10, source.size)).toBe(source.size);
});

test('the line start after any byte, through reads of any length: the first LF, CRLF or lone CR on', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom(97, 10, 13, 44), { maxLength: 40 }),
      fc.nat(),
      fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 8 }),
      async (codes, fromSeed, lengths) => {
        const bytes = Uint8Array.from(codes);
        const size = bytes.length;
        const from = size === 0 ? 0 : fromSeed % (size + 1);
        // Each read returns at most its turn's length: reads end anywhere, a CRLF's two
        // bytes in two of them too.
        let turn = 0;
        const read = async (at: number, n: number) => {
          const most = lengths[turn++ % lengths.length] as number;
          return bytes.subarray(at, Math.min(size, at + Math.min(n, most)));
        };
        // What a line start is: after an LF, or after a CR that no LF follows.
        let want = size;
        for (let i = from; i < size; i++) {
          if (bytes[i] === 10 || (bytes[i] === 13 && bytes[i + 1] !== 10)) {
            want = i + 1;
            break;
          }
        }
        expect(await lineStartAfter(read, from, size)).toBe(want);
      },
    ),
    { numRuns: 300 },
  );
});
