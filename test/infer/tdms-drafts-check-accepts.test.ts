/**
 * Two TDMS drafts that check used to reject with no word from infer (found by the closed
 * loop on generated files, test/closed-loop/generated-tdms.test.ts):
 * - a file where infer lists no channel: its draft's empty `data` imports every channel,
 *   those infer left out untimed too, so infer reports the error check reports of it; and
 *   a channel without data is imported by neither;
 * - a time format given to the library by its short name is read as the command line
 *   reads it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { type SegmentSpec, tdmsBytes } from '../../scripts/fixtures/tdms-writer.js';
import { checkConfig } from '../../src/check/index.js';
import { inferConfig } from '../../src/infer/index.js';
import type { ImportDocument } from '../../src/model/index.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-tdms-drafts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function written(name: string, segments: SegmentSpec[]): string {
  const path = join(dir, name);
  writeFileSync(path, tdmsBytes(segments).data);
  return path;
}

const errorsOf = (issues: ReadonlyArray<{ code: string; severity: string; path: string }>) =>
  issues.filter((i) => i.severity === 'error').map((i) => `${i.code} ${i.path}`);

test('a draft of no entry says that its empty data imports untimed channels', async () => {
  const path = written('untimed.tdms', [
    { objects: [{ path: ['G', 'v'], data: { type: 'f64', count: 2 } }], values: { 'G/v': [1, 2] } },
  ]);
  const draft = await inferConfig(path);
  const doc = draft.document as ImportDocument;
  expect(doc.tdmsConfig?.data).toEqual([]);
  expect(errorsOf(draft.issues)).toEqual(['tdms_waveform_missing /tdmsConfig/data']);
  for (const full of [false, true])
    expect(errorsOf(await checkConfig(doc, path, { full }))).toEqual([
      'tdms_waveform_missing /tdmsConfig/data',
    ]);
});

test('a channel without data is imported by no empty data list', async () => {
  // A waveform channel with values, and a channel listed in the file with no data at all.
  const waveform = [
    { name: 'wf_start_time', type: 'timestamp' as const, value: '2024-03-01T12:00:00Z' },
    { name: 'wf_increment', type: 'f64' as const, value: 0.5 },
  ];
  const path = written('no-data.tdms', [
    {
      objects: [
        { path: ['G', 'w'], data: { type: 'f64', count: 2 }, properties: waveform },
        { path: ['G', 'empty'] },
      ],
      values: { 'G/w': [1, 2] },
    },
  ]);
  const doc = { tdmsConfig: { data: [], fallbackMethod: 'TDMS_FALLBACK_METHOD_FAIL_ON_ERROR' } };
  for (const full of [false, true])
    expect(errorsOf(await checkConfig(doc as ImportDocument, path, { full }))).toEqual([]);
});

test('the library reads a short time format name as the command line does', async () => {
  const path = written('relative.tdms', [
    {
      objects: [
        { path: ['G', 'Time'], data: { type: 'f64', count: 3 } },
        { path: ['G', 'v'], data: { type: 'f64', count: 3 } },
      ],
      values: { 'G/Time': [0, 1, 2], 'G/v': [1, 2, 3] },
    },
  ]);
  const start = { relativeStartTime: '2024-01-01T00:00:00Z' };
  const short = await inferConfig(path, { timeFormat: 'RELATIVE_MILLISECONDS', ...start });
  const full = await inferConfig(path, {
    timeFormat: 'TIME_FORMAT_RELATIVE_MILLISECONDS',
    ...start,
  });
  expect((short.document as ImportDocument).tdmsConfig?.timeFormat).toBe(
    'TIME_FORMAT_RELATIVE_MILLISECONDS',
  );
  expect(short.document).toEqual(full.document);
  expect(errorsOf(short.issues)).toEqual([]);
  const wrong = await inferConfig(path, { timeFormat: 'FORTNIGHTS', ...start });
  expect(errorsOf(wrong.issues)).toEqual(['infer_option_invalid /tdmsConfig/timeFormat']);
});
