/**
 * A TDMS lead-in's offsets are read as numbers while they are exact, as bigints beyond
 * (formats/tdms/lead-in.ts): every u64 reads as its value, in either byte order, and a
 * damaged segment's message names an offset past 2^53 exactly.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { tdmsBytes } from '../../scripts/fixtures/tdms-writer.js';
import { inspectTdmsSource } from '../../src/formats/tdms/inspect.js';
import { ALL_ONES, LEAD_IN, parseLeadIn, TOC } from '../../src/formats/tdms/lead-in.js';
import { memorySource } from '../../src/inspect/byte-source.js';

/** A lead-in with these offsets, in the byte order `little` says. */
function leadIn(next: bigint, raw: bigint, little: boolean): Uint8Array {
  const b = new Uint8Array(LEAD_IN);
  b.set([0x54, 0x44, 0x53, 0x6d]); // TDSm
  const v = new DataView(b.buffer);
  v.setUint32(4, TOC.metaData | TOC.rawData | (little ? 0 : TOC.bigEndian), true);
  v.setUint32(8, 4713, little);
  v.setBigUint64(12, next, little);
  v.setBigUint64(20, raw, little);
  return b;
}

/** u64s near the edges that matter (2^52, 2^53, all ones) as well as anywhere. */
const u64 = fc.oneof(
  fc.bigInt({ min: 0n, max: ALL_ONES }),
  fc.bigInt({ min: 2n ** 52n - 3n, max: 2n ** 53n + 3n }),
  fc.bigInt({ min: 0n, max: 1n << 32n }),
  fc.constant(ALL_ONES),
);

/** An offset no double holds exactly: 2^60 + 1. */
const HUGE = 2n ** 60n + 1n;

/**
 * The messages of a file of two segments whose second lead-in holds `value` at byte `at`
 * (12: the next segment's offset, 20: the raw data's); where that segment is, and the
 * file's size.
 */
async function withSecondLeadIn(
  at: number,
  value: bigint,
): Promise<{ issues: string[]; second: number; size: number }> {
  const { data } = tdmsBytes([
    { objects: [{ path: ['G', 'a'], data: { type: 'f64', count: 2 } }] },
    { noMeta: true, objects: [] },
  ]);
  // The second segment holds two doubles and no metadata.
  const second = data.byteLength - LEAD_IN - 16;
  const damaged = data.slice();
  new DataView(damaged.buffer).setBigUint64(second + at, value, true);
  const p = await inspectTdmsSource(memorySource(damaged, 'x.tdms'));
  return { issues: p.issues.map((i) => i.message), second, size: data.byteLength };
}

describe('the TDMS lead-in', () => {
  test('reads every u64 offset as its value, in either byte order', () => {
    fc.assert(
      fc.property(u64, u64, fc.boolean(), (next, raw, little) => {
        const lead = parseLeadIn(leadIn(next, raw, little), 'TDSm');
        if (typeof lead === 'string') throw new Error(lead);
        expect(BigInt(lead.next)).toBe(next);
        expect(BigInt(lead.raw)).toBe(raw);
        // A number only where it is exact.
        if (typeof lead.next === 'number') expect(Number.isSafeInteger(lead.next)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  test('a segment that says it ends past 2^53 bytes is named with its exact end', async () => {
    const { issues, second, size } = await withSecondLeadIn(12, HUGE);
    const end = BigInt(second + LEAD_IN) + HUGE;
    expect(issues).toEqual([
      `x.tdms: segment 2 (byte ${second}) is cut short: it says it ends at byte ${end}, but the file has ${size} bytes; its values up to the end of the file were read (after the segment before it)`,
    ]);
  });

  test('a metadata offset past 2^53 is refused with its exact value', async () => {
    const { issues } = await withSecondLeadIn(20, HUGE);
    expect(issues[0]).toContain(`a metadata block of ${HUGE} bytes is larger than importkit reads`);
  });
});
