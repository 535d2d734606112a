/**
 * `importkit preview` on the 1 MB and 1 GB bench CSVs (default sampling and `--full`):
 * wall time (best of 3 after a warm-up for default sampling; one cold run for `--full`)
 * and peak RSS, each case in its own process so each peak is its own, beside
 * `importkit check` (same sampling) on the same file as the baseline: what the page costs
 * over the check it includes. Then the page in the system's headless Chromium for 10 and
 * 100 channels: page size and load-to-drawn time (navigation start to every plot drawn,
 * best of 5 loads). Goals: default preview of 1 GB ≤ 1.5 × that of 1 MB; drawn in < 1 s
 * for 100 channels.
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stringify } from 'yaml';
import { findChromium, launchChromium } from '../scripts/chromium.js';
import { run } from '../src/cli/run.js';
import { inferConfig } from '../src/infer/index.js';
import type { ImportDocument } from '../src/model/document.js';
import { benchCsv } from './_csv-files.js';
import { best, fmtBytes, measure, table } from './_measure.js';

const quietIo = (cwd: string) => ({
  stdout: { write: () => {} },
  stderr: { write: () => {} },
  env: {},
  cwd,
});

/** Child mode: one command on one file, printing `{ ms, peakRss, code }` as JSON. */
async function one(args: string[]): Promise<void> {
  const cwd = await mkdtemp(join(tmpdir(), 'importkit-bench-preview-'));
  try {
    // Short runs: a warm-up (lazy imports), then the best of 3; a full read runs once.
    const short = !args.includes('--full');
    if (short) await run(args, quietIo(cwd));
    const go = () => run(args, quietIo(cwd));
    const m = short ? await best(3, go) : await measure(go);
    console.log(JSON.stringify({ ms: m.ms, peakRss: m.peakRss, code: m.value }));
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}

function inChild(args: string[]): { ms: number; peakRss: number; code: number } {
  const self = fileURLToPath(import.meta.url);
  const r = spawnSync(process.execPath, ['--expose-gc', self, '--one', ...args], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`bench child failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}');
}

async function files(dir: string) {
  const small = await benchCsv('1 MB');
  const big = await benchCsv('1 GB');
  const config = join(dir, 'csv.yaml');
  await writeFile(config, stringify((await inferConfig(small)).document));
  return { config, cases: [small, big] };
}

async function commandTable(dir: string): Promise<number[]> {
  const { config, cases } = await files(dir);
  const rows: Array<Array<string | number>> = [];
  const defaults: number[] = [];
  for (const data of cases) {
    for (const full of [false, true]) {
      const flag = full ? ['--full'] : [];
      const check = inChild(['check', config, data, ...flag]);
      const preview = inChild(['preview', config, data, '-o', join(dir, 'p.html'), ...flag]);
      if (!full) defaults.push(preview.ms);
      rows.push([
        fmtBytes(statSync(data).size),
        full ? '--full' : 'default',
        `${preview.ms.toFixed(0)} ms`,
        fmtBytes(preview.peakRss),
        `${check.ms.toFixed(0)} ms`,
        fmtBytes(check.peakRss),
        `${(preview.ms / check.ms).toFixed(2)}x`,
      ]);
    }
  }
  table(
    ['file', 'read', 'preview', 'preview peak RSS', 'check', 'check peak RSS', 'preview / check'],
    rows,
  );
  return defaults;
}

/** A CSV of `channels` doubles over `rows` rows at 1 kHz and its config. */
async function wide(dir: string, channels: number, rows: number) {
  const start = Date.UTC(2024, 0, 1);
  const lines = [['t', ...Array.from({ length: channels }, (_, c) => `c${c}`)].join(',')];
  for (let r = 0; r < rows; r++) {
    const v = Array.from({ length: channels }, (_, c) => (Math.sin(r / (50 + c)) * 100).toFixed(3));
    lines.push([start + r, ...v].join(','));
  }
  const data = join(dir, `wide-${channels}.csv`);
  await writeFile(data, `${lines.join('\n')}\n`);
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
  const config = join(dir, `wide-${channels}.yaml`);
  await writeFile(config, stringify(document));
  return { data, config };
}

async function browserTable(dir: string): Promise<number | undefined> {
  const chromium = findChromium();
  if (!chromium) {
    console.log('\nno Chromium: page load-to-drawn not measured (apt-get install -y chromium)');
    return undefined;
  }
  const browser = await launchChromium(chromium);
  const rows: Array<Array<string | number>> = [];
  let drawn100: number | undefined;
  try {
    for (const channels of [10, 100]) {
      const { data, config } = await wide(dir, channels, 50_000);
      const page = join(dir, `wide-${channels}.html`);
      await run(['preview', config, data, '-o', page, '--full'], quietIo(dir));
      const tab = await browser.context.newPage();
      let best = Number.POSITIVE_INFINITY;
      for (let i = 0; i < 5; i++) {
        await tab.goto(pathToFileURL(page).href);
        await tab.waitForSelector('body[data-drawn]');
        const ms = await tab.evaluate(
          () => (globalThis as { previewDrawnAt?: number }).previewDrawnAt,
        );
        best = Math.min(best, ms ?? Number.POSITIVE_INFINITY);
      }
      await tab.close();
      if (channels === 100) drawn100 = best;
      rows.push([channels, '50,000', fmtBytes(statSync(page).size), `${best.toFixed(0)} ms`]);
    }
  } finally {
    await browser.close();
  }
  console.log('');
  table(['channels', 'rows', 'page size', 'load to drawn (best of 5)'], rows);
  return drawn100;
}

if (process.argv[2] === '--one') {
  await one(process.argv.slice(3));
} else {
  const dir = await mkdtemp(join(tmpdir(), 'importkit-bench-preview-'));
  try {
    const [small, big] = await commandTable(dir);
    const drawn = await browserTable(dir);
    console.log('');
    if (small && big) {
      const ratio = big / small;
      console.log(
        `default preview 1 GB / 1 MB: ${ratio.toFixed(2)}x (goal ≤ 1.5x: ${ratio <= 1.5 ? 'met' : 'NOT met'})`,
      );
    }
    if (drawn !== undefined) {
      console.log(
        `100 channels drawn in ${drawn.toFixed(0)} ms (goal < 1000 ms: ${drawn < 1000 ? 'met' : 'NOT met'})`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
