/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The preview pages in a real browser: the system's headless Chromium opens the pages of
 * the fixtures from disk and must show no console error and make no request, draw one
 * plot per numeric channel with pixels on each canvas, label the first and last time, zoom
 * every plot together, and mark a wrong-unit config in red. Skipped (one line says why)
 * when no Chromium is installed. With IMPORTKIT_SCREENSHOTS=1 (`npm run docs:screenshots`)
 * it also saves the pictures of the docs, docs/img/preview-*.png, and fails rather than
 * skips without Chromium.
 */
import { readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Browser, findChromium, launchChromium } from '../../scripts/chromium.js';
import { checkConfig } from '../../src/check/index.js';
import type { ImportDocument } from '../../src/model/document.js';
import { buildPreview } from '../../src/preview/index.js';
import { validateConfigText } from '../../src/validate/index.js';

const root = join(import.meta.dirname, '..', '..');
const fixtures = join(root, 'fixtures', 'preview');
const screenshots = process.env.IMPORTKIT_SCREENSHOTS === '1';

/** The docs' pictures: the page of a config and how much of it to show (CSS pixels). */
const SHOTS = [
  { name: 'preview-channels', config: 'channels.csv.yaml', data: 'channels.csv', height: 1440 },
  { name: 'preview-wrong-unit', config: 'wrong-unit.csv.yaml', data: 'channels.csv', height: 620 },
];
const expected = JSON.parse(readFileSync(join(fixtures, 'channels.expected.json'), 'utf8')) as {
  first: string;
  last: string;
  channels: Array<{ name: string; kind: string }>;
};
const chromium = findChromium();

const SKIPPED =
  'browser test skipped: no Chromium (apt-get install -y chromium, or set IMPORTKIT_CHROMIUM)';

if (!chromium && screenshots) {
  test('IMPORTKIT_SCREENSHOTS=1 needs Chromium', () => {
    throw new Error(SKIPPED.replace('browser test skipped', 'no screenshots'));
  });
} else if (!chromium) {
  console.warn(SKIPPED);
  test.skip(SKIPPED, () => {});
} else {
  describe('preview pages in Chromium', () => {
    let dir: string;
    let browser: Browser;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'importkit-preview-browser-'));
      browser = await launchChromium(chromium);
    });
    afterAll(async () => {
      await browser?.close();
      await rm(dir, { recursive: true, force: true });
    });

    /** Writes the page of a fixture config and opens it; what the page did and shows. */
    async function open(
      config: string,
      data: string,
      viewport?: { width: number; height: number },
    ) {
      const configText = readFileSync(join(fixtures, config), 'utf8');
      const document = validateConfigText(configText).documents[0]?.value as ImportDocument;
      const dataPath = join(fixtures, data);
      const issues = await checkConfig(document, dataPath);
      const { html } = await buildPreview({
        document,
        dataPath,
        configText,
        configName: config,
        issues,
        dataName: data,
      });
      const file = join(dir, `${config}.html`);
      await writeFile(file, html);
      const page = await browser.context.newPage();
      if (viewport) await page.setViewportSize(viewport);
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('requestfailed', (r) => problems.push(`failed: ${r.url()}`));
      page.on('request', (r) => requests.push(r.url()));
      const url = pathToFileURL(file).href;
      await page.goto(url);
      await page.waitForSelector('body[data-drawn]', { timeout: 10_000 });
      return { page, problems, requests: requests.filter((r) => r !== url) };
    }

    for (const [config, data] of [
      ['channels.csv.yaml', 'channels.csv'],
      ['channels.parquet.yaml', 'channels.parquet'],
      ['channels.h5.yaml', 'channels.h5'],
      ['channels.tdms.yaml', 'channels.tdms'],
      ['channels.ulg.yaml', 'channels.ulg'],
    ] as const) {
      test(`${data}: no errors or requests, one drawn plot per channel, first and last time`, async () => {
        const { page, problems, requests } = await open(config, data);
        const seen = await page.evaluate(() => ({
          channels: [...document.querySelectorAll<HTMLElement>('.channel')].map((c) => ({
            name: c.dataset.channel,
            kind: c.dataset.kind,
            canvases: c.querySelectorAll('canvas').length,
            tables: c.querySelectorAll('table').length,
          })),
          // A canvas is drawn when some pixel is not transparent.
          blank: [...document.querySelectorAll('canvas')].filter((cv) => {
            const ctx = cv.getContext('2d');
            if (!ctx || cv.width === 0 || cv.height === 0) return true;
            const px = ctx.getImageData(0, 0, cv.width, cv.height).data;
            for (let i = 3; i < px.length; i += 4) if (px[i] !== 0) return false;
            return true;
          }).length,
          first: document.getElementById('time-first')?.textContent,
          last: document.getElementById('time-last')?.textContent,
          bad: document.querySelectorAll('.finding.bad').length,
        }));
        await page.close();
        expect({ problems, requests }).toEqual({ problems: [], requests: [] });
        expect(seen).toEqual({
          channels: expected.channels.map((c) => ({
            ...c,
            canvases: c.kind === 'text' ? 0 : 1,
            tables: c.kind === 'text' ? 1 : 0,
          })),
          blank: 0,
          first: expected.first,
          last: expected.last,
          bad: 0,
        });
      });
    }

    test('a drag on one plot zooms every plot to the same range', async () => {
      const { page } = await open('channels.csv.yaml', 'channels.csv');
      const over = page.locator('.channel .u-over').first();
      const box = await over.boundingBox();
      if (!box) throw new Error('no plot area');
      await page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
      const ranges = await page.evaluate(() =>
        (
          window as unknown as {
            previewPlots: Array<{ scales: { x: { min: number; max: number } } }>;
          }
        ).previewPlots.map((p) => [p.scales.x.min, p.scales.x.max]),
      );
      await page.close();
      const [first] = ranges;
      const full = (Date.parse(expected.last) - Date.parse(expected.first)) / 1000;
      expect(ranges.every((r) => r[0] === first?.[0] && r[1] === first?.[1])).toBe(true);
      expect((first?.[1] ?? 0) - (first?.[0] ?? 0)).toBeLessThan(full / 2);
    });

    test('a wrong-unit config shows the red marker on the time axis', async () => {
      const { page, problems } = await open('wrong-unit.csv.yaml', 'channels.csv');
      const seen = await page.evaluate(() => ({
        findings: [...document.querySelectorAll('.finding.bad')].map((f) => ({
          code: (f as HTMLElement).dataset.code ?? null,
          color: getComputedStyle(f).color,
        })),
        lastColor: getComputedStyle(document.getElementById('time-last') as Element).color,
      }));
      await page.close();
      expect(problems).toEqual([]);
      const red = 'rgb(209, 36, 47)';
      expect(seen).toEqual({
        findings: [
          { code: null, color: red },
          { code: 'time_wrong_unit', color: red },
        ],
        lastColor: red,
      });
    });

    test.runIf(screenshots)("saves the docs' screenshots (IMPORTKIT_SCREENSHOTS=1)", async () => {
      await mkdir(join(root, 'docs', 'img'), { recursive: true });
      for (const shot of SHOTS) {
        const { page, problems } = await open(shot.config, shot.data, { width: 1000, height: 800 });
        const path = join(root, 'docs', 'img', `${shot.name}.png`);
        await page.screenshot({
          path,
          fullPage: true,
          clip: { x: 0, y: 0, width: 1000, height: shot.height },
        });
        await page.close();
        expect(problems).toEqual([]);
        expect(statSync(path).size).toBeGreaterThan(10_000);
      }
    });
  });
}
