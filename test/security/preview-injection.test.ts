/// <reference lib="dom" />
/**
 * The preview page against hostile text (security round 2, point 1): every field of every
 * config kind, the file and config names, the evidence and the issues carry a payload, and
 * the page opened in the system's headless Chromium must run none of it: the title stays,
 * no dialog opens, no request is made, the console stays quiet, and no element or event
 * handler attribute of a payload is in the document. The payloads are placed by walking
 * each kind's JSON Schema (generated from the zod model), so a field added later gets one:
 *
 * - "every field": each leaf of the schema (strings, numbers, enums, map keys) is a payload.
 *   The config is invalid and no row is read; the page shows the config and its issues.
 * - "rows read": a config that reads rows (the preview fixtures, a Parquet long form, a CSV
 *   whose header and values are payloads) with a payload in every leaf it still reads rows
 *   with (found by trying them, halving the set on failure), so the channel blocks show
 *   payloads as names, units, types and values.
 *
 * A last test writes raw payloads into a page past the escaping, to show that the page's
 * Content Security Policy stops them on its own. Skipped (one line says why) when no
 * Chromium is installed, as the preview browser test is.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Browser, findChromium, launchChromium } from '../../scripts/chromium.js';
import { checkConfig, readConfigRows } from '../../src/check/index.js';
import { type Evidence, inferConfig } from '../../src/infer/index.js';
import {
  CONFIG_KIND_KEYS,
  CONFIG_KIND_NAMES,
  type ConfigKind,
  generateSchemas,
  type ImportDocument,
} from '../../src/model/index.js';
import type { Issue } from '../../src/model/plain.js';
import { buildPreview } from '../../src/preview/index.js';
import { validateConfig, validateConfigText } from '../../src/validate/index.js';

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures');
const chromium = findChromium();
const SKIPPED =
  'preview injection test skipped: no Chromium (apt-get install -y chromium, or set IMPORTKIT_CHROMIUM)';

/**
 * One payload per place: an image whose error handler, a script, an SVG whose load handler
 * and an iframe whose document would each set the title; breakouts from an attribute, a
 * script element and a style element; a dialog.
 */
function payload(place: string): string {
  return `P{${place}}<img src=x onerror="document.title='PWNED'">"'><svg onload="document.title='PWNED'"></svg></script><script>document.title='PWNED'</script></style><iframe srcdoc="<script>parent.document.title='PWNED'</script>"></iframe>" autofocus onfocus="alert('PWNED')" x='`;
}

/** A data file of each kind (CH10 and batch rows are not read: their page shows a note). */
const DATA: Record<ConfigKind, string> = {
  csv: join(fixtures, 'preview', 'channels.csv'),
  parquet: join(fixtures, 'preview', 'channels.parquet'),
  hdf5: join(fixtures, 'preview', 'channels.h5'),
  tdms: join(fixtures, 'preview', 'channels.tdms'),
  ulog: join(fixtures, 'preview', 'channels.ulg'),
  ch10: join(fixtures, 'ch10', 'recorder.ch10'),
  batch: join(fixtures, 'batch', 'campaign.zip'),
};

type Schema = Record<string, unknown>;
type Json = unknown;

/**
 * A value of `schema` with every leaf given by `leaf(pointer)`: each property, one item of
 * each array, one entry of each map (its key from `leaf` too, at `<pointer>/~key`).
 */
function fill(
  schema: Schema,
  defs: Record<string, Schema>,
  at: string,
  leaf: (p: string) => Json,
): Json {
  const ref = schema.$ref as string | undefined;
  if (ref) return fill(defs[ref.replace('#/$defs/', '')] ?? {}, defs, at, leaf);
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (variants?.[0]) return fill(variants[0], defs, at, leaf);
  if (schema.type === 'array') return [fill(schema.items as Schema, defs, `${at}/0`, leaf)];
  if (schema.type !== 'object') return leaf(at);
  const out: Record<string, Json> = {};
  for (const [k, sub] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    out[k] = fill(sub, defs, `${at}/${k}`, leaf);
  }
  const extra = schema.additionalProperties;
  if (typeof extra === 'object' && extra !== null) {
    const key = String(leaf(`${at}/~key`));
    out[key] = fill(extra as Schema, defs, `${at}/${key}`, leaf);
  }
  return out;
}

