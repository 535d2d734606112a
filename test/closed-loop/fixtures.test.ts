/**
 * The closed loop over every data file in fixtures/: what `infer` writes, `lint` accepts,
 * `fmt --check` leaves alone, and `check` (sampled and `--full`) finds no error in that
 * infer did not report. A file infer refuses (a damaged fixture), check refuses too, with
 * the same code: a file called damaged stays damaged.
 *
 * The files are found by walking fixtures/, so a fixture added later is covered without
 * editing this test: `fixtures/<area>/<file>` is one data file, a folder inside an area is
 * a batch (its files are its members), and files of the kinds in NOT_DATA are skipped.
 * The loop itself (library and command line, YAML and JSON drafts) is `closedLoop`
 * (test/helpers/closed-loop.ts), shared with the property tests on generated files.
 *
 * What still contradicts lies deep in one format's inspector or checker: each such case
 * is listed, with its reason, in KNOWN_CONTRADICTIONS, which must be exact (a case that no
 * longer contradicts fails its test, so the table only shrinks).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { closedLoop, inferFlags, type LoopOptions } from '../helpers/closed-loop.js';
import { repoRoot } from '../helpers/paths.js';

// =======================================================================================
// KNOWN CONTRADICTIONS: the only exceptions to the loop.
//
// Each lies deep in one format's own inspector, inferer or checker, left to that format's
// rework: `<fixture> | <stage>: <code>` → why, in one line. Only ever remove entries: the
// test of a file fails when its contradictions differ from its entries here, in either
// direction, so a fixed case must leave the table.
// =======================================================================================
const KNOWN_CONTRADICTIONS: Readonly<Record<string, string>> = {};

const FIXTURES = join(repoRoot, 'fixtures');

/** Files in fixtures/ that are not data, by name; each is skipped for its reason. */
const NOT_DATA: ReadonlyArray<{ name: RegExp; why: string }> = [
  { name: /\.expected\.json$/, why: 'what a fixture test expects' },
  { name: /\.(ya?ml|json)$/, why: 'a config' },
  { name: /(^|\/)README\.md$/, why: 'a README' },
  { name: /\.tdms_index$/, why: 'the index beside a TDMS file, read with it' },
];

interface Case {
  /** Its path under fixtures/ (a folder's ends in `/`), then the flags infer is given. */
  id: string;
  path: string;
  options: LoopOptions;
}

/**
 * The options a fixture is inferred with in its own test: `options` of the `<case>.expected.json`
 * beside it (the file's name without its extensions), when it has some.
 */
async function fixtureOptions(path: string): Promise<LoopOptions | undefined> {
  const expected = path.replace(/\.[^/]*$/, '.expected.json');
  const text = await readFile(expected, 'utf8').catch(() => undefined);
  const options =
    text === undefined ? undefined : (JSON.parse(text) as { options?: LoopOptions }).options;
  return options && Object.keys(options).length > 0 ? options : undefined;
}

/**
 * Every data file and batch folder under fixtures/ (a file whose expectation gives infer
 * options twice: without them and with them), and the files skipped with their reason.
 */
async function discover(): Promise<{ cases: Case[]; skipped: Map<string, string> }> {
  const cases: Case[] = [];
  const skipped = new Map<string, string>();
  const skip = (id: string) => {
    const why = NOT_DATA.find((n) => n.name.test(id))?.why;
    if (why !== undefined) skipped.set(id, why);
    return why !== undefined;
  };
  for (const area of await readdir(FIXTURES, { withFileTypes: true })) {
    if (!area.isDirectory()) {
      if (!skip(area.name)) throw new Error(`fixtures/${area.name}: a file outside any area`);
      continue;
    }
    for (const entry of await readdir(join(FIXTURES, area.name), { withFileTypes: true })) {
      const path = join(FIXTURES, area.name, entry.name);
      const id = relative(FIXTURES, path).split('\\').join('/');
      if (entry.isDirectory()) cases.push({ id: `${id}/`, path, options: {} });
      else if (!skip(id)) {
        cases.push({ id, path, options: {} });
        // Inferred a second time with the options its own test gives, as flags.
        const options = await fixtureOptions(path);
        if (options) cases.push({ id: `${id} ${inferFlags(options).join(' ')}`, path, options });
      }
    }
  }
  return { cases: cases.sort((a, b) => (a.id < b.id ? -1 : 1)), skipped };
}

const found = await discover();

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-closed-loop-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.concurrent('every data file of fixtures/: infer → lint → fmt → check', () => {
  for (const [n, c] of found.cases.entries()) {
    test(c.id, async () => {
      const seen = await closedLoop(c.path, dir, `case-${n}`, c.options);
      const got = [...seen.keys()].map((k) => `${c.id} | ${k}`).sort();
      const known = Object.keys(KNOWN_CONTRADICTIONS)
        .filter((k) => k.startsWith(`${c.id} | `))
        .sort();
      const shown = [...seen].map(([k, message]) => `${k}  (${message.split('\n')[0]})`);
      expect(got, shown.join('\n')).toEqual(known);
    }, 120_000);
  }
});

describe('the walk over fixtures/', () => {
  test('finds a data file of every format and kind of batch, and skips only what is not data', () => {
    const kinds = new Set(
      found.cases.map((c) =>
        c.id.endsWith('/')
          ? 'folder'
          : (/\.tar\.gz$|\.csv\.gz$/.exec(c.path)?.[0] ?? extname(c.path)),
      ),
    );
    expect([...kinds].sort()).toEqual(
      [
        '.ch10',
        '.csv',
        '.csv.gz',
        '.h5',
        '.parquet',
        '.tar',
        '.tar.gz',
        '.tdms',
        '.tsv',
        '.ulg',
        '.zip',
        'folder',
      ].sort(),
    );
    const reasons = new Set(found.skipped.values());
    expect([...reasons].sort()).toEqual(NOT_DATA.map((n) => n.why).sort());
    // The options of a fixture's own test are given to infer too.
    expect(found.cases.filter((c) => Object.keys(c.options).length > 0).length).toBeGreaterThan(0);
  });

  test('every known contradiction names a file the walk found', () => {
    const ids = new Set(found.cases.map((c) => c.id));
    const stale = Object.keys(KNOWN_CONTRADICTIONS).filter(
      (k) => !ids.has(k.split(' | ')[0] ?? ''),
    );
    expect(stale).toEqual([]);
  });
});
