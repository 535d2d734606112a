import { readdir, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import {
  CONFIG_TOO_LARGE_HINT,
  configFileIssue,
  fileProblem,
  readConfigFile,
} from '../../files/index.js';
import type { Issue } from '../../model/plain.js';
import { decodeConfigBytes, MAX_CONFIG_BYTES, MAX_CONFIG_TEXT } from '../../validate/index.js';
import { FileIssueError, UsageError } from '../errors.js';
import type { Io } from '../io.js';

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
    for (const f of found) out.push(f);
  }
  if (missing.length > 0) {
    const what = await Promise.all(
      missing.map(async (m) => {
        if (hasMagic(m)) return `no file matches '${m}'`;
        const st = await stat(resolve(cwd, m)).catch(() => undefined);
        return st?.isDirectory()
          ? `no config file (.yaml, .yml, .json) in the folder '${m}'`
          : `no such file '${m}'`;
      }),
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
  const under = joinUnder(arg);
  return files
    .filter((f) => CONFIG_EXTENSIONS.test(f))
    .map(under)
    .sort();
}

/**
 * `(rel) => join(dir, rel)` for a `rel` made of file names joined by '/' (as `walk` gives
 * them): `dir` is normalized once, not with each of ten thousand files (`join` took a third
 * of listing such a folder).
 */
export function joinUnder(dir: string): (rel: string) => string {
  const prefix = join(dir, 'x').slice(0, -1);
  return sep === '/' ? (rel) => prefix + rel : (rel) => prefix + rel.replaceAll('/', sep);
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

/** A config file's text (at most MAX_CONFIG_BYTES), or the issue why it cannot be read. */
export const readConfig = readConfigFile;

/** A config from standard input: at most MAX_CONFIG_BYTES are read, as from a file. */
export async function readConfigStdin(io: Io): Promise<string | Issue> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of io.stdin ?? []) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk);
    size += b.length;
    if (size > MAX_CONFIG_BYTES) {
      return configFileIssue(
        'input_too_large',
        `Standard input holds more than ${MAX_CONFIG_BYTES} bytes (${MAX_CONFIG_TEXT}).`,
        CONFIG_TOO_LARGE_HINT,
      );
    }
    chunks.push(b);
  }
  return decodeConfigBytes(Buffer.concat(chunks));
}

/**
 * Makes sure `path` (given as `shown`) is a regular readable file before a command reads
 * it: a missing file is a usage error (exit 2); a folder, a FIFO, a device or an unreadable
 * file is an error naming what it is, with a code and a hint (exit 1).
 */
export async function requireFile(path: string, shown: string): Promise<void> {
  const problem = await fileProblem(path, shown);
  if (!problem) return;
  if (problem.code === 'file_not_found') throw new UsageError(`${shown}: no such file`);
  throw new FileIssueError({ ...problem, source: { file: shown } });
}

/** A config file's text (at most 4 MiB, read as `lint` reads it), or the error for it. */
export function readConfigOrThrow(path: string, shown: string): string {
  return textOrThrow(readConfig(path), shown);
}

/** The text read, or the error for what was read (named `shown`). */
export function textOrThrow(read: string | Issue, shown: string): string {
  if (typeof read === 'string') return read;
  if (read.code === 'file_not_found') throw new UsageError(`${shown}: no such file`);
  throw new FileIssueError({
    ...read,
    message: `${shown}: ${read.message}`,
    source: { file: shown },
  });
}

/** A config file's text, named as the user gave it. */
export async function readConfigText(file: string, io: Io): Promise<string> {
  return readConfigOrThrow(resolve(io.cwd, file), file);
}
