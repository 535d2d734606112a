/**
 * A config file's text, read as `lint` reads it: at most MAX_CONFIG_BYTES (a larger file is a data
 * file given by mistake, refused before it is read), decoded as UTF-8 (a UTF-16 file and a
 * BOM are handled by the validator's decoder). Shared by the command line and the MCP
 * server, so that both refuse the same files with the same issue.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import {
  decodeConfigBytes,
  type Issue,
  issue,
  MAX_CONFIG_BYTES,
  MAX_CONFIG_TEXT,
} from '../model/plain.js';
import { fileProblemSync } from './kind.js';

/** The hint of a config refused as too large. */
export const CONFIG_TOO_LARGE_HINT = 'Check that this is a config file and not a data file.';

/** An issue about the config file as a whole, placed on its first line. */
export function configFileIssue(code: Issue['code'], message: string, hint?: string): Issue {
  return issue(code, '', message, { line: 1, column: 1, hint: hint || undefined });
}

/**
 * The file's text, or an issue when it cannot be read or is far too large for a config.
 * Synchronous on purpose: files are linted one after another, and for many small files
 * plain system calls cost a fraction of the promise round trips.
 */
export function readConfigFile(path: string): string | Issue {
  const problem = fileProblemSync(path, '');
  if (problem) return { ...problem, line: 1, column: 1 };
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const st = fstatSync(fd);
    if (st.size > MAX_CONFIG_BYTES) {
      return configFileIssue(
        'input_too_large',
        `The file is ${st.size} bytes; a config file is at most ${MAX_CONFIG_BYTES} (${MAX_CONFIG_TEXT}).`,
        CONFIG_TOO_LARGE_HINT,
      );
    }
    // Read one byte past the limit: a file that grew meanwhile is still caught.
    const buf = Buffer.allocUnsafe(Math.min(st.size + 1, MAX_CONFIG_BYTES + 1));
    let n = 0;
    for (;;) {
      const r = readSync(fd, buf, n, buf.length - n, n);
      if (r === 0) break;
      n += r;
      if (n === buf.length) break;
    }
    if (n > MAX_CONFIG_BYTES) {
      return configFileIssue(
        'input_too_large',
        `The file is larger than ${MAX_CONFIG_BYTES} bytes (${MAX_CONFIG_TEXT}).`,
        CONFIG_TOO_LARGE_HINT,
      );
    }
    return decodeConfigBytes(buf.subarray(0, n));
  } catch (err) {
    const code = (err as { code?: string }).code;
    return configFileIssue(
      code === 'ENOENT' ? 'file_not_found' : 'file_unreadable',
      `The file cannot be read (${code ?? (err instanceof Error ? err.message : String(err))}).`,
    );
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
