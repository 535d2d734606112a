/**
 * The nested-array ULog logs of `ulog-fields.test.ts`, and the inspect, infer and check run
 * over one, apart from the test so that a process of its own can time them (the doubling
 * test measures this process's CPU, which in a shared test process would count other files'
 * leftover work too).
 */
import { body, type FormatSpec, UlogWriter } from '../../scripts/fixtures/ulog-writer.js';
import { checkUlog } from '../../src/formats/ulog/check.js';
import { draftFromUlogProfile } from '../../src/formats/ulog/infer.js';
import { inspectUlogSource } from '../../src/formats/ulog/inspect.js';
import { memorySource } from '../../src/inspect/byte-source.js';
import type { DoublingCases } from '../helpers/doubling-apart.js';

/**
 * `levels` formats L1 … L<levels>, each nesting the next `width` times (the last holds two
 * floats), and `formats` top-level messages T<k> holding `L1[width]`, each subscribed
 * `instances` times with one data message.
 */
export function nested(
  levels: number,
  width: number,
  formats: number,
  instances: number,
): Uint8Array {
  const w = new UlogWriter();
  for (let i = 1; i < levels; i++) {
    w.format({ name: `L${i}`, fields: [{ type: `L${i + 1}`, name: 'x', array: width }] });
  }
  w.format({
    name: `L${levels}`,
    fields: [
      { type: 'float', name: 'v' },
      { type: 'float', name: 'u' },
    ],
  });
  const tops: FormatSpec[] = Array.from({ length: formats }, (_, k) => ({
    name: `T${k}`,
    fields: [
      { type: 'uint64_t', name: 'timestamp' },
      { type: 'L1', name: 'a', array: width },
    ],
  }));
  for (const t of tops) w.format(t);
  let id = 0;
  for (const t of tops) {
    for (let m = 0; m < instances; m++) w.subscribe(m, id++, t.name);
  }
  // One small data message per subscription: too short for the format (damage), but a
  // reader must not expand anything for it.
  for (let k = 0; k < id; k++) w.data(k, body(8, BigInt(1000 + k)));
  return w.bytes();
}

/** Inspect, infer, and check the draft (or, with `all`, a config importing every channel). */
export async function run(bytes: Uint8Array, all = false) {
  const source = memorySource(bytes, 'nested.ulg');
  const profile = await inspectUlogSource(source);
  const draft = draftFromUlogProfile(profile);
  const config = { relativeStartTime: '2024-05-01T12:00:00Z', ...draft.document.ulogConfig };
  const checked = await checkUlog(all ? { ...config, data: [] } : config, source);
  return { profile, draft, checked };
}

/** One message of `L1[n]`, two floats each (2n channels), read through inspect, infer and check. */
const sized = new Map<number, Uint8Array>();
export async function runWidth(n: number): Promise<number> {
  const bytes = sized.get(n) ?? nested(1, n, 1, 1);
  sized.set(n, bytes);
  const { profile } = await run(bytes);
  return profile.fields.length;
}

/** The doubling the test times apart: 1,000 channels, then 8,000 (under the cap). */
export const cases: DoublingCases = { width: { f: runWidth, n: 500, runs: 2 } };
