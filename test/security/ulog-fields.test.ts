/**
 * ULog nested arrays: a format of `L1[200]` where each level nests the next 200 times
 * unrolls to 200^30 fields from a few hundred bytes of definitions, once per subscribed
 * message and instance. The whole log unrolls to at most MAX_FIELDS fields (a coded issue
 * says where it stopped), issues of one kind are counted with the first few shown, and the
 * work of inspect, infer and check grows linearly with the fields the definitions unroll
 * to (a CPU-time ratio of two sizes in one run, see `doublingRatio`).
 */

import { beforeAll, describe, expect, test } from 'vitest';
import { checkUlog } from '../../src/formats/ulog/check.js';
import { MAX_FIELDS } from '../../src/formats/ulog/format.js';
import { memorySource } from '../../src/inspect/byte-source.js';
import { doublingApart } from '../helpers/doubling-apart.js';
import { RATIO_BOUND } from './_helpers.js';
import { nested, run, runWidth } from './_ulog-nested.js';

describe('ULog fields unrolled from nested arrays', () => {
  const apart = doublingApart(new URL('./_ulog-nested.ts', import.meta.url), ['width']);
  beforeAll(apart.measure, 240_000);

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
    expect(await runWidth(500)).toBe(1000);
    // Timed in a Node process of its own: this one's CPU time also counts what other test
    // files left running in it (the test processes are kept between files).
    expect(apart.ratio('width')).toBeLessThan(RATIO_BOUND);
  });
});
