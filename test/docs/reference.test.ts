/**
 * The reference pages say what the code does: every option a command's --help lists is in
 * its section of docs/cli.md, the library page names every format `inferConfig` reads,
 * shell examples run the command the documented installs provide (`npx importkit`), and no
 * page or package.json field names a repository address of its own (a user's clone is theirs).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type Io, run } from '../../src/cli/index.js';
import { formats } from '../../src/inspect/index.js';

const root = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

function markdownFiles(): string[] {
  const out = ['README.md'];
  const walk = (dir: string) => {
    if (!existsSync(join(root, dir))) return;
    for (const name of readdirSync(join(root, dir)).sort()) {
      const p = join(dir, name);
      if (statSync(join(root, p)).isDirectory()) walk(p);
      else if (name.endsWith('.md')) out.push(p);
    }
  };
  walk('docs');
  return out;
}

/** The lines of fenced `sh` / `bash` / `shell` blocks, with their place. */
function shellLines(file: string): Array<{ at: string; text: string }> {
  const lines = read(file).split('\n');
  const out: Array<{ at: string; text: string }> = [];
  let fence: string | undefined;
  let shell = false;
  lines.forEach((line, i) => {
    const open = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/.exec(line);
    if (fence === undefined && open) {
      fence = open[1];
      shell = ['sh', 'bash', 'shell'].includes((open[2] ?? '').toLowerCase());
    } else if (fence !== undefined && line.trimStart().startsWith(fence)) {
      fence = undefined;
    } else if (fence !== undefined && shell) {
      out.push({ at: `${relative(root, join(root, file))}:${i + 1}`, text: line.trim() });
    }
  });
  return out;
}

/** The text of `## name` in a page, up to the next `## `. */
function section(page: string, name: string): string {
  const start = page.indexOf(`\n## ${name}\n`);
  if (start < 0) return '';
  const end = page.indexOf('\n## ', start + 1);
  return page.slice(start, end < 0 ? undefined : end);
}

function memoryIo(): Io & { out: string[] } {
  const out: string[] = [];
  return {
    out,
    stdout: { write: (s) => void out.push(s) },
    stderr: { write: () => undefined },
    env: {},
    cwd: root,
  };
}

describe('reference pages', () => {
  test('shell examples run importkit as the documented installs provide it: npx importkit', () => {
    const bare = markdownFiles()
      .flatMap(shellLines)
      .filter(({ text }) => /(?:^|[;&|(]\s*|\$\s+)importkit\s/.test(text))
      .map(({ at, text }) => `${at}: ${text}`);
    expect(bare).toEqual([]);
  });

  test('docs/cli.md lists every option of each command in its section', async () => {
    const page = read('docs/cli.md');
    const commands = [...page.matchAll(/^\| \[`([a-z]+)`\]\(#\1\) \|/gm)].map((m) => m[1] ?? '');
    expect(commands).toContain('infer');
    const missing: string[] = [];
    for (const name of commands) {
      const io = memoryIo();
      expect(await run([name, '--help'], io)).toBe(0);
      const options = new Set(io.out.join('').match(/--[a-z][a-z-]*[a-z]/g) ?? []);
      options.delete('--help');
      const text = section(page, name);
      for (const o of options) {
        if (!new RegExp(`${o}(?![a-z-])`).test(text)) missing.push(`${name} ${o}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test('docs/library.md names every format inferConfig reads', () => {
    const text = section(read('docs/library.md'), 'inferConfig').toLowerCase();
    const ids = formats().map((f) => f.id);
    expect(ids.length).toBeGreaterThanOrEqual(6);
    expect(ids.filter((id) => !text.includes(id))).toEqual([]);
  });

  test('no repository address of its own: package.json has none, the README shows a placeholder', () => {
    const pkg = JSON.parse(read('package.json')) as Record<string, unknown>;
    expect([pkg.repository, pkg.homepage, pkg.bugs]).toEqual([undefined, undefined, undefined]);
    const pages = markdownFiles().filter((f) => /github\.com\/importkit\b/i.test(read(f)));
    expect(pages).toEqual([]);
    const fromGit = shellLines('README.md').filter(({ text }) => /npm install .*git\+/.test(text));
    expect(fromGit.length).toBeGreaterThan(0);
    for (const { text } of fromGit) expect(text).toMatch(/git\+<[^>]+>/);
  });
});
