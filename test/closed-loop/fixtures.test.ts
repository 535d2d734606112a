/**
 * The closed loop over every data file in fixtures/: what `infer` writes, `lint` accepts,
 * `fmt --check` leaves alone, and `check` (sampled and `--full`) finds no error in that
 * infer did not report. A file infer refuses (a damaged fixture), check refuses too, with
 * the same code: a file called damaged stays damaged.
 *
 * The files are found by walking fixtures/, so a fixture added later is covered without
 * editing this test: `fixtures/<area>/<file>` is one data file, a folder inside an area is
 * a batch (its files are its members), and files of the kinds in NOT_DATA are skipped.
 * Each file is inferred by the library (`inferConfig`, or `inferBatch` for a folder or an
 * archive) and by the command line in-process (`run`), as YAML and as JSON; the written
 * drafts are then linted, formatted and checked by the command line.
 *
 * What still contradicts lies deep in one format's inspector or checker: each such case
 * is listed, with its reason, in KNOWN_CONTRADICTIONS, which must be exact (a case that no
 * longer contradicts fails its test, so the table only shrinks).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { checkConfig, checkFormats } from '../../src/check/index.js';
import { formatConfigText } from '../../src/fmt/index.js';
import { type Draft, inferBatch, inferConfig, RESTATED_BY } from '../../src/infer/index.js';
import { containerKind, InspectError, inspectFormats } from '../../src/inspect/index.js';
import type { ImportDocument } from '../../src/model/index.js';
import type { Issue, IssueCode } from '../../src/model/plain.js';
import { runCli } from '../helpers/cli.js';
import { repoRoot } from '../helpers/paths.js';

/**
 * Contradictions left to the formats' own code, `<fixture> | <stage>: <code>` → why. Only
 * ever remove entries: each test fails when its file's list differs from this one.
 */
const KNOWN_CONTRADICTIONS: Readonly<Record<string, string>> = {
  'ch10/error-no-tmats.ch10 | check: fits':
    'CH10 has no check yet: check reads the config alone, so a file infer refuses fits',
  'ch10/error-no-tmats.ch10 | check --full: fits': 'CH10 has no check yet (as above)',
  'ch10/error-not-ch10.ch10 | check: fits': 'CH10 has no check yet (as above)',
  'ch10/error-not-ch10.ch10 | check --full: fits': 'CH10 has no check yet (as above)',
  'ch10/error-truncated.ch10 | check: fits': 'CH10 has no check yet (as above)',
  'ch10/error-truncated.ch10 | check --full: fits': 'CH10 has no check yet (as above)',
  'check-hdf5/every-finding.h5 | check --full: time_not_parseable':
    "HDF5: infer reads a few values of each time dataset, not /grid's NaN time",
  'check-hdf5/every-finding.h5 | check --full: value_outside_type':
    "HDF5: infer reads no values of value datasets, so not /flag's bool byte of 2",
  'check-hdf5/float-time.h5 | check --full: time_not_parseable':
    "HDF5: infer reads a few values of each time dataset, not /t's NaN time",
  'check-parquet/every-finding.parquet | check --full: time_null':
    "Parquet: the footer's statistics count 2 null times, but infer does not report them",
  'ulog/damaged-truncated.ulg | check: ulog_damage_fails_import':
    'ULog: infer warns ulog_damaged but drafts the default FAIL_ON_ERROR parseErrorPolicy, which check says fails the import',
  'ulog/damaged-truncated.ulg | check --full: ulog_damage_fails_import':
    'ULog: as above, with --full',
};

const FIXTURES = join(repoRoot, 'fixtures');

/** Files in fixtures/ that are not data, by name; each is skipped for its reason. */
const NOT_DATA: ReadonlyArray<{ name: RegExp; why: string }> = [
  { name: /\.expected\.json$/, why: 'what a fixture test expects' },
  { name: /\.(ya?ml|json)$/, why: 'a config' },
  { name: /(^|\/)README\.md$/, why: 'a README' },
  { name: /\.tdms_index$/, why: 'the index beside a TDMS file, read with it' },
];

