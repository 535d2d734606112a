/**
 * The docs' screenshots of preview pages (`npm run docs:screenshots`): the fixture table
 * read by a fitting config and by one with the wrong time unit, written as pages and
 * photographed in the system's headless Chromium into docs/img/preview-*.png.
 */
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { checkConfig } from '../src/check/index.js';
import type { ImportDocument } from '../src/model/document.js';
import { buildPreview } from '../src/preview/index.js';
import { validateConfigText } from '../src/validate/index.js';
import { findChromium, launchChromium } from './chromium.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixtures = join(root, 'fixtures', 'preview');

/** Each shot: the config and data file, and how much of the page to show (CSS pixels). */
const SHOTS = [
  { name: 'preview-channels', config: 'channels.csv.yaml', data: 'channels.csv', height: 1440 },
  { name: 'preview-wrong-unit', config: 'wrong-unit.csv.yaml', data: 'channels.csv', height: 620 },
];

const chromium = findChromium();
if (!chromium) {
  console.error('no Chromium found: apt-get install -y chromium (or set IMPORTKIT_CHROMIUM)');
  process.exit(1);
}
const dir = await mkdtemp(join(tmpdir(), 'importkit-screenshots-'));
const browser = await launchChromium(chromium, { width: 1000, height: 800 });
try {
  await mkdir(join(root, 'docs', 'img'), { recursive: true });
  for (const shot of SHOTS) {
    const configText = readFileSync(join(fixtures, shot.config), 'utf8');
    const document = validateConfigText(configText).documents[0]?.value as ImportDocument;
    const dataPath = join(fixtures, shot.data);
    const issues = await checkConfig(document, dataPath);
    const { html } = await buildPreview({
      document,
      dataPath,
      dataName: shot.data,
      configText,
      configName: shot.config,
      issues,
    });
    const file = join(dir, `${shot.name}.html`);
    await writeFile(file, html);
    const page = await browser.context.newPage();
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('body[data-drawn]');
    const out = join(root, 'docs', 'img', `${shot.name}.png`);
    await page.screenshot({
      path: out,
      fullPage: true,
      clip: { x: 0, y: 0, width: 1000, height: shot.height },
    });
    await page.close();
    console.log(`wrote docs/img/${shot.name}.png`);
  }
} finally {
  await browser.close();
  await rm(dir, { recursive: true, force: true });
}
