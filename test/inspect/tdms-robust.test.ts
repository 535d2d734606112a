/**
 * Robustness of the TDMS and CH10 readers: arbitrary bytes after each signature, and every
 * truncation point of fixture files, give a draft or a one-line InspectError: never another
 * exception, a hang or a multi-line message.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { draftFromCh10Profile } from '../../src/formats/ch10/infer.js';
import { inspectCh10Source } from '../../src/formats/ch10/inspect.js';
import { draftFromTdmsProfile } from '../../src/formats/tdms/infer.js';
import { inspectTdmsSource } from '../../src/formats/tdms/inspect.js';
import { memorySource } from '../../src/inspect/byte-source.js';
import { InspectError } from '../../src/inspect/profile.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures');

type Outcome = 'draft' | string;

async function tdmsOutcome(bytes: Uint8Array): Promise<Outcome> {
  try {
    draftFromTdmsProfile(await inspectTdmsSource(memorySource(bytes, 'x.tdms')));
    return 'draft';
  } catch (err) {
    if (!(err instanceof InspectError)) throw err;
    expect(err.message).not.toContain('\n');
    return err.issue.code;
  }
}

async function ch10Outcome(bytes: Uint8Array): Promise<Outcome> {
  try {
    draftFromCh10Profile(await inspectCh10Source(memorySource(bytes, 'x.ch10')));
    return 'draft';
  } catch (err) {
    if (!(err instanceof InspectError)) throw err;
    expect(err.message).not.toContain('\n');
    return err.issue.code;
  }
}

// A cut at byte 0 leaves an empty file: `file_empty`, as for every format.
const TDMS_CODES = [
  'draft',
  'file_empty',
  'tdms_signature_missing',
  'tdms_truncated',
  'tdms_metadata_invalid',
];
const CH10_CODES = [
  'draft',
  'file_empty',
  'ch10_sync_missing',
  'ch10_truncated',
  'ch10_tmats_missing',
];

describe('TDMS', () => {
  test('arbitrary bytes after the signature', async () => {
    const tag = new TextEncoder().encode('TDSm');
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (tail) => {
        const bytes = new Uint8Array(4 + tail.byteLength);
        bytes.set(tag);
        bytes.set(tail, 4);
        expect(TDMS_CODES).toContain(await tdmsOutcome(bytes));
      }),
      { numRuns: 400 },
    );
  });

  test('arbitrary bytes after a valid lead-in (metadata of any shape)', async () => {
    const lead = readFileSync(join(fixtures, 'tdms', 'incremental.tdms')).subarray(0, 28);
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 400 }), async (tail) => {
        const bytes = new Uint8Array(28 + tail.byteLength);
        bytes.set(lead);
        bytes.set(tail, 28);
        expect(TDMS_CODES).toContain(await tdmsOutcome(bytes));
      }),
      { numRuns: 400 },
    );
  });

  test.each(['incremental', 'complex-and-strings', 'daqmx', 'big-endian'])(
    'every truncation point of %s.tdms',
    async (name) => {
      const whole = readFileSync(join(fixtures, 'tdms', `${name}.tdms`));
      const seen = new Set<Outcome>();
      for (let n = 0; n <= whole.byteLength; n++) {
        const outcome = await tdmsOutcome(whole.subarray(0, n));
        expect(TDMS_CODES).toContain(outcome);
        seen.add(outcome);
      }
      expect(seen.has('draft')).toBe(true);
      expect(seen.has('tdms_truncated')).toBe(true);
    },
  );
});

describe('CH10', () => {
  test('arbitrary bytes after the sync pattern', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (tail) => {
        const bytes = new Uint8Array(2 + tail.byteLength);
        bytes.set([0x25, 0xeb]);
        bytes.set(tail, 2);
        expect(CH10_CODES).toContain(await ch10Outcome(bytes));
      }),
      { numRuns: 400 },
    );
  });

  test('every truncation point of recorder.ch10', async () => {
    const whole = readFileSync(join(fixtures, 'ch10', 'recorder.ch10'));
    const seen = new Set<Outcome>();
    for (let n = 0; n <= whole.byteLength; n++) {
      const outcome = await ch10Outcome(whole.subarray(0, n));
      expect(CH10_CODES).toContain(outcome);
      seen.add(outcome);
    }
    expect([...seen].sort()).toEqual([
      'ch10_sync_missing',
      'ch10_truncated',
      'draft',
      'file_empty',
    ]);
  });
});