interface Case {
  /** Its path under fixtures/ (a folder's ends in `/`). */
  id: string;
  path: string;
}

/** Every data file and batch folder under fixtures/, and the files skipped with their reason. */
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
      if (entry.isDirectory()) cases.push({ id: `${id}/`, path });
      else if (!skip(id)) cases.push({ id, path });
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

const cli = (argv: readonly string[]) => runCli(repoRoot, argv);

type Outcome = { draft: Draft } | { refused: Issue };

/** The library's draft of a file, folder or archive, or the issue it refused it with. */
async function inferLibrary(path: string): Promise<Outcome> {
  try {
    const container = (await containerKind(path)) !== undefined;
    return { draft: container ? await inferBatch(path) : await inferConfig(path) };
  } catch (err) {
    if (err instanceof InspectError) return { refused: err.issue };
    throw err;
  }
}

/** The codes of the errors a `--reporter json` run reported, or of the error it stopped with. */
function errorCodes(r: { stdout: string; stderr: string }): Issue[] {
  const stopped = /^importkit \w+: error ([a-z0-9_]+): (.*)$/m.exec(r.stderr);
  if (stopped)
    return [{ code: stopped[1], severity: 'error', path: '', message: stopped[2] } as Issue];
  const out = JSON.parse(r.stdout) as { files: Array<{ issues: Issue[] }> };
  return out.files.flatMap((f) => f.issues).filter((i) => i.severity === 'error');
}

/** Pointers to a whole config (or to every member of a batch): about the whole file, no place. */
const WHOLE_FILE = /^(\/\w+Config|\/batchConfig\/(fileConfigs|default\w+Config))?$/;

/** One place in a document holds the other, below a whole config. */
function samePlace(a: string, b: string): boolean {
  if (WHOLE_FILE.test(a) || WHOLE_FILE.test(b)) return false;
  return a === b || b.startsWith(`${a}/`) || a.startsWith(`${b}/`);
}

/** Collects `<stage>: <code>` contradictions of one file, each with one example message. */
class Findings {
  readonly seen = new Map<string, string>();
  add(stage: string, code: string, message = ''): void {
    if (!this.seen.has(`${stage}: ${code}`)) this.seen.set(`${stage}: ${code}`, message);
  }
}

/**
 * The config key of the kind a damaged file is named as (`batchConfig` for a folder or an
 * archive): its extension says what the user took it for.
 */
async function configKeyOf(path: string): Promise<string> {
  if ((await containerKind(path)) !== undefined) return 'batchConfig';
  const name = path.toLowerCase().replace(/\.gz$/, '');
  const format = inspectFormats().find((f) => f.extensions.some((e) => name.endsWith(e)))?.id;
  const key = checkFormats().find((f) => f.id === format)?.configKey;
  if (key === undefined) throw new Error(`${path}: no config reads a file of its name`);
  return key;
}

/** infer refused the file: the command line refuses it alike, and so does check. */
async function refusedLoop(c: Case, refused: Issue, out: Findings): Promise<void> {
  const draftFile = join(dir, `${c.id.replace(/\W/g, '_')}.yaml`);
  for (const format of ['yaml', 'json']) {
    const r = await cli(['infer', c.path, '--format', format, '-o', draftFile]);
    const said = errorCodes(r)[0]?.code;
    if (r.code !== 1 || said !== refused.code) out.add(`infer ${format}`, said ?? `exit ${r.code}`);
    if (existsSync(draftFile)) out.add(`infer ${format}`, 'wrote a draft');
  }
  // Check is given the least config of the file's kind: the file must be refused anyway.
  const configKey = await configKeyOf(c.path);
  await writeFile(draftFile, `${configKey}: {}\n`);
  for (const full of [false, true]) {
    const stage = full ? 'check --full' : 'check';
    const library = await checkConfig({ [configKey]: {} } as ImportDocument, c.path, {
      full,
    }).then(
      (issues) => issues.filter((i) => i.severity === 'error'),
      (err: unknown) => (err instanceof InspectError ? [err.issue] : Promise.reject(err)),
    );
    const r = await cli([
      'check',
      '--reporter',
      'json',
      ...(full ? ['--full'] : []),
      draftFile,
      c.path,
    ]);
    for (const errors of [library, errorCodes(r)]) {
      if (!errors.some((i) => i.code === refused.code))
        out.add(stage, errors[0]?.code ?? 'fits', errors[0]?.message);
    }
  }
}

