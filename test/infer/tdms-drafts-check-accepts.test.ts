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

test('numeric times judged in their format: infer says what check says, sampled or full', async () => {
  // Unix milliseconds in a numeric time channel.
  const ms = [1_709_294_400_000, 1_709_294_400_500, 1_709_294_401_000];
  const path = written('unix-ms.tdms', [
    {
      objects: [
        { path: ['G', 'Time'], data: { type: 'f64', count: 3 } },
        { path: ['G', 'v'], data: { type: 'f64', count: 3 } },
      ],
      values: { 'G/Time': ms, 'G/v': [1, 2, 3] },
    },
  ]);
  const codes = (issues: ReadonlyArray<{ code: string; severity: string; path: string }>) =>
    issues
      .filter((i) => i.code.startsWith('time_'))
      .map((i) => `${i.severity} ${i.code} ${i.path}`);
  const cases: Array<[string, string[]]> = [
    // Read as seconds they land past 2100; as milliseconds they fit.
    ['ABSOLUTE_UNIX_SECONDS', ['error time_wrong_unit /tdmsConfig/timeFormat']],
    ['ABSOLUTE_UNIX_MILLISECONDS', []],
    // Relative seconds of that size look like unix times.
    ['RELATIVE_SECONDS', ['warning time_looks_absolute /tdmsConfig/timeFormat']],
  ];
  for (const [timeFormat, expected] of cases) {
    const draft = await inferConfig(path, {
      timeFormat,
      ...(timeFormat.startsWith('RELATIVE') ? { relativeStartTime: '2024-01-01T00:00:00Z' } : {}),
    });
    expect(codes(draft.issues), timeFormat).toEqual(expected);
    const doc = draft.document as ImportDocument;
    for (const full of [false, true])
      expect(codes(await checkConfig(doc, path, { full })), `${timeFormat} full ${full}`).toEqual(
        expected,
      );
  }
  // No format given: the values read are unix milliseconds, and the draft says so.
  const found = await inferConfig(path);
  const foundDoc = found.document as ImportDocument;
  expect(foundDoc.tdmsConfig?.timeFormat).toBe('TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS');
  expect(foundDoc.tdmsConfig?.relativeStartTime).toBeUndefined();
  expect(found.issues.filter((i) => i.severity !== 'info')).toEqual([]);
  expect(found.evidence.find((e) => e.path === '/tdmsConfig/timeFormat')).toMatchObject({
    reason: 'G/Time holds 1709294400000 to 1709294401000: ABSOLUTE_UNIX_MILLISECONDS',
    confidence: 'medium',
  });
  for (const full of [false, true])
    expect(await checkConfig(foundDoc, path, { full }), `full ${full}`).toEqual([]);
  // A unix format needs no start: no error that the file gives none, and none drafted.
  const unix = await inferConfig(path, { timeFormat: 'ABSOLUTE_UNIX_MILLISECONDS' });
  expect(errorsOf(unix.issues)).toEqual([]);
  expect((unix.document as ImportDocument).tdmsConfig?.relativeStartTime).toBeUndefined();
  const draft = await inferConfig(path, { timeFormat: 'ABSOLUTE_UNIX_SECONDS' });
  expect(draft.issues.find((i) => i.code === 'time_wrong_unit')?.message).toBe(
    "read as ABSOLUTE_UNIX_SECONDS, the times of 'G/Time' (1709294400000 to 1709294401000) land in the year 56135, outside 1971-2100; as ABSOLUTE_UNIX_MILLISECONDS they fall between 2024-03-01 and 2024-03-01",
  );
});

/** A waveform's properties: its start and its increment (seconds between samples). */
const waveAt = (start: string, increment: number) => [
  { name: 'wf_start_time', type: 'timestamp' as const, value: start },
  { name: 'wf_increment', type: 'f64' as const, value: increment },
];

