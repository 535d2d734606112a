/**
 * Invariants of the emulator's protobuf JSON reader and writer: a timestamp in any offset
 * and with any fraction is stored as the same instant in the writer's form; an integer
 * reads the same written as a number or quoted, and a 64-bit one keeps every digit; and
 * what the writer writes, the reader reads back to the same answer.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { normalizeTimestamp, readMessage } from '../../src/emulator/proto-read.js';
import { messageOf } from '../../src/emulator/proto-shape.js';
import { writeMessage } from '../../src/emulator/proto-write.js';
import { CsvConfig, Run } from '../../src/model/index.js';

const PROTO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.(\d{3}|\d{6}|\d{9}))?Z$/;
const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');

/** Seconds since 0001-01-01 and nanoseconds of a writer-form timestamp. */
function instant(text: string): [number, number] {
  const [whole = '', frac = ''] = text.slice(0, -1).split('.');
  return [Date.parse(`${whole}Z`) / 1000, Number(frac.padEnd(9, '0'))];
}

test('a timestamp in any offset, with 1 to 9 fractional digits, is stored as the same instant in UTC', () => {
  const MIN = Date.UTC(1, 0, 2);
  const MAX = Date.UTC(9999, 11, 30);
  fc.assert(
    fc.property(
      fc.integer({ min: MIN / 1000, max: MAX / 1000 }),
      fc.integer({ min: 0, max: 999_999_999 }),
      fc.integer({ min: 1, max: 9 }),
      fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
      (seconds, nanos, digits, offset) => {
        const local = new Date((seconds + offset * 60) * 1000);
        const fracText = pad(nanos, 9).slice(0, digits);
        const sign = offset < 0 ? '-' : '+';
        const text = `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}.${fracText}${sign}${pad(Math.trunc(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
        const stored = normalizeTimestamp(text);
        expect(stored).toMatch(PROTO_TIME);
        expect(instant(stored ?? '')).toEqual([seconds, Number(fracText.padEnd(9, '0'))]);
        expect(normalizeTimestamp(stored ?? '')).toBe(stored);
      },
    ),
  );
});

test('an integer reads the same as a number or quoted; a 64-bit one keeps every digit', () => {
  const csv = messageOf(CsvConfig);
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 2 ** 32 - 1 }),
      fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }),
      (row, rows) => {
        const asNumber = readMessage(csv, { firstDataRow: row, numRows: rows.toString() }).value;
        const quoted = readMessage(csv, { first_data_row: String(row), num_rows: `${rows}` });
        expect(quoted.value).toEqual(asNumber);
        expect(asNumber).toEqual({ firstDataRow: row, numRows: rows.toString() });
        const written = writeMessage(csv, asNumber);
        expect([written.firstDataRow, written.numRows]).toEqual([row, rows.toString()]);
      },
    ),
  );
});

test('what the writer writes, the reader reads back to the same answer', () => {
  const run = messageOf(Run);
  const metadata = fc.record({
    key: fc.record({
      name: fc.string(),
      type: fc.constantFrom('METADATA_KEY_TYPE_STRING', 'METADATA_KEY_TYPE_NUMBER'),
    }),
    stringValue: fc.string(),
  });
  fc.assert(
    fc.property(
      fc.record(
        {
          runId: fc.uuid(),
          name: fc.string(),
          description: fc.string(),
          isPinned: fc.boolean(),
          tags: fc.array(fc.string(), { maxLength: 3 }),
          startTime: fc
            .date({
              min: new Date(Date.UTC(1, 0, 1)),
              max: new Date(Date.UTC(9999, 0, 1)),
              noInvalidDate: true,
            })
            .map((d) => d.toISOString()),
          metadata: fc.array(metadata, { maxLength: 2 }),
        },
        { requiredKeys: ['runId'] },
      ),
      (given) => {
        const once = writeMessage(run, readMessage(run, given).value);
        const again = readMessage(run, JSON.parse(JSON.stringify(once)));
        expect(again.dropped).toEqual([]);
        expect(writeMessage(run, again.value)).toEqual(once);
      },
    ),
  );
});