/** The document of `kind` with a payload in every leaf of its schema. */
function everyField(kind: ConfigKind): ImportDocument {
  const schema = generateSchemas()[kind];
  const defs = (schema.$defs ?? {}) as Record<string, Schema>;
  return {
    [CONFIG_KIND_KEYS[kind]]: fill(schema, defs, `/${CONFIG_KIND_KEYS[kind]}`, payload),
  } as ImportDocument;
}

/** Each leaf of a document: its pointer and its template (array indexes and map keys as `*`). */
function leaves(v: Json, at = ''): Array<{ pointer: string[]; template: string }> {
  if (typeof v !== 'object' || v === null) return [{ pointer: [], template: '' }];
  return Object.entries(v).flatMap(([k, child]) =>
    leaves(child, `${at}/${k}`).map((l) => ({
      pointer: [k, ...l.pointer],
      template: `/${Array.isArray(v) || /^\d+$/.test(k) ? '*' : k}${l.template}`,
    })),
  );
}

function withLeaf(doc: Json, pointer: string[], value: Json): Json {
  const [head, ...rest] = pointer;
  if (head === undefined) return value;
  const copy = (Array.isArray(doc) ? [...doc] : { ...(doc as object) }) as Record<string, Json>;
  copy[head] = withLeaf(copy[head], rest, value);
  return copy;
}

/** What rows a document reads from its file: channel count and rows (undefined: none). */
async function rowsOf(doc: ImportDocument, data: string): Promise<string | undefined> {
  try {
    const rows = await readConfigRows(doc, data);
    if (!rows) return undefined;
    const read = await rows.read(() => {});
    return `${rows.channels.length} channels, ${read.rows} rows`;
  } catch {
    return undefined;
  }
}

/**
 * `doc` with a payload in every leaf template it still reads the same rows with. The
 * templates are tried together; a set that changes the rows is halved and each half tried.
 */
async function payloadsThatRead(doc: ImportDocument, data: string) {
  const baseline = await rowsOf(doc, data);
  const all = leaves(doc);
  const templates = [...new Set(all.map((l) => l.template))];
  const apply = (d: Json, chosen: readonly string[]) =>
    all
      .filter((l) => chosen.includes(l.template))
      .reduce((acc, l) => withLeaf(acc, l.pointer, payload(`/${l.pointer.join('/')}`)), d);
  let current: Json = doc;
  const kept: string[] = [];
  const tryAll = async (set: string[]): Promise<void> => {
    const candidate = apply(current, set);
    if ((await rowsOf(candidate as ImportDocument, data)) === baseline) {
      current = candidate;
      kept.push(...set);
    } else if (set.length > 1) {
      await tryAll(set.slice(0, set.length >> 1));
      await tryAll(set.slice(set.length >> 1));
    }
  };
  await tryAll(templates);
  return { document: current as ImportDocument, kept: kept.sort(), baseline };
}

/** Evidence and an issue with a payload in each of their text fields. */
function hostileEvidence(): Evidence[] {
  return [
    {
      path: payload('evidence/path'),
      choice: payload('evidence/choice'),
      reason: payload('evidence/reason'),
      confidence: 'high',
      alternatives: [payload('evidence/alternatives/0'), payload('evidence/alternatives/1')],
    },
  ];
}
function hostileIssues(): Issue[] {
  const base = {
    code: payload('issue/code'),
    severity: 'error',
    path: payload('issue/path'),
    message: payload('issue/message'),
    hint: payload('issue/hint'),
  } as unknown as Issue;
  return [base, { ...base, line: 2, column: 1 }];
}

