/**
 * Runs every example in README.md and docs/ so they cannot drift from the code.
 *
 * Fenced blocks, by info string (docs/README.md states these rules for writers):
 * - `yaml` / `yml` / `json` holding a config document (a config key or `url` at the top):
 *   must validate with no issue at all, in the canonical form `importkit fmt` writes;
 * - `yaml codes=a,b`: must give exactly those issue codes (a common mistake shown on purpose);
 * - any other `yaml` / `json` (a workflow, a fragment): must parse;
 * - `ts` / `typescript`: run as a module, `importkit` and its subpaths (`importkit/node`, ...)
 *   resolving to this repository's source through package.json `exports`;
 *   whatever it prints that is a config document must validate with no issue;
 * - `sh` / `bash`: each `importkit lint|infer|inspect|check|fmt|schema ...` line over files
 *   shipped in the repository runs in-process and must exit 0 (or the `exit=N` of the info
 *   string); `lint` must print nothing on stderr; a `text output` block right after holds
 *   what it prints on stdout;
 * - the info word `no-run` skips a block (for examples that need a live platform).
 * The example configs in fixtures/examples/ must lint valid with no issue, and the folder
 * holds nothing else (so `importkit lint fixtures/examples` lints exactly them).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { type Io, run } from '../../src/cli/index.js';
import { formatConfigText } from '../../src/fmt/index.js';
import {
  ChannelConfig,
  CONFIG_KEYS,
  CONFIG_KIND_NAMES,
  CONFIG_KINDS,
  type ConfigKind,
} from '../../src/model/index.js';
import { validateConfigText } from '../../src/validate/index.js';

const root = join(import.meta.dirname, '..', '..');
const scratch = join(root, '.tmp', 'docs-examples');

const { exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, { default?: string }>;
};

/** The source file of a package entry point (`importkit/node` → src/node.ts), by package.json. */
function entrySource(spec: string): string {
  const built = exports[`.${spec.slice('importkit'.length)}`]?.default;
  if (!built) throw new Error(`${spec} is not an entry point of the package`);
  return pathToFileURL(join(root, built.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts'))).href;
}

interface Block {
  file: string;
  line: number;
  lang: string;
  words: string[];
  code: string;
}

function markdownFiles(): string[] {
  const out = [join(root, 'README.md')];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.md')) out.push(p);
    }
  };
  walk(join(root, 'docs'));
  return out;
}

/** Fenced code blocks (``` or ~~~, not indented more than three spaces). */
function blocks(file: string): Block[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)(.*)$/.exec(lines[i] ?? '');
    if (!open) continue;
    const fence = open[1] ?? '```';
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !(lines[i] ?? '').trimStart().startsWith(fence); i++) {
      body.push(lines[i] ?? '');
    }
    out.push({
      file: relative(root, file),
      line: start + 1,
      lang: (open[2] ?? '').toLowerCase(),
      words: (open[3] ?? '').trim().split(/\s+/).filter(Boolean),
      code: `${body.join('\n')}\n`,
    });
  }
  return out;
}

function codesWanted(b: Block): string[] | undefined {
  const word = b.words.find((w) => w.startsWith('codes='));
  return word?.slice('codes='.length).split(',').filter(Boolean).sort();
}

function isConfigDocument(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.keys(value).some((k) => k === 'url' || (CONFIG_KEYS as string[]).includes(k));
}

function memoryIo(): Io & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: { write: (s) => void out.push(s) },
    stderr: { write: (s) => void err.push(s) },
    env: {},
    cwd: root,
  };
}

