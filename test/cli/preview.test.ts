import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures', 'preview');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-preview-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function call(...argv: string[]) {
  return runCli(dir, argv);
}

const fixture = (name: string) => join(fixtures, name);

describe('importkit preview', () => {
  test('writes the page and exits 0 when the file fits', async () => {
    const r = await call(
      'preview',
      fixture('channels.csv.yaml'),
      fixture('channels.csv'),
      '-o',
      'ok.html',
    );
    expect(r).toEqual({ code: 0, stdout: '', stderr: 'wrote ok.html\n' });
    const html = readFileSync(join(dir, 'ok.html'), 'utf8');
    expect(html).toContain('<span class="ok">fits</span>');
  });

  test('writes the page and exits 1 when the config has errors; --full reads every row', async () => {
    const r = await call(
      'preview',
      fixture('wrong-unit.csv.yaml'),
      fixture('channels.csv'),
      '--full',
    );
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: 'wrote preview.html (the config has 1 error(s): see the page)\n',
    });
    const html = readFileSync(join(dir, 'preview.html'), 'utf8');
    expect(html).toMatch(/data-code="time_wrong_unit"/);
    expect(html).toContain('600 (every row)');
    // The issue sits beside the line it is about, and only there.
    const flagged = [...html.matchAll(/<span class="line has-issue"><span class="no">(\d+)</g)];
    expect(flagged.map((m) => m[1])).toEqual(['7']);
  });

  test('CH10: no plots; the page shows the packets of each channel from their headers', async () => {
    const config = join(dir, 'ch10.yaml');
    await writeFile(config, 'ch10Config:\n  assetName: recorder\n  runName: sortie-4\n');
    const data = join(fixtures, '..', 'ch10', 'recorder.ch10');
    const r = await call('preview', config, data, '-o', 'ch10.html');
    const note =
      'CH10 values are not plotted: importkit reads the TMATS setup and the packet headers of a CH10 file, not the data in its packets, so this page shows where each channel has packets instead of plots (the check verdict and the config stand)';
    expect(r).toEqual({ code: 0, stdout: '', stderr: `wrote ch10.html\nnote: ${note}\n` });
    const html = readFileSync(join(dir, 'ch10.html'), 'utf8');
    expect({
      note: html.includes(`<p class="note">${note}</p>`),
      plots: html.includes('<div class="plot" data-plot="'),
      channels: html.includes('<div class="channel" data-channel='),
    }).toEqual({ note: true, plots: false, channels: false });
    // One row per data channel, each cell from the packet headers (the bar's cell aside).
    const rows = [...html.matchAll(/<tr data-channel="[^"]*">(.*?)<\/tr>/g)].map((m) =>
      [...(m[1] as string).matchAll(/<td>(.*?)<\/td>/g)].map((c) => c[1]).slice(0, 6),
    );
    const at = (s: string) => `${s} s (2024-03-01T12:00:0${s.slice(0, 1)}.${s.slice(2)}Z)`;
    expect(rows).toEqual([
      ['IRIG-TIME', 'channel 1 · TIMIN · 0x11 time F1', '3', '108 B', at('0.000'), at('2.000')],
      ['PCM-MAIN', 'channel 3 · PCMIN · 0x09 PCM F1', '6', '504 B', at('0.100'), at('2.600')],
      ['BUS-A', 'channel 4 · 1553IN · 0x19 1553 F1', '3', '180 B', at('0.200'), at('2.200')],
      ['ANALOG-1', 'channel 5 · ANAIN · 0x21 analog F1', '3', '132 B', at('0.300'), at('2.300')],
    ]);
    expect(html).toContain(
      '0 s is the earliest relative time counter of the data and time packets: 2024-03-01T12:00:00.000Z. From the packet headers (every packet header read); no value of the data is shown.',
    );
  });

  test('usage errors exit 2 with one line', async () => {
    expect(await call('preview', fixture('channels.csv.yaml'))).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "importkit preview: give a config file and the data file it imports\nRun 'importkit preview --help' for usage.\n",
    });
    const missing = await call('preview', fixture('channels.csv.yaml'), 'nope.csv');
    expect(missing.code).toBe(2);
    expect(missing.stderr.split('\n')[0]).toBe('importkit preview: nope.csv: no such file');
  });

  test('--help', async () => {
    const r = await call('preview', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: importkit preview <config> <data-file>/);
  });
});

describe('importkit infer --preview', () => {
  test('writes the draft and a page with the evidence table', async () => {
    const r = await call(
      'infer',
      fixture('channels.parquet'),
      '-o',
      'draft.yaml',
      '--preview',
      'draft.html',
    );
    expect(r).toMatchObject({ code: 0, stderr: 'wrote draft.yaml\nwrote draft.html\n' });
    expect(existsSync(join(dir, 'draft.yaml'))).toBe(true);
    const html = readFileSync(join(dir, 'draft.html'), 'utf8');
    expect(html).toContain('<section id="evidence">');
    expect(html).toContain('Config: draft.yaml');
    expect([...html.matchAll(/<div class="plot" data-plot="/g)].length).toBe(4);
  });
});
