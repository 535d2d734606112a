/**
 * The closed loop of one data file: what `infer` writes, `lint` accepts, `fmt --check`
 * leaves alone, and `check` (sampled and `--full`) finds no error in that infer did not
 * report (and exits 1 exactly when it reports an error); a file infer refuses, check refuses too, with the same code. Shared by the test
 * over every fixture and the property tests on generated files.
 *
 * The file is inferred by the library (`inferConfig`, or `inferBatch` for a folder or an
 * archive) and by the command line in-process (`run`), as YAML and as JSON; the written
 * drafts are linted, formatted and checked by the command line. Infer's options are given
 * to the command line as their flags, and the CSV dialect (delimiter, header row) to check
 * too, as a user who gave them to infer would.
 */
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { parse } from 'yaml';
import { checkConfig } from '../../src/check/index.js';
import { FLAG_OF_OPTION } from '../../src/cli/option-flags.js';
import { formatConfigText } from '../../src/fmt/index.js';
import {
  type Draft,
  type InferOptions,
  inferBatch,
  inferConfig,
  RESTATED_BY,
} from '../../src/infer/index.js';
import { containerKind, formats, InspectError } from '../../src/inspect/index.js';
import type { ImportDocument } from '../../src/model/index.js';
import type { Issue, IssueCode } from '../../src/model/plain.js';
import { type CliResult, runCli } from './cli.js';
import { repoRoot } from './paths.js';

/** What infer is told: the library's options, given to the command line as their flags. */
export type LoopOptions = Omit<InferOptions, 'full' | 'onProgress'>;

/** The options check takes as infer does: the CSV delimiter and header row. */
function dialectOf(options: LoopOptions): LoopOptions {
  const { delimiter, headerRow } = options;
  return {
    ...(delimiter !== undefined ? { delimiter } : {}),
    ...(headerRow !== undefined ? { headerRow } : {}),
  };
}

/** The command-line flags that give infer `options`. */
export function inferFlags(options: LoopOptions): string[] {
  return Object.entries(options).flatMap(([option, value]) => {
    const flag = FLAG_OF_OPTION[option];
    if (flag === undefined) throw new Error(`no flag gives infer's option ${option}`);
    return [flag, String(value)];
  });
}

/**
 * The contradictions of one file (a data file, a folder or an archive), as
 * `<stage>: <code>` → one message that shows it; empty when the loop holds. The drafts are
 * written as `<dir>/<name>.yaml` and `.json`.
 */
export async function closedLoop(
  path: string,
  dir: string,
  name: string,
  options: LoopOptions = {},
): Promise<Map<string, string>> {
  const out = new Findings();
  const loop: Loop = {
    path,
    base: join(dir, name),
    flags: inferFlags(options),
    checkFlags: inferFlags(dialectOf(options)),
    dialect: dialectOf(options),
    out,
  };
  const outcome = await inferLibrary(path, options);
  if ('refused' in outcome) await refusedLoop(loop, outcome.refused);
  else await draftLoop(loop, outcome.draft);
  return out.seen;
}

interface Loop {
  path: string;
  /** Where the drafts go, without their extension. */
  base: string;
  /** Infer's flags. */
  flags: string[];
  /** The CSV dialect infer was given, for check too (its flags "as for infer"). */
  dialect: LoopOptions;
  checkFlags: string[];
  out: Findings;
}

/** Collects `<stage>: <code>` contradictions, each with the first message that showed it. */
class Findings {
  readonly seen = new Map<string, string>();
  add(stage: string, code: string, message = ''): void {
    if (!this.seen.has(`${stage}: ${code}`)) this.seen.set(`${stage}: ${code}`, message);
  }
}

const cli = (argv: readonly string[]) => runCli(repoRoot, argv);

type Outcome = { draft: Draft } | { refused: Issue };

/** The library's draft of a file, folder or archive, or the issue it refused it with. */
async function inferLibrary(path: string, options: LoopOptions): Promise<Outcome> {
  try {
    const container = (await containerKind(path)) !== undefined;
    return {
      draft: container
        ? await inferBatch(path, { ...options })
        : await inferConfig(path, { ...options }),
    };
  } catch (err) {
    if (err instanceof InspectError) return { refused: err.issue };
    throw err;
  }
}

