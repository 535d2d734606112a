/**
 * A config file's text, read as `lint` reads it: at most MAX_CONFIG_BYTES (a larger file is a data
 * file given by mistake, refused before it is read), decoded as UTF-8 (a UTF-16 file and a
 * BOM are handled by the validator's decoder). Shared by the command line and the MCP
 * server, so that both refuse the same files with the same issue.
 */
import { closeSync, openSync, readSync, Stats } from 'node:fs';
import {
  decodeConfigBytes,
  type Issue,
  issue,
  MAX_CONFIG_BYTES,
  MAX_CONFIG_TEXT,
} from '../model/plain.js';
import { fileErrorIssue, regularFileSync } from './kind.js';

/** The hint of a config refused as too large. */
export const CONFIG_TOO_LARGE_HINT = 'Check that this is a config file and not a data file.';

/** An issue about the config file as a whole, placed on its first line. */
export function configFileIssue(code: Issue['code'], message: string, hint?: string): Issue {
  return issue(code, '', message, { line: 1, column: 1, hint: hint || undefined });
}

/**
 * The file's text, or an issue when it cannot be read or is far too large for a config.
 * Synchronous on purpose: files are linted one after another, and for many small files
 * plain system calls cost a fraction of the promise round trips. Four of them a file
 * (`stat`, `open`, one `read`, `close`): for a folder of small configs they are most of
 * the time, and on a virtual machine they do not get faster with more threads.
 */
export function readConfigFile(path: string): string | Issue {
  const st = regularFileSync(path, '');
  if (!(st instanceof Stats)) return { ...st, line: 1, column: 1 };
  if (st.size > MAX_CONFIG_BYTES) {
    return tooLarge(
      `The file is ${st.size} bytes; a config file is at most ${MAX_CONFIG_BYTES} (${MAX_CONFIG_TEXT}).`,
    );
  }
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    // One byte past what `stat` gave: a file at the limit that has grown since is refused.
    const buf = Buffer.allocUnsafe(Math.min(st.size + 1, MAX_CONFIG_BYTES + 1));
    let n = 0;
    for (;;) {
      const r = readSync(fd, buf, n, buf.length - n, n);
      n += r;
      // A read of a regular file stops short only at its end: no second read to see it.
      if (r === 0 || n >= st.size) break;
    }
    if (n > MAX_CONFIG_BYTES) {
      return tooLarge(`The file is larger than ${MAX_CONFIG_BYTES} bytes (${MAX_CONFIG_TEXT}).`);
    }
    return decodeConfigBytes(buf.subarray(0, n));
  } catch (err) {
    return { ...fileErrorIssue(err, ''), line: 1, column: 1 };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function tooLarge(message: string): Issue {
  return configFileIssue('input_too_large', message, CONFIG_TOO_LARGE_HINT);
}