/** infer drafted a config: the written drafts are that draft, lint, fmt and check accept them. */
async function draftLoop(c: Case, draft: Draft, out: Findings): Promise<void> {
  const errors = draft.issues.filter((i) => i.severity === 'error');
  // Lint restates what infer said in the validator's words (RESTATED_BY).
  const said = new Set(
    errors.flatMap((i) => [i.code, ...(RESTATED_BY[i.code as IssueCode] ?? [])]),
  );
  // Check may report what infer reported: the same code, or an error about the same place.
  const saidBefore = (i: Issue) =>
    said.has(i.code) || errors.some((e) => samePlace(e.path, i.path));
  const base = join(dir, c.id.replace(/\W/g, '_'));
  for (const format of ['yaml', 'json'] as const) {
    const file = `${base}.${format}`;
    const r = await cli(['infer', c.path, '--format', format, '-o', file]);
    if (r.code !== (errors.length > 0 ? 1 : 0)) out.add(`infer ${format}`, `exit ${r.code}`);
    const text = await readFile(file, 'utf8');
    const written = (format === 'json' ? JSON.parse(text) : parse(text)) as ImportDocument;
    if (JSON.stringify(written) !== JSON.stringify(draft.document))
      out.add(`infer ${format}`, 'not the library draft', text);

    const lint = await cli(['lint', '--reporter', 'json', file]);
    for (const i of errorCodes(lint)) if (!said.has(i.code)) out.add('lint', i.code, i.message);

    const fmt = await cli(['fmt', '--check', file]);
    if (fmt.code !== 0 || fmt.stdout !== '' || fmt.stderr !== '') {
      const result = formatConfigText(text, { filename: file });
      for (const change of result.changes)
        out.add(`fmt ${format}`, change.replace(/^.*: /, ''), change);
      if (result.error)
        out.add(`fmt ${format}`, result.error.code ?? 'error', result.error.message);
    }

    for (const full of [false, true]) {
      const stage = full ? 'check --full' : 'check';
      const r = await cli([
        'check',
        '--reporter',
        'json',
        ...(full ? ['--full'] : []),
        file,
        c.path,
      ]);
      for (const i of errorCodes(r)) if (!saidBefore(i)) out.add(stage, i.code, i.message);
    }
  }
}

describe.concurrent('every data file of fixtures/: infer → lint → fmt → check', () => {
  for (const c of found.cases) {
    test(c.id, async () => {
      const out = new Findings();
      const outcome = await inferLibrary(c.path);
      if ('refused' in outcome) await refusedLoop(c, outcome.refused, out);
      else await draftLoop(c, outcome.draft, out);
      const got = [...out.seen.keys()].map((k) => `${c.id} | ${k}`).sort();
      const known = Object.keys(KNOWN_CONTRADICTIONS)
        .filter((k) => k.startsWith(`${c.id} | `))
        .sort();
      const shown = got.map(
        (k) => `${k}  (${out.seen.get(k.slice(c.id.length + 3))?.split('\n')[0]})`,
      );
      expect(got, shown.join('\n')).toEqual(known);
    }, 120_000);
  }
});

describe('the walk over fixtures/', () => {
  test('finds a data file of every format and kind of batch, and skips only what is not data', () => {
    const kinds = new Set(
      found.cases.map((c) =>
        c.id.endsWith('/') ? 'folder' : (/\.tar\.gz$|\.csv\.gz$/.exec(c.id)?.[0] ?? extname(c.id)),
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
  });

  test('every known contradiction names a file the walk found', () => {
    const ids = new Set(found.cases.map((c) => c.id));
    const stale = Object.keys(KNOWN_CONTRADICTIONS).filter(
      (k) => !ids.has(k.split(' | ')[0] ?? ''),
    );
    expect(stale).toEqual([]);
  });
});