/** The errors a `--reporter json` run reported, or the error the command stopped with. */
function errorsOf(r: CliResult): Issue[] {
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

/**
 * The config key of the kind a damaged file is named as (`batchConfig` for a folder or an
 * archive): its extension says what the user took it for.
 */
async function configKeyOf(path: string): Promise<string> {
  if ((await containerKind(path)) !== undefined) return 'batchConfig';
  const name = path.toLowerCase().replace(/\.gz$/, '');
  const key = formats().find((f) => f.extensions.some((e) => name.endsWith(e)))?.config.key;
  if (key === undefined) throw new Error(`${basename(path)}: no config reads a file of its name`);
  return key;
}

/** The contradictions of a loop as lines (`<stage>: <code> (<first line of its message>)`). */
export function shown(seen: Map<string, string>): string[] {
  return [...seen].map(([k, message]) => `${k} (${message.split('\n')[0]})`);
}

/** infer refused the file: the command line refuses it alike, writing nothing, and so does check. */
async function refusedLoop(
  { path, base, flags, dialect, checkFlags, out }: Loop,
  refused: Issue,
): Promise<void> {
  const draftFile = `${base}.yaml`;
  for (const format of ['yaml', 'json']) {
    await rm(draftFile, { force: true });
    const r = await cli(['infer', path, ...flags, '--format', format, '-o', draftFile]);
    const said = errorsOf(r)[0]?.code;
    if (r.code !== 1 || said !== refused.code) out.add(`infer ${format}`, said ?? `exit ${r.code}`);
    if (existsSync(draftFile)) out.add(`infer ${format}`, 'wrote a draft');
  }
  // Check is given the least config of the file's kind: the file must be refused anyway.
  const configKey = await configKeyOf(path);
  await writeFile(draftFile, `${configKey}: {}\n`);
  for (const full of [false, true]) {
    const stage = full ? 'check --full' : 'check';
    const library = await checkConfig({ [configKey]: {} } as ImportDocument, path, {
      ...dialect,
      full,
    }).then(
      (issues) => issues.filter((i) => i.severity === 'error'),
      (err: unknown) => (err instanceof InspectError ? [err.issue] : Promise.reject(err)),
    );
    const r = await cli([
      'check',
      '--reporter',
      'json',
      ...checkFlags,
      ...fullFlag(full),
      draftFile,
      path,
    ]);
    for (const errors of [library, errorsOf(r)]) {
      if (!errors.some((i) => i.code === refused.code))
        out.add(stage, errors[0]?.code ?? 'fits', errors[0]?.message);
    }
  }
}

const fullFlag = (full: boolean) => (full ? ['--full'] : []);

/** infer drafted a config: the written drafts are that draft, lint, fmt and check accept them. */
async function draftLoop(
  { path, base, flags, checkFlags, out }: Loop,
  draft: Draft,
): Promise<void> {
  const errors = draft.issues.filter((i) => i.severity === 'error');
  // Lint restates what infer said in the validator's words (RESTATED_BY).
  const said = new Set(
    errors.flatMap((i) => [i.code, ...(RESTATED_BY[i.code as IssueCode] ?? [])]),
  );
  // Check may report what infer reported: the same code, or an error about the same place.
  const saidBefore = (i: Issue) =>
    said.has(i.code) || errors.some((e) => samePlace(e.path, i.path));
  for (const format of ['yaml', 'json'] as const) {
    const file = `${base}.${format}`;
    await rm(file, { force: true });
    const r = await cli(['infer', path, ...flags, '--format', format, '-o', file]);
    if (r.code !== (errors.length > 0 ? 1 : 0)) out.add(`infer ${format}`, `exit ${r.code}`);
    const text = await readFile(file, 'utf8');
    const written = (format === 'json' ? JSON.parse(text) : parse(text)) as ImportDocument;
    if (JSON.stringify(written) !== JSON.stringify(draft.document))
      out.add(`infer ${format}`, 'not the library draft', text);

    for (const i of errorsOf(await cli(['lint', '--reporter', 'json', file])))
      if (!said.has(i.code)) out.add('lint', i.code, i.message);

    const fmt = await cli(['fmt', '--check', file]);
    if (fmt.code !== 0 || fmt.stdout !== '' || fmt.stderr !== '') {
      const result = formatConfigText(text, { filename: file });
      for (const change of result.changes)
        out.add(`fmt ${format}`, change.replace(/^.*: /, ''), change);
      if (result.error)
        out.add(`fmt ${format}`, result.error.code ?? 'error', result.error.message);
      if (result.changes.length === 0 && !result.error) out.add(`fmt ${format}`, 'rewritten');
    }

    for (const full of [false, true]) {
      const args = [...checkFlags, ...fullFlag(full), file, path];
      const r = await cli(['check', '--reporter', 'json', ...args]);
      const stage = full ? 'check --full' : 'check';
      const found = errorsOf(r);
      for (const i of found) if (!saidBefore(i)) out.add(stage, i.code, i.message);
      // Check exits 1 exactly when it reports an error.
      if (r.code !== (found.length > 0 ? 1 : 0)) out.add(stage, `exit ${r.code}`);
    }
  }
}