/** A CSV whose header names and text values are payloads, with its inferred config. */
async function hostileCsv(dir: string) {
  const file = join(dir, 'hostile.csv');
  const text = payload('csv/text').replace(/[,\n\r"]/g, ' ');
  const rows = Array.from(
    { length: 20 },
    (_, i) => `${1714557600000 + i * 1000},${i * 1.5},"${text.replaceAll('"', '""')} ${i}"`,
  );
  const header = ['time', payload('csv/header/value'), payload('csv/header/text')]
    .map((h) => `"${h.replaceAll('"', '""')}"`)
    .join(',');
  await writeFile(file, `${header}\n${rows.join('\n')}\n`);
  const draft = await inferConfig(file);
  return { file, document: draft.document as ImportDocument, evidence: draft.evidence };
}

if (!chromium) {
  console.warn(SKIPPED);
  test.skip(SKIPPED, () => {});
} else {
  describe('preview pages with a payload in every field, in Chromium', () => {
    let dir: string;
    let browser: Browser;
    /** One tab for every page (a new tab per page costs more than its page). */
    let page: Page;
    /** What the page being opened did: reset at each `open`. */
    let did = {
      messages: [] as string[],
      dialogs: [] as string[],
      requests: [] as string[],
      blocked: [] as string[],
    };
    let url = '';
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'importkit-preview-injection-'));
      browser = await launchChromium(chromium);
      page = await browser.context.newPage();
      page.on('console', (m) => did.messages.push(`${m.type()}: ${m.text()}`));
      page.on('pageerror', (e) => did.messages.push(`pageerror: ${e.message}`));
      page.on('dialog', (d) => {
        did.dialogs.push(d.message());
        void d.dismiss();
      });
      // A request the policy blocks is announced, then fails with `csp`: it never leaves.
      page.on('request', (r) => {
        if (r.url() !== url) did.requests.push(r.url());
      });
      page.on('requestfailed', (r) => {
        if (r.failure()?.errorText === 'csp') {
          did.requests.splice(did.requests.indexOf(r.url()), 1);
          did.blocked.push(r.url().replace(/^.*\//, ''));
        }
      });
    });
    afterAll(async () => {
      await browser?.close();
      await rm(dir, { recursive: true, force: true });
    });

    /** Opens a page's HTML from disk; what ran, what was asked for, what the DOM holds. */
    async function open(name: string, pageHtml: string) {
      const file = join(dir, `${name}.html`);
      await writeFile(file, pageHtml);
      did = { messages: [], dialogs: [], requests: [], blocked: [] };
      url = pathToFileURL(file).href;
      await page.goto(url);
      await page.waitForSelector('body[data-drawn]', { timeout: 10_000 }).catch(() => {});
      // Let error and load events of anything injected fire before looking.
      await page.evaluate(
        () =>
          new Promise((r) =>
            requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50))),
          ),
      );
      const dom = await page.evaluate(() => ({
        title: document.title,
        drawn: document.body.hasAttribute('data-drawn'),
        handlers: [...document.querySelectorAll('*')].flatMap((el) =>
          [...el.attributes]
            .filter((a) => a.name.startsWith('on'))
            .map((a) => `${el.localName} ${a.name}`),
        ),
        // The page draws one SVG of its own: a CH10 channel's packet span (#timeline svg.span).
        injected: [...document.querySelectorAll('img, svg, iframe, [autofocus]')]
          .filter((el) => !el.matches('#timeline svg.span'))
          .map((el) => el.localName),
        scripts: document.scripts.length,
        styled: getComputedStyle(document.getElementById('styled') ?? document.body).color,
        channels: [...document.querySelectorAll<HTMLElement>('.channel')].map(
          (c) => c.textContent?.includes('P{') ?? false,
        ),
      }));
      return {
        console: did.messages,
        dialogs: did.dialogs,
        requests: did.requests,
        blocked: did.blocked,
        dom,
      };
    }

    /** The page of `document` × `data`, its names and issues hostile too, and what it did. */
    async function preview(
      name: string,
      document: ImportDocument,
      data: string,
      extra: { evidence?: Evidence[] } = {},
    ) {
      const configText = JSON.stringify(document, null, 2);
      const dataName = payload('file name');
      const validated = validateConfig(document).issues;
      const checked = await checkConfig(document, data).catch(() => [] as Issue[]);
      const { html } = await buildPreview({
        document,
        dataPath: data,
        dataName,
        configText,
        configName: payload('config name'),
        issues: [...validated, ...checked, ...hostileIssues()],
        evidence: [...(extra.evidence ?? []), ...hostileEvidence()],
      });
      const seen = await open(name, html);
      return {
        ...seen,
        expectedTitle: `importkit preview: ${dataName}`.replace(/\s+/g, ' ').trim(),
      };
    }

    const nothingRan = (seen: Awaited<ReturnType<typeof preview>>) => ({
      title: seen.dom.title,
      dialogs: seen.dialogs,
      requests: seen.requests,
      blocked: seen.blocked,
      console: seen.console,
      handlers: seen.dom.handlers,
      injected: seen.dom.injected,
      scripts: seen.dom.scripts,
      drawn: seen.dom.drawn,
    });
    const clean = (title: string) => ({
      title,
      dialogs: [],
      requests: [],
      blocked: [],
      console: [],
      handlers: [],
      injected: [],
      scripts: 3,
      drawn: true,
    });

    for (const kind of CONFIG_KIND_NAMES) {
      test(`${kind}: a payload in every field of the schema runs nothing`, async () => {
        const seen = await preview(`every-${kind}`, everyField(kind), DATA[kind]);
        expect(nothingRan(seen)).toEqual(clean(seen.expectedTitle));
      });
    }

    /** A config that reads rows; `named`: its channels named by the config (default all). */
    interface Reader {
      document: ImportDocument;
      data: string;
      evidence?: Evidence[];
      named?: number;
    }
    const readers: Array<[string, () => Promise<Reader>]> = [
      ...(['csv', 'parquet', 'h5', 'tdms', 'ulg'] as const).map(
        (ext): [string, () => Promise<Reader>] => [
          `channels.${ext}`,
          async () => {
            const text = readFileSync(join(fixtures, 'preview', `channels.${ext}.yaml`), 'utf8');
            const document = validateConfigText(text).documents[0]?.value as ImportDocument;
            return { document, data: join(fixtures, 'preview', `channels.${ext}`) };
          },
        ],
      ),
      [
        'long-form.parquet (singleChannelPerRow)',
        async () => {
          const data = join(fixtures, 'parquet', 'long-form.parquet');
          // Three channels named by the rows' `signal` column, one (quality) by the config.
          return { document: (await inferConfig(data)).document as ImportDocument, data, named: 1 };
        },
      ],
      [
        'a CSV whose header and text values are payloads',
        async () => {
          const csv = await hostileCsv(dir);
          return { document: csv.document, data: csv.file, evidence: csv.evidence };
        },
      ],
    ];
    for (const [name, load] of readers) {
      test(`${name}: the rows are read with payloads in names, units and types, and nothing runs`, async () => {
        const { document, data, evidence, named } = await load();
        const hostile = await payloadsThatRead(document, data);
        expect(hostile.baseline).toMatch(/^[1-9]\d* channels, [1-9]\d* rows$/);
        expect(hostile.kept).toEqual(expect.arrayContaining([expect.stringMatching(/\/name$/)]));
        const seen = await preview(`rows-${name.replace(/\W+/g, '-')}`, hostile.document, data, {
          ...(evidence ? { evidence } : {}),
        });
        expect(nothingRan(seen)).toEqual(clean(seen.expectedTitle));
        // Every channel block is there, and those the config names show a payload.
        const channels = Number(/^(\d+)/.exec(hostile.baseline ?? '')?.[1]);
        expect(seen.dom.channels).toHaveLength(channels);
        expect(seen.dom.channels.filter(Boolean).length).toBe(named ?? channels);
      });
    }

    test('raw markup written into a page past the escaping is stopped by its policy', async () => {
      const text = readFileSync(join(fixtures, 'preview', 'channels.csv.yaml'), 'utf8');
      const document = validateConfigText(text).documents[0]?.value as ImportDocument;
      const data = join(fixtures, 'preview', 'channels.csv');
      const { html } = await buildPreview({
        document,
        dataPath: data,
        configText: text,
        configName: 'c.yaml',
        issues: [],
      });
      const raw = `<img src="x" onerror="document.title='PWNED'"><script>document.title='PWNED'</script><div onclick="x" style="color: red" id="styled">styled</div>`;
      const seen = await open(
        'raw',
        html.replace('<header id="summary">', `${raw}<header id="summary">`),
      );
      // The markup is there, and the policy refused each thing it tried, saying so.
      expect({
        title: seen.dom.title,
        dialogs: seen.dialogs,
        requests: seen.requests,
        blocked: seen.blocked,
        handlers: seen.dom.handlers,
        injected: seen.dom.injected,
        scripts: seen.dom.scripts,
        drawn: seen.dom.drawn,
        styled: seen.dom.styled,
      }).toEqual({
        title: 'importkit preview: channels.csv',
        dialogs: [],
        requests: [],
        blocked: ['x'],
        handlers: ['img onerror', 'div onclick'],
        injected: ['img'],
        scripts: 4,
        drawn: true,
        styled: 'rgb(31, 35, 40)',
      });
      // Each of the four is refused, and the console says nothing else. The order, and how
      // often a refusal is reported, are the browser's: Chromium 156.0.8078.108 reports the
      // inline event handler twice (first and fourth), 156.0.8078.73 once (last).
      const refused = [
        "Loading the image '.*/x'",
        'Executing inline script',
        'Applying inline style',
        'Executing inline event handler',
      ].map(
        (what) =>
          new RegExp(`^error: ${what} violates the following Content Security Policy directive`),
      );
      expect(seen.console.filter((line) => !refused.some((r) => r.test(line)))).toEqual([]);
      for (const r of refused) expect(seen.console.some((line) => r.test(line))).toBe(true);
    });
  });
}