const all = markdownFiles().flatMap(blocks);
const runnable = all.filter((b) => !b.words.includes('no-run'));
const label = (b: Block) => `${b.file}:${b.line} (${b.lang})`;

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('docs examples', () => {
  test('the README and docs have examples to run', () => {
    expect(all.filter((b) => ['ts', 'typescript'].includes(b.lang)).length).toBeGreaterThan(0);
    expect(all.filter((b) => ['yaml', 'yml'].includes(b.lang)).length).toBeGreaterThan(0);
  });

  for (const b of runnable.filter((x) => ['yaml', 'yml', 'json'].includes(x.lang))) {
    test(`${label(b)} ${codesWanted(b) ? `gives ${codesWanted(b)?.join(', ')}` : 'is valid'}`, () => {
      const wanted = codesWanted(b);
      const filename = b.lang === 'json' ? 'example.json' : 'example.yaml';
      if (wanted !== undefined) {
        const result = validateConfigText(b.code, { filename });
        const codes = [...new Set(result.issues.map((i) => i.code))].sort();
        expect(codes).toEqual(wanted);
        for (const i of result.issues) expect(i.line).toBeGreaterThan(0);
        return;
      }
      const docs = parseAllDocuments(b.code);
      const parsed = Array.isArray(docs) ? docs : [docs];
      for (const d of parsed) expect(d.errors.map((e) => e.message)).toEqual([]);
      if (parsed.some((d) => isConfigDocument(d.toJS()))) {
        expect(validateConfigText(b.code, { filename }).issues).toEqual([]);
        // What a reader copies is what `importkit fmt` would leave as it is.
        expect(formatConfigText(b.code, { filename }).text).toBe(b.code);
      }
    });
  }

  for (const b of runnable.filter((x) => ['ts', 'typescript'].includes(x.lang))) {
    test(`${label(b)} runs`, async () => {
      const code = b.code.replace(/from\s+['"](importkit(?:\/[\w-]+)?)['"]/g, (_, spec) => {
        return `from '${entrySource(spec)}'`;
      });
      await mkdir(scratch, { recursive: true });
      const file = join(scratch, `${b.file.replace(/[^a-z0-9]+/gi, '-')}-${b.line}.ts`);
      await writeFile(file, code);
      const printed: string[] = [];
      const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
        printed.push(args.map(String).join(' '));
      });
      try {
        await import(/* @vite-ignore */ pathToFileURL(file).href);
      } finally {
        log.mockRestore();
      }
      for (const text of printed) {
        const docs = parseAllDocuments(text);
        const parsed = Array.isArray(docs) ? docs : [docs];
        if (
          parsed.every((d) => d.errors.length === 0) &&
          parsed.some((d) => isConfigDocument(d.toJS()))
        ) {
          expect(validateConfigText(text, { filename: 'printed.yaml' }).issues).toEqual([]);
        }
      }
    });
  }

  /** The `text output` block right after a block, if any: what the command prints. */
  const outputAfter = (b: Block): string | undefined => {
    const next = all[all.indexOf(b) + 1];
    const end = b.line + b.code.split('\n').length;
    if (next?.file !== b.file || next.lang !== 'text' || !next.words.includes('output')) return;
    return next.line <= end + 2 ? next.code : undefined;
  };

  for (const b of runnable.filter((x) => ['sh', 'bash', 'shell'].includes(x.lang))) {
    const exit = Number(b.words.find((w) => w.startsWith('exit='))?.slice(5) ?? 0);
    const output = outputAfter(b);
    const commands = b.code
      .split('\n')
      .map((l) =>
        /(?:^|\s)(?:npx\s+)?importkit\s+(lint|infer|inspect|check|fmt|schema)\b(.*)$/.exec(
          l.trim(),
        ),
      )
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ name: m[1] as string, rest: (m[2] ?? '').trim() }));
    for (const { name, rest } of commands) {
      const args = rest
        .split(/\s+/)
        .filter((a) => a !== '')
        .map((a) => a.replace(/^'|'$/g, ''));
      const hash = args.findIndex((a) => a.startsWith('#'));
      if (hash >= 0) args.splice(hash);
      // Commands that write files (`-o`, `fmt` without --check) are shown, not run.
      if (args.includes('-o') || (name === 'fmt' && !args.includes('--check'))) continue;
      test(`${label(b)}: importkit ${name} ${args.join(' ')} exits ${exit}`, async () => {
        const takesValue = new Set([
          '--reporter',
          '-r',
          '--fail-on',
          '--data',
          '--asset',
          '--run',
          '--time-column',
          '--time-format',
          '--relative-start',
          '--format',
          '--layout',
          '--complex-types',
          '--time-dataset',
          '--delimiter',
          '--header-row',
          '--jobs',
        ]);
        const files = args.filter(
          (a, i) => !a.startsWith('-') && !takesValue.has(args[i - 1] ?? ''),
        );
        // Only commands over files shipped in the repository can run here (a glob: its folder).
        const base = (f: string) => (/[*?[{]/.test(f) ? f.slice(0, f.search(/[*?[{]/)) : f);
        if (!files.every((f) => existsSync(join(root, base(f))))) return;
        const io = memoryIo();
        const code = await run([name, ...args], io);
        if (name === 'lint') {
          expect({ code, stderr: io.err.join('') }).toEqual({ code: exit, stderr: '' });
        } else {
          expect({ code, stderr: code === exit ? '' : io.err.join('') }).toEqual({
            code: exit,
            stderr: '',
          });
        }
        if (output !== undefined && commands.length === 1) {
          expect(io.out.join('').trimEnd()).toBe(output.trimEnd());
        }
      });
    }
  }
});

describe('fixtures/examples', () => {
  const dir = join(root, 'fixtures', 'examples');
  const cases = readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort();

  test('there is an example of every config kind', () => {
    const kinds = cases.map((f) => {
      const result = validateConfigText(readFileSync(join(dir, f), 'utf8'));
      return Object.keys(result.value ?? {}).find((k) => (CONFIG_KEYS as string[]).includes(k));
    });
    expect([...new Set(kinds)].sort()).toEqual([...CONFIG_KEYS].sort());
  });

  test('the folder holds only the example configs, and lints as a folder', async () => {
    expect(readdirSync(dir).filter((f) => !f.endsWith('.yaml'))).toEqual([]);
    const io = memoryIo();
    expect(await run(['lint', join('fixtures', 'examples')], io)).toBe(0);
    expect(io.out.join('')).toBe(`✔ ${cases.length} files valid\n`);
  });

  for (const name of cases) {
    test(`${name} lints valid with no issue`, async () => {
      const expected = { valid: true, issues: [] };
      const io = memoryIo();
      const code = await run(
        ['lint', '--reporter', 'json', join('fixtures', 'examples', name)],
        io,
      );
      const report = JSON.parse(io.out.join(''));
      const file = report.files[0];
      expect({ valid: file.valid, issues: file.issues }).toEqual(expected);
      expect(code).toBe(expected.valid ? 0 : 1);
    });
  }

  test('the README lint command prints what the README says', async () => {
    const io = memoryIo();
    const code = await run(['lint', 'fixtures/examples/csv.yaml'], io);
    expect(code).toBe(0);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain(
      `It prints \`${io.out.join('').trim()}\``,
    );
  });
});

/** Whether a page names a field in code: `field`, `a.field`, `{ path, field }`. */
function names(text: string, field: string): boolean {
  return new RegExp(`\`[^\`\n]*\\b${field}\\b[^\`\n]*\``).test(text);
}

/** Every field name in a zod schema, nested objects, lists and maps included. */
function fieldNames(schema: unknown, stopAt: readonly unknown[] = []): Set<string> {
  const out = new Set<string>();
  const walk = (s: unknown) => {
    if (stopAt.includes(s)) return;
    const def = (s as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
    if (!def) return;
    switch (def.type) {
      case 'object':
        for (const [k, v] of Object.entries(def.shape as Record<string, unknown>)) {
          out.add(k);
          walk(v);
        }
        break;
      case 'optional':
      case 'nullable':
        walk(def.innerType);
        break;
      case 'array':
        walk(def.element);
        break;
      case 'record':
        walk(def.valueType);
        break;
    }
  };
  walk(schema);
  return out;
}

describe('docs/configs', () => {
  const page = (name: string) => readFileSync(join(root, 'docs', 'configs', `${name}.md`), 'utf8');

  test('the channels page names every field of a channel', () => {
    const text = page('channel');
    const missing = [...fieldNames(ChannelConfig)].filter((f) => !names(text, f));
    expect(missing).toEqual([]);
  });

  for (const kind of CONFIG_KIND_NAMES) {
    test(`the ${kind} page names every field of ${CONFIG_KINDS[kind].key}`, () => {
      const text = page(kind);
      // Channels are described on their own page; a batch's nested configs on theirs.
      const nested: unknown[] = [ChannelConfig];
      if (kind === 'batch') {
        for (const k of CONFIG_KIND_NAMES) if (k !== 'batch') nested.push(CONFIG_KINDS[k].schema);
      }
      const fields = fieldNames(CONFIG_KINDS[kind as ConfigKind].schema, nested);
      const missing = [...fields].filter((f) => !names(text, f));
      expect(missing).toEqual([]);
      expect(text).toContain(`# `);
      expect(text).toContain(`${CONFIG_KINDS[kind].key}:`);
    });
  }
});

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes. */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  for (const m of markdown.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    out.add(
      (m[1] ?? '')
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    );
  }
  return out;
}

describe('links', () => {
  const pages = [
    'README.md',
    join('docs', 'README.md'),
    ...readdirSync(join(root, 'docs', 'configs')).map((f) => join('docs', 'configs', f)),
  ];
  for (const pagePath of pages) {
    test(`relative links in ${pagePath} resolve`, () => {
      const text = readFileSync(join(root, pagePath), 'utf8').replace(/```[\s\S]*?```/g, '');
      const broken: string[] = [];
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const href = m[1] ?? '';
        if (/^[a-z]+:/i.test(href)) continue;
        const [target = '', anchor] = href.split('#');
        const file = target === '' ? join(root, pagePath) : join(root, pagePath, '..', target);
        if (!existsSync(file)) {
          broken.push(href);
          continue;
        }
        if (anchor && file.endsWith('.md') && !anchors(readFileSync(file, 'utf8')).has(anchor)) {
          broken.push(href);
        }
      }
      expect(broken).toEqual([]);
    });
  }
});
