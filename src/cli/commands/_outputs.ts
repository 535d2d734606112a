/**
 * The files a command writes: never one of its inputs, never two outputs on one file, and
 * written the one safe way (`writeFileSafely`: a new temporary file renamed over the
 * target). Every command that writes a file (`infer -o`/`--preview`, `preview -o`,
 * `normalize -o`, `fmt`) goes through here.
 */
import { resolve } from 'node:path';
import { isSameFile, writeFileSafely } from '../../files/index.js';
import { UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { printable } from '../printable.js';

/** A file a command writes, as the user named it and with the flag that named it. */
export interface OutputFile {
  flag: string;
  path: string;
}

/** A file a command reads, as the user named it, with what it is (`the data file`). */
export interface InputFile {
  what: string;
  path: string;
}

/**
 * Refuses (usage error, exit 2) an output that is one of the inputs, or another output:
 * the same file by device and inode once symlinks are followed (`isSameFile`), so a
 * symlink, a hard link or another spelling of the path counts, not only the same string.
 */
export async function refuseOverwritingInputs(
  io: Io,
  command: string,
  outputs: readonly OutputFile[],
  inputs: readonly InputFile[],
): Promise<void> {
  const full = (p: string) => resolve(io.cwd, p);
  for (const [k, out] of outputs.entries()) {
    for (const input of inputs) {
      if (!(await isSameFile(full(out.path), full(input.path)))) continue;
      const same = out.path === input.path ? '' : ' (the same file)';
      throw new UsageError(
        `${out.flag} ${out.path} is ${input.what} ${input.path}${same}: importkit ${command} never writes over its inputs`,
        `write to another file: ${out.flag} <new file>`,
      );
    }
    for (const other of outputs.slice(0, k)) {
      const named = full(out.path) === full(other.path);
      if (!named && !(await isSameFile(full(out.path), full(other.path)))) continue;
      throw new UsageError(
        `${other.flag} ${other.path} and ${out.flag} ${out.path} name the same file`,
        'give each output its own file',
      );
    }
  }
}

/**
 * Writes an output file safely and says so on stderr (`wrote <file>`); on failure says
 * why (`importkit <command>: cannot write <file> (EACCES)`) and returns false.
 */
export async function writeOutput(
  io: Io,
  command: string,
  path: string,
  data: string | Uint8Array,
  note = '',
): Promise<boolean> {
  try {
    await writeFileSafely(resolve(io.cwd, path), data);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    io.stderr.write(`${printable(`importkit ${command}: cannot write ${path} (${code})`)}\n`);
    return false;
  }
  io.stderr.write(`wrote ${printable(path)}${note}\n`);
  return true;
}