/** The issues of `codes`, as `code path: message` lines, sorted. */
const saidOf =
  (...codes: string[]) =>
  (issues: ReadonlyArray<{ code: string; path: string; message: string }>) =>
    issues
      .filter((i) => codes.includes(i.code))
      .map((i) => `${i.code} ${i.path}: ${i.message}`)
      .sort();

/** Infer's draft of `path` says `expected`, and so does check of that draft, sampled and full. */
async function draftAndCheckSay(
  path: string,
  said: ReturnType<typeof saidOf>,
  expected: string[],
): Promise<ImportDocument> {
  const draft = await inferConfig(path);
  expect(said(draft.issues)).toEqual(expected);
  const doc = draft.document as ImportDocument;
  for (const full of [false, true])
    expect(said(await checkConfig(doc, path, { full })), `full ${full}`).toEqual(expected);
  return doc;
}

test('waveforms whose increment is not positive: infer and check say so alike', async () => {
  const wave = (increment: number) => waveAt('2024-03-01T12:00:00Z', increment);
  const path = written('steps.tdms', [
    {
      objects: [
        { path: ['G', 'still'], data: { type: 'f64', count: 3 }, properties: wave(0) },
        { path: ['G', 'back'], data: { type: 'f64', count: 3 }, properties: wave(-0.5) },
        { path: ['G', 'fine'], data: { type: 'f64', count: 3 }, properties: wave(0.5) },
        // One value: no second time to compare.
        { path: ['G', 'one'], data: { type: 'f64', count: 1 }, properties: wave(0) },
      ],
      values: { 'G/still': [1, 2, 3], 'G/back': [1, 2, 3], 'G/fine': [1, 2, 3], 'G/one': [1] },
    },
  ]);
  const said = saidOf('time_repeated', 'time_decreasing');
  const expected = [
    'time_decreasing /tdmsConfig/data: waveform channels with a negative wf_increment, their times going backwards: G/back (-0.5)',
    'time_repeated /tdmsConfig/data: waveform channels with wf_increment 0, every value at the same time: G/still (0)',
  ];
  await draftAndCheckSay(path, said, expected);
  // Every channel imported (empty data): the same.
  expect(said(await checkConfig({ tdmsConfig: { data: [] } } as ImportDocument, path))).toEqual(
    expected,
  );
});

test('waveforms whose samples fall outside 1971-2100: infer and check say so alike', async () => {
  const path = written('dates.tdms', [
    {
      objects: [
        {
          path: ['G', 'old'],
          data: { type: 'f64', count: 3 },
          properties: waveAt('1950-06-01T00:00:00Z', 1),
        },
        {
          path: ['G', 'fine'],
          data: { type: 'f64', count: 3 },
          properties: waveAt('2024-06-01T00:00:00Z', 1),
        },
        // At the epoch: said by tdms_waveform_start_relative, not twice.
        {
          path: ['G', 'epoch'],
          data: { type: 'f64', count: 3 },
          properties: waveAt('1904-01-01T00:00:00Z', 1),
        },
      ],
      values: { 'G/old': [1, 2, 3], 'G/fine': [1, 2, 3], 'G/epoch': [1, 2, 3] },
    },
  ]);
  const said = saidOf('time_out_of_range', 'tdms_waveform_start_relative');
  const expected = [
    'tdms_waveform_start_relative /tdmsConfig/startTimeOverride: waveform channels start at the TDMS epoch (1904-01-01) or are marked relative: G/epoch',
    'time_out_of_range /tdmsConfig/data: waveform channels whose times fall outside 1971-2100: G/old (1950-06-01 to 1950-06-01)',
  ];
  const doc = await draftAndCheckSay(path, said, expected);
  // A start the config gives replaces every waveform's: all of them then fall in 2024.
  const started = { tdmsConfig: { ...doc.tdmsConfig, startTimeOverride: '2024-01-01T00:00:00Z' } };
  expect(said(await checkConfig(started as ImportDocument, path))).toEqual([]);
});
