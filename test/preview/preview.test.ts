import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkConfig, readConfigRows } from '../../src/check/index.js';
import type { ImportDocument } from '../../src/model/document.js';
import { buildPreview } from '../../src/preview/index.js';
import { validateConfigText } from '../../src/validate/index.js';

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures', 'preview');
const expected = JSON.parse(readFileSync(join(fixtures, 'channels.expected.json'), 'utf8')) as {
  rows: number;
  first: string;
  last: string;
  channels: Array<{ name: string; kind: string }>;
};

/** The page of a fixture config and its data file, with the check's issues. */
async function page(config: string, data: string, full = false) {
  const configText = readFileSync(join(fixtures, config), 'utf8');
  const document = validateConfigText(configText).documents[0]?.value as ImportDocument;
  const dataPath = join(fixtures, data);
  const issues = await checkConfig(document, dataPath);
  return buildPreview({ document, dataPath, configText, configName: config, issues, full });
}

/** What a test reads back from a page. */
function shown(html: string) {
  const text = (id: string) => new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(html)?.[1];
  return {
    first: text('time-first'),
    last: text('time-last'),
    channels: [...html.matchAll(/data-channel="([^"]*)" data-kind="([^"]*)"/g)].map((m) => ({
      name: m[1],
      kind: m[2],
    })),
    plots: [...html.matchAll(/<div class="plot" data-plot="/g)].length,
    badFindings: [...html.matchAll(/class="finding bad"[^>]*>([^<]*)</g)].map((m) => m[1]),
    external: /\s(src|href)="(?!#)/.test(html),
    uplotNotice: /Copyright \(c\) \d{4} Leon Sorokin/.test(html),
  };
}

describe('preview of the fixture table in each format', () => {
  for (const [config, data] of [
    ['channels.csv.yaml', 'channels.csv'],
    ['channels.parquet.yaml', 'channels.parquet'],
    ['channels.h5.yaml', 'channels.h5'],
    ['channels.tdms.yaml', 'channels.tdms'],
    ['channels.ulg.yaml', 'channels.ulg'],
  ] as const) {
    test(`${data}: every row, the time axis and one block per channel`, async () => {
      const p = await page(config, data);
      expect({ rows: p.rows, complete: p.complete }).toEqual({
        rows: expected.rows,
        complete: true,
      });
      const s = shown(p.html);
      expect(s).toEqual({
        first: expected.first,
        last: expected.last,
        channels: expected.channels,
        plots: expected.channels.filter((c) => c.kind !== 'text').length,
        badFindings: [],
        external: false,
        uplotNotice: true,
      });
    });
  }

  test('a config with the wrong unit shows the time axis findings in red', async () => {
    const s = shown((await page('wrong-unit.csv.yaml', 'channels.csv')).html);
    // Milliseconds read as seconds: every time 1,000 times too far from 1970.
    const asSeconds = (iso: string) => new Date(Date.parse(iso) * 1000).toISOString();
    expect([s.first, s.last]).toEqual([asSeconds(expected.first), asSeconds(expected.last)]);
    expect(s.badFindings).toEqual([
      `the latest time, ${asSeconds(expected.last)}, is after 2100`,
      'read as ABSOLUTE_UNIX_SECONDS, the times of column 1 (1714557600000 to 1714557659900) land in the year 56302, outside 1971-2100; as ABSOLUTE_UNIX_MILLISECONDS they fall between 2024-05-01 and 2024-05-01',
    ]);
  });
});

test('Parquet multiChannel: one plotted channel per name in the rows, each on its own axis', async () => {
  const examples = join(fixtures, '..', 'platform-examples');
  const document: ImportDocument = {
    parquetConfig: {
      singleChannelPerRow: {
        timeColumn: { path: 'timestamp', format: 'TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS' },
        multiChannel: { namePath: 'channel', dataPath: 'value' },
      },
    },
  };
  const dataPath = join(examples, 'parquet-multi-channel-per-row.parquet');
  const p = await buildPreview({
    document,
    dataPath,
    configText: '{}',
    configName: 'c',
    issues: [],
  });
  const counts: Record<string, number> = {};
  const rows = await readConfigRows(document, dataPath);
  await rows?.read((b) => {
    for (const c of b.channels) {
      const name = rows.channels[c]?.name ?? '?';
      counts[name] = (counts[name] ?? 0) + b.length;
    }
  });
  expect({ rows: p.rows, complete: p.complete, notes: p.notes, counts }).toEqual({
    rows: 900,
    complete: true,
    notes: [],
    counts: { rpm: 300, speed: 300, temperature: 300 },
  });
  expect(shown(p.html)).toMatchObject({
    first: '2024-01-01T00:00:00.000Z',
    last: '2024-01-01T00:04:59.000Z',
    channels: ['rpm', 'speed', 'temperature'].map((name) => ({ name, kind: 'line' })),
    plots: 3,
  });
});

describe("time axis findings on the inspectors' fixtures", () => {
  /** The page of a CSV fixture read by the draft inference made for it. */
  async function csvPage(name: string) {
    const csv = join(fixtures, '..', 'csv');
    const { document } = JSON.parse(readFileSync(join(csv, `${name}.expected.json`), 'utf8')) as {
      document: ImportDocument;
    };
    const dataPath = join(csv, `${name}.csv`);
    const issues = await checkConfig(document, dataPath);
    const configText = JSON.stringify(document, null, 2);
    return shown(
      (await buildPreview({ document, dataPath, configText, configName: 'c', issues })).html,
    );
  }

  test('a relative time without a start reads as 1970', async () => {
    const s = await csvPage('relative-ms-no-start');
    expect(s.first).toBe('1970-01-01T00:00:00.000Z');
    expect(s.badFindings).toEqual([
      'times start in 1970: relativeStartTime is not set, so relative times count from 1970',
    ]);
  });

  test('time that goes backwards is marked', async () => {
    const s = await csvPage('time-backwards');
    expect(s.badFindings.map((f) => f?.replace(/ \(first.*$/, ''))).toEqual([
      'time goes backwards 1 time in the rows read',
      expect.stringMatching(/^time goes backwards 1 time; first at row \d+/),
    ]);
  });
});

describe('sampling and size', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'importkit-preview-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** A CSV of `rows` rows of `channels` doubles at 1 kHz, and its config. */
  async function table(name: string, rows: number, channels: number) {
    const start = Date.UTC(2024, 0, 1);
    const lines = [['t', ...Array.from({ length: channels }, (_, c) => `c${c}`)].join(',')];
    for (let r = 0; r < rows; r++) {
      const values = Array.from({ length: channels }, (_, c) => ((r * (c + 1)) % 997) / 10);
      lines.push([start + r, ...values].join(','));
    }
    const path = join(dir, `${name}.csv`);
    await writeFile(path, `${lines.join('\n')}\n`);
    const document: ImportDocument = {
      csvConfig: {
        firstDataRow: 2,
        timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS' },
        dataColumns: Object.fromEntries(
          Array.from({ length: channels }, (_, c) => [
            String(c + 2),
            { name: `c${c}`, dataType: 'CHANNEL_DATA_TYPE_DOUBLE' as const },
          ]),
        ),
      },
    };
    return { path, document, start };
  }

  test('by default the head and slices, the tail included; --full every row', async () => {
    const rows = 60_000;
    const { path, document, start } = await table('long', rows, 8);
    const base = { document, dataPath: path, configText: '{}', configName: 'c.json', issues: [] };
    const sampled = await buildPreview(base);
    const full = await buildPreview({ ...base, full: true });
    expect(sampled.complete).toBe(false);
    expect(sampled.rows).toBeLessThan(rows / 2);
    expect(full).toMatchObject({ rows, complete: true });
    const last = new Date(start + rows - 1).toISOString();
    expect([shown(sampled.html).last, shown(full.html).last]).toEqual([last, last]);
  });

  test('the page of 100 channels stays under 1 MB', async () => {
    const { path, document } = await table('wide', 3_000, 100);
    const p = await buildPreview({
      document,
      dataPath: path,
      configText: '{}',
      configName: 'c.json',
      issues: [],
    });
    expect(shown(p.html).plots).toBe(100);
    expect(Buffer.byteLength(p.html)).toBeLessThan(1024 * 1024);
  });

  test('a kind with no row reader gives no rows', async () => {
    const document: ImportDocument = { ch10Config: {} } as ImportDocument;
    expect(await readConfigRows(document, join(fixtures, 'channels.csv'))).toBeUndefined();
  });
});
