/** The line start a sampled CSV check reads its tail from (check-head.ts `nextLineStart`). */
import { expect, test } from 'vitest';
import { nextLineStart } from '../../src/formats/csv/check-head.js';
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
