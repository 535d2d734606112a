/**
 * Members are read once: format detection and the inspector share a member's head, so each
 * byte of a stored zip member is read from the archive at most once; and whatever the order
 * of reads, a member source answers the bytes of the member.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { examineMember } from '../../src/infer/batch-member.js';
import { renamedSource, sliceSource } from '../../src/inspect/archive/member-source.js';
import { countingSource, memorySource } from '../../src/inspect/byte-source.js';
import { repoRoot } from '../helpers/paths.js';

function csv(rows: number): Buffer {
  const lines = ['time,temp,pressure'];
  for (let r = 0; r < rows; r += 1)
    lines.push(`2024-01-01T00:00:${String(r % 60).padStart(2, '0')}Z,${r}.25,${1000 + r}`);
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** The stretches of `log` ([offset, length]) that overlap: bytes read more than once. */
function overlaps(log: ReadonlyArray<[number, number]>): Array<[number, number]> {
  const sorted = [...log].filter(([, n]) => n > 0).sort((x, y) => x[0] - y[0]);
  const out: Array<[number, number]> = [];
  let end = 0;
  for (const [at, n] of sorted) {
    if (at < end) out.push([at, Math.min(end, at + n)]);
    end = Math.max(end, at + n);
  }
  return out;
}

const parquet = readFileSync(join(repoRoot, 'fixtures', 'parquet', 'all-types.parquet'));
for (const [name, data] of [
  ['small.csv', csv(20)],
  ['larger.csv', csv(600)],
  ['over-the-kept-head.csv', csv(4000)],
  ['table.parquet', parquet],
] as const) {
  test(`a stored zip member (${name}): detection and inference read each byte once`, async () => {
    // The member in place inside an archive, between other bytes.
    const archive = new Uint8Array(data.byteLength + 64);
    archive.set(data, 30);
    const counting = countingSource(memorySource(archive, 'set.zip'));
    const result = await examineMember(
      name,
      async () => sliceSource(counting, 30, data.byteLength, name),
      undefined,
      {},
    );
    expect(result.outcome).toBe('draft');
    expect(overlaps(counting.log)).toEqual([]);
    expect(counting.bytesRead).toBeLessThanOrEqual(data.byteLength);
  });
}

const readsArb = fc.array(
  fc.record({ offset: fc.integer({ min: 0, max: 300 }), length: fc.integer({ min: 0, max: 200 }) }),
  { minLength: 1, maxLength: 12 },
);

test('a member source answers the member bytes whatever the order of reads', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.uint8Array({ minLength: 0, maxLength: 256 }),
      fc.integer({ min: 0, max: 16 }),
      readsArb,
      async (bytes, start, reads) => {
        const outer = new Uint8Array(start + bytes.byteLength + 7);
        outer.set(bytes, start);
        for (const source of [
          sliceSource(memorySource(outer), start, bytes.byteLength, 'm'),
          renamedSource(memorySource(bytes), 'm'),
        ]) {
          for (const { offset, length } of reads) {
            const at = Math.min(offset, bytes.byteLength);
            const want = bytes.subarray(at, Math.min(bytes.byteLength, at + length));
            expect(Array.from(await source.read(offset, length))).toEqual(Array.from(want));
          }
        }
      },
    ),
    { numRuns: 200 },
  );
});
