/**
 * What the oracles of times write and compare (test/check/rows-oracle.test.ts,
 * test/infer/time-oracle.test.ts): a time as RFC 3339 at an offset, a ULog log of one
 * message placed by a GPS message, and the comparison of the times read with those written.
 */
import { expect } from 'vitest';
import { body, UlogWriter } from '../../scripts/fixtures/ulog-writer.js';

/** `t` ms since 1970 as RFC 3339 at `offsetMinutes` east of UTC (`Z` at 0). */
export function rfc3339At(t: number, offsetMinutes: number): string {
  if (offsetMinutes === 0) return new Date(t).toISOString();
  const local = new Date(t + offsetMinutes * 60_000).toISOString().slice(0, -1);
  const m = Math.abs(offsetMinutes);
  const hhmm = `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  return `${local}${offsetMinutes < 0 ? '-' : '+'}${hhmm}`;
}

/**
 * A ULog of message `m` (a timestamp, a double `v`, and `pad` more doubles), one message a
 * row; with `bootUs` (µs since 1970 at boot), a `sensor_gps` message at 0.5 s that says so.
 */
export function ulogOfRows(
  rows: ReadonlyArray<{ ts: bigint; v: number }>,
  o: { bootUs?: bigint; pad?: number } = {},
): Uint8Array {
  const w = new UlogWriter(1_000_000n);
  w.flagBits();
  w.format({
    name: 'm',
    fields: [
      { type: 'uint64_t', name: 'timestamp' },
      { type: 'double', name: 'v' },
      ...(o.pad ? [{ type: 'double', name: 'pad', array: o.pad }] : []),
    ],
  });
  w.subscribe(0, 0, 'm');
  if (o.bootUs !== undefined) {
    w.format({
      name: 'sensor_gps',
      fields: [
        { type: 'uint64_t', name: 'timestamp' },
        { type: 'uint64_t', name: 'time_utc_usec' },
      ],
    });
    w.subscribe(0, 1, 'sensor_gps');
    w.data(1, body(16, 500_000n, [[8, o.bootUs + 500_000n]]));
  }
  const size = 16 + 8 * (o.pad ?? 0);
  for (const r of rows) {
    const b = new Uint8Array(size);
    const dv = new DataView(b.buffer);
    dv.setBigUint64(0, r.ts, true);
    dv.setFloat64(8, r.v, true);
    w.data(0, b);
  }
  return w.bytes();
}

/** Each time read is the one written (within a µs: what a double of ms since 1970 holds). */
export function expectTimes(
  read: readonly number[],
  written: readonly number[],
  what = 'row',
): void {
  expect(read.length).toBe(written.length);
  written.forEach((t, i) => {
    const got = read[i] as number;
    expect(Math.abs(got - t), `${what} ${i}: read as ${got}, not ${t}`).toBeLessThan(1e-3);
  });
}
