/**
 * A TDMS file from a big-endian writer (kTocBigEndian: version, offsets, metadata and raw
 * data big-endian; only the tag and the ToC mask little-endian, as npTDMS reads them) is
 * inferred, checked (sampled and --full) and previewed like any other: it was refused as
 * damaged ("version 1762787328 is not a TDMS version").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { fill } from '../../scripts/fixtures/tdms.js';
import { checkConfig, readConfigRows } from '../../src/check/index.js';
import { inferConfig } from '../../src/infer/index.js';
import type { TdmsConfig } from '../../src/model/tdms.js';
import { repoRoot } from '../helpers/paths.js';

const file = join(repoRoot, 'fixtures', 'tdms', 'big-endian.tdms');

describe('a big-endian TDMS file', () => {
  test('its lead-in is big-endian past the ToC mask', () => {
    const head = readFileSync(file).subarray(0, 28);
    const v = new DataView(head.buffer, head.byteOffset, 28);
    expect(v.getUint32(4, true) & (1 << 6)).not.toBe(0);
    expect(v.getUint32(8, false)).toBe(4713);
  });

  test('is inferred, checked sampled and --full, and previewed with the values written', async () => {
    const draft = await inferConfig(file);
    expect(draft.issues.filter((i) => i.severity === 'error')).toEqual([]);
    for (const full of [false, true]) {
      expect(await checkConfig(draft.document, file, { full })).toEqual([]);
    }
    const rows = await readConfigRows(draft.document, file, { full: true });
    const seen: Record<string, Array<[number, unknown]>> = {};
    const read = await rows?.read((b) => {
      b.channels.forEach((c, j) => {
        const name = rows.channels[c]?.name ?? '?';
        seen[name] ??= [];
        const col = b.columns[j] as ArrayLike<unknown>;
        for (let i = 0; i < b.length; i++) seen[name].push([b.times[i] as number, col[i]]);
      });
    });
    expect(read).toEqual({ rows: 8, complete: true, notes: [] });
    const time = (i: number) => Date.parse(fill('B/Timestamp', 'timestamp', i) as string);
    const names = (draft.document as { tdmsConfig: TdmsConfig }).tdmsConfig.data?.map(
      (e) => e.channelConfig?.name,
    );
    expect(Object.entries(seen)).toEqual([
      [names?.[0], Array.from({ length: 8 }, (_, i) => [time(i), fill('B/pressure', 'f64', i)])],
      [names?.[1], Array.from({ length: 8 }, (_, i) => [time(i), fill('B/count', 'u32', i)])],
    ]);
  });
});
