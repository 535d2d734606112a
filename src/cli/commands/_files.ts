import { readdir, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UsageError } from '../errors.js';

/** Config files a directory argument stands for. */
const CONFIG_EXTENSIONS = /\.(ya?ml|json)$/i;
/** Folders a `**` never walks into unless the pattern names them. */
const SKIPPED_DIRS = new Set(['node_modules', '.git']);

/**
 * Expands file arguments: plain paths, directories (their .yaml/.yml/.json files) and glob
 * patterns (`*`, `?`, `**`, `{a,b}`, `[abc]`), relative to `cwd`, for shells that do not
 * expand them (quoted patterns, Windows). Node 20 has no fs.glob; this small matcher
 * covers what config paths need. `-` (stdin) is passed through. Throws a UsageError
 * naming every argument that matches nothing.
 */
export async function expandFiles(args: readonly string[], cwd: string): Promise<string[]> {
  const out: string[] = [];
  const missing: string[] = [];
  for (const arg of args) {
    if (arg === '-') {
      out.push(arg);
      continue;
    }
    const found = hasMagic(arg) ? await glob(arg, cwd) : await plain(arg, cwd);
    if (found.length === 0) missing.push(arg);
    out.push(...found);
  }
  if (missing.length > 0) {
    const what = missing.map((m) =>
      hasMagic(m) ? `no file matches '${m}'` : `no such file '${m}'`,
    );
    throw new UsageError(what.join('; '));
  }
  return [...new Set(out)];
}

function hasMagic(s: string): boolean {
  return /[*?[{]/.test(s);
}

async function plain(arg: string, cwd: string): Promise<string[]> {
  const full = resolve(cwd, arg);
  const st = await stat(full).catch(() => undefined);
  if (!st) return [];
  if (!st.isDirectory()) return [arg];
  const files = await walk(full, false);
  return files
    .filter((f) => CONFIG_EXTENSIONS.test(f))
    .map((f) => join(arg, f))
    .sort();
}

async function glob(pattern: string, cwd: string): Promise<string[]> {
  const norm = pattern.split(sep).join('/');
  const parts = norm.split('/');
  const baseParts: string[] = [];
  while (parts.length > 1 && !hasMagic(parts[0] as string)) baseParts.push(parts.shift() as string);
  const base = baseParts.join('/') || (isAbsolute(norm) ? '/' : '.');
  const rest = parts.join('/');
  const re = globToRegExp(rest);
  const dotted = /(^|\/)\./.test(rest);
  const baseDir = resolve(cwd, base === '' ? '.' : base);
  const files = await walk(baseDir, dotted, rest.includes('**') || rest.includes('/'));
  const prefix = baseParts.length === 0 ? '' : `${baseParts.join('/')}/`;
  return files
    .filter((f) => re.test(f))
    .map((f) => (prefix === '' ? f : prefix + f))
    .map((f) => (isAbsolute(f) ? f : relative(cwd, resolve(cwd, f)) || f))
    .sort();
}

/** Files under `dir`, as '/'-separated paths relative to it. */
async function walk(dir: string, dotted: boolean, deep = true): Promise<string[]> {
  const out: string[] = [];
  const visit = async (rel: string): Promise<void> => {
    const entries = await readdir(join(dir, rel), { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (!dotted && e.name.startsWith('.')) continue;
      const path = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (deep && !SKIPPED_DIRS.has(e.name)) await visit(path);
      } else if (e.isFile() || e.isSymbolicLink()) out.push(path);
    }
  };
  await visit('');
  return out;
}

/** A glob (relative, '/'-separated) as an anchored regular expression. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const slash = glob[i + 2] === '/';
        re += slash ? '(?:[^/]*/)*' : '.*';
        i += slash ? 2 : 1;
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '{') {
      braces++;
      re += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      re += ')';
    } else if (c === ',' && braces > 0) re += '|';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) re += '\\[';
      else {
        const body = glob
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        re += `[${body}]`;
        i = end;
      }
    } else re += c.replace(/[.+^$()|\\\]]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}
