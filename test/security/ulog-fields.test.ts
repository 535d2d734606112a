/**
 * ULog nested arrays: a format of `L1[200]` where each level nests the next 200 times
 * unrolls to 200^30 fields from a few hundred bytes of definitions, once per subscribed
 * message and instance. The whole log unrolls to at most MAX_FIELDS fields (a coded issue
 * says where it stopped), issues of one kind are counted with the first few shown, and the
 * work of inspect, infer and check grows linearly with the fields the definitions unroll
 * to (a CPU-time ratio of two sizes in one run, see `doublingRatio`).
 */
import { describe, expect, test } from 'vitest';
import { body, type FormatSpec, UlogWriter } from '../../scripts/fixtures/ulog-writer.js';
import { checkUlog } from '../../src/formats/ulog/check.js';
import { MAX_FIELDS } from '../../src/formats/ulog/format.js';
import { draftFromUlogProfile } from '../../src/formats/ulog/infer.js';
import { inspectUlogSource } from '../../src/formats/ulog/inspect.js';
import { memorySource } from '../../src/inspect/byte-source.js';
import { doublingRatio, RATIO_BOUND } from './_helpers.js';

/**
 * `levels` formats L1 … L<levels>, each nesting the next `width` times (the last holds two
 * floats), and `formats` top-level messages T<k> holding `L1[width]`, each subscribed
 * `instances` times with one data message.
 */
function nested(levels: number, width: number, formats: number, instances: number): Uint8Array {
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
async function run(bytes: Uint8Array, all = false) {
  const source = memorySource(bytes, 'nested.ulg');
  const profile = await inspectUlogSource(source);
  const draft = draftFromUlogProfile(profile);
  const config = { relativeStartTime: '2024-05-01T12:00:00Z', ...draft.document.ulogConfig };
  const checked = await checkUlog(all ? { ...config, data: [] } : config, source);
  return { profile, draft, checked };
}

describe('ULog fields unrolled from nested arrays', () => {
  test('levels of [200], many messages and instances: the log stops at MAX_FIELDS, once', async () => {
    const counts = [];
    for (const formats of [4, 8]) {
      const bytes = nested(3, 200, formats, 4);
      const { profile, draft, checked } = await run(bytes, true);
      counts.push({
        fields: profile.fields.length,
        channels: draft.document.ulogConfig?.data?.length,
        issues: profile.issues.map((i) => i.code),
        checkIssues: checked.length,
      });
    }
    // Twice the messages, the same work: every count stays at the cap.
    expect(counts[0]).toEqual(counts[1]);
    expect(counts[0]?.fields).toBeLessThanOrEqual(MAX_FIELDS);
    expect(counts[0]?.channels).toBe(counts[0]?.fields);
    // Each subscription's one data message is too short for its format: damage, the first
    // five shown and the rest counted.
    expect(counts[0]?.issues).toEqual(['ulog_fields_over_limit', ...Array(6).fill('ulog_damaged')]);
  });

  test('32 levels (past the nesting guard): unreadable fields counted, the first five shown', async () => {
    const { profile } = await run(nested(32, 200, 40, 2));
    const unreadable = profile.issues.filter((i) => i.code === 'ulog_field_unreadable');
    expect(unreadable).toHaveLength(6);
    expect(unreadable.at(-1)?.message).toBe('and 461 more fields that cannot be read');
    expect(profile.fields).toEqual([]);
  });

  test('a field past the cap that a config names is found by its name', async () => {
    const bytes = nested(30, 200, 2, 1);
    // T1 comes after T0 has used up the cap: none of its fields is in the profile.
    const deep = `a[199]${'.x[199]'.repeat(29)}.u`;
    const issues = await checkUlog(
      {
        relativeStartTime: '2024-05-01T12:00:00Z',
        parseErrorPolicy: 'ULOG_PARSE_ERROR_POLICY_IGNORE_ERROR',
        data: [
          {
            messageName: 'T1',
            instance: '0',
            fieldName: deep,
            channelConfig: { name: 'deep', dataType: 'CHANNEL_DATA_TYPE_FLOAT' },
          },
          { messageName: 'T1', instance: '0', fieldName: `${deep}x` },
        ],
      },
      memorySource(bytes, 'nested.ulg'),
    );
    expect(issues.map((i) => [i.code, i.path])).toEqual([
      ['ulog_field_not_in_file', '/ulogConfig/data/1/fieldName'],
      ['ulog_fields_over_limit', '/ulogConfig'],
      ['ulog_damaged', '/ulogConfig'],
      ['ulog_damaged', '/ulogConfig'],
    ]);
  });

  test('inspect, infer and check grow linearly with the fields the definitions unroll to', async () => {
    // One message of `L1[n]`, two floats each: 2n channels, under the cap at 8n (1,000 and
    // 8,000 channels: a quadratic cost shows at these sizes, and the test stays cheap).
    const sized = new Map<number, Uint8Array>();
    const of = (n: number) => {
      const b = sized.get(n) ?? nested(1, n, 1, 1);
      sized.set(n, b);
      return b;
    };
    const once = async (n: number) => {
      const { profile } = await run(of(n));
      expect(profile.fields).toHaveLength(2 * n);
    };
    expect(await doublingRatio(once, 500, 2)).toBeLessThan(RATIO_BOUND);
  });
});
