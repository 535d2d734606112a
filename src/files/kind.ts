/**
 * Is this path a regular file importkit can read? Answered from `stat` alone, never by
 * opening it: opening a FIFO blocks until a writer comes, and a device such as /dev/zero
 * never ends. Every command asks before it reads a file it was given.
 */
import { constants, type Stats, statSync } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { type Issue, issue } from '../model/plain.js';

/** What a non-regular file is, in words, with the hint for it. */
function kindOf(st: Stats): { what: string; hint: string } | undefined {
  if (st.isFile()) return undefined;
  const regular = 'importkit reads regular files: write the data to a file and give its path.';
  if (st.isDirectory()) {
    return { what: 'a folder, not a file', hint: 'Give the path of a file inside it.' };
  }
  if (st.isFIFO()) return { what: 'a FIFO (named pipe), not a regular file', hint: regular };
  if (st.isSocket()) return { what: 'a socket, not a regular file', hint: regular };
  if (st.isCharacterDevice() || st.isBlockDevice()) {
    return { what: 'a device, not a regular file', hint: regular };
  }
  return { what: 'not a regular file', hint: regular };
}

function problem(code: Issue['code'], shown: string, message: string, hint?: string): Issue {
  return issue(code, '', shown ? `${shown}: ${message}` : message, { hint: hint || undefined });
}

/** The issue for an error the OS gave on `stat`, `access` or `open` of `shown`. */
export function fileErrorIssue(err: unknown, shown: string): Issue {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return problem('file_not_found', shown, 'no such file');
  }
  return problem(
    'file_unreadable',
    shown,
    `cannot read (${code ?? (err instanceof Error ? err.message : String(err))})`,
    code === 'EACCES' || code === 'EPERM'
      ? "Check the file's permissions."
      : 'Give the path of a regular, readable file.',
  );
}

function fromStats(st: Stats, shown: string, data: boolean): Issue | undefined {
  const kind = kindOf(st);
  if (kind) return problem('not_a_file', shown, kind.what, kind.hint);
  return data && st.size === 0 ? emptyFileIssue(shown) : undefined;
}

/** An empty data file: nothing to inspect, check or import. */
export function emptyFileIssue(shown: string): Issue {
  return problem(
    'file_empty',
    shown,
    'the file is empty (0 bytes)',
    'Check that the export finished and that this is the file you meant.',
  );
}

/**
 * Why `path` cannot be read as a file, or undefined when it can. The message starts with
 * `shown` (the name as the user gave it; '' when a reporter names the file already).
 */
export async function fileProblem(path: string, shown = path): Promise<Issue | undefined> {
  return problemOf(path, shown, false);
}

/** `fileProblem` for a data file, which is also refused when it is empty. */
export async function dataFileProblem(path: string, shown = path): Promise<Issue | undefined> {
  return problemOf(path, shown, true);
}

async function problemOf(path: string, shown: string, data: boolean): Promise<Issue | undefined> {
  try {
    const kind = fromStats(await stat(path), shown, data);
    if (kind) return kind;
    await access(path, constants.R_OK);
    return undefined;
  } catch (err) {
    return fileErrorIssue(err, shown);
  }
}

/**
 * The stats of `path` when it is a regular file, or why it is not, synchronously (for
 * commands that read many small files one by one). Unlike `fileProblem`, it does not ask
 * whether the file is readable: for a reader that opens the file next, `open` fails with
 * the same error `access` would (`fileErrorIssue` words it the same), for one call less.
 */
export function regularFileSync(path: string, shown = path): Stats | Issue {
  try {
    const st = statSync(path);
    return fromStats(st, shown, false) ?? st;
  } catch (err) {
    return fileErrorIssue(err, shown);
  }
}
