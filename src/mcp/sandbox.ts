/**
 * Where the server may read and write. Every path a tool is given is resolved (relative
 * paths from the first root), its symbolic links followed (`realpath`), and only then
 * tested against the roots (and the output folder, which holds only what the tools
 * wrote): a link inside a root that leads out of it is refused like `../..`. What a tool
 * writes goes into the output folder under a plain file name, through `writeFileSafely`
 * (a new file renamed over the target: a planted symlink is replaced, never followed).
 * The folder is made on the first write when none was named.
 */
import { mkdir, mkdtemp, realpath, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve, sep } from 'node:path';
import { dataFileProblem, isSameFile } from '../files/index.js';
import { fail, ToolFailure } from './failure.js';

/** A path a tool may read: the real path, and the path as the caller gave it (for messages). */
export interface Readable {
  path: string;
  shown: string;
  /** True for a folder (a batch); else it is a regular, non-empty file. */
  folder: boolean;
}

export interface SandboxOptions {
  /** Folders the tools may read (default: `cwd`). */
  roots: readonly string[];
  /** The output folder (default: a new temporary folder, made on the first write). */
  out?: string | undefined;
  cwd: string;
}

function within(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

export class Sandbox {
  /** The roots, real paths. */
  readonly roots: readonly string[];
  #out: string | undefined;
  #outMade: Promise<string> | undefined;

  private constructor(roots: string[], out: string | undefined) {
    this.roots = roots;
    this.#out = out;
  }

  /** The roots (and the output folder, when named) must exist as folders: else throws. */
  static async open(options: SandboxOptions): Promise<Sandbox> {
    const given = options.roots.length > 0 ? options.roots : [options.cwd];
    const roots: string[] = [];
    for (const r of given) roots.push(await existingFolder(resolve(options.cwd, r), r, '--root'));
    const out =
      options.out === undefined
        ? undefined
        : await madeFolder(resolve(options.cwd, options.out), options.out);
    return new Sandbox(roots, out);
  }

  /** The output folder if it exists yet (named, or made by a write). */
  get outFolder(): string | undefined {
    return this.#out;
  }

  /** The output folder, made now when none was named. */
  async outDir(): Promise<string> {
    if (this.#out !== undefined) return this.#out;
    this.#outMade ??= mkdtemp(join(tmpdir(), 'importkit-mcp-')).then((made) => realpath(made));
    const made = await this.#outMade;
    this.#out = made;
    return made;
  }

  /**
   * A data file or a batch folder the tools may read. Refused with an issue: a path outside
   * the roots, one that does not exist, and anything but a regular non-empty file or a
   * folder (a FIFO, a socket, a device: answered from `stat`, never opened).
   */
  async readable(given: string, what = 'file'): Promise<Readable> {
    const path = await this.resolveInside(given, what);
    const st = await stat(path);
    if (st.isDirectory()) return { path, shown: given, folder: true };
    const problem = await dataFileProblem(path, given);
    if (problem) throw new ToolFailure({ ...problem, source: { file: given } });
    return { path, shown: given, folder: false };
  }

  /** A config file the tools may read (its size and kind are the config reader's). */
  async configFile(given: string): Promise<Readable> {
    return { path: await this.resolveInside(given, 'config'), shown: given, folder: false };
  }

  /** The real path of `given`, when it lies inside a root or the output folder. */
  private async resolveInside(given: string, what: string): Promise<string> {
    if (given === '' || given.includes('\0'))
      throw fail('tool_argument_invalid', `the ${what} path is empty or holds a NUL character`);
    const absolute = isAbsolute(given) ? given : resolve(this.roots[0] as string, given);
    // Outside as written (`../..`): refused before the file system is asked anything, so
    // that no answer tells what exists out there.
    this.refuseOutside(absolute, given);
    let real: string;
    try {
      real = await realpath(absolute);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR')
        throw fail(
          'file_not_found',
          `${given}: no such ${what}`,
          `relative paths are read from ${this.roots[0]}`,
        );
      throw fail('file_unreadable', `${given}: cannot be read (${code ?? String(err)})`);
    }
    this.refuseOutside(real, given);
    return real;
  }

  /** Throws `path_outside_roots` unless `path` lies inside a root or the output folder. */
  private refuseOutside(path: string, given: string): void {
    const allowed = this.#out === undefined ? this.roots : [...this.roots, this.#out];
    if (!allowed.some((root) => within(path, root)))
      throw fail(
        'path_outside_roots',
        `${given} leads outside the folders this server may read`,
        `give a path inside ${allowed.join(', ')}`,
      );
  }

  /**
   * Where a tool writes its output named `name` (or `fallback`): a plain file name inside
   * the output folder, never a folder, never one of the tool's `inputs` (the same file
   * however named: a link counts).
   */
  async output(
    name: string | undefined,
    fallback: string,
    inputs: readonly string[] = [],
  ): Promise<string> {
    const file = name ?? fallback;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    if (file === '.' || file === '..' || file === '' || /[/\\\x00-\x1f\x7f]/.test(file))
      throw fail(
        'output_name_invalid',
        `'${JSON.stringify(file).slice(1, -1)}' is not a plain file name`,
        'give a file name without folders, such as run.preview.html: it is written into the output folder',
      );
    const target = join(await this.outDir(), file);
    const there = await stat(target).catch(() => undefined);
    if (there?.isDirectory())
      throw fail('output_name_invalid', `${file} is a folder in the output folder`);
    for (const input of inputs)
      if (await isSameFile(target, input))
        throw fail(
          'output_name_invalid',
          `${file} is an input of this call: it is never written over`,
          'give another file name',
        );
    return target;
  }
}

async function existingFolder(path: string, shown: string, flag: string): Promise<string> {
  const real = await realpath(path).catch(() => undefined);
  const st = real ? await stat(real) : undefined;
  if (!real || !st?.isDirectory())
    throw fail('usage_error', `${flag} ${shown}: no such folder`, 'give an existing folder');
  return real;
}

async function madeFolder(path: string, shown: string): Promise<string> {
  await mkdir(path, { recursive: true }).catch(() => undefined);
  return existingFolder(path, shown, '--out');
}
