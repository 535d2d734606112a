/**
 * Vitest global setup: one temp root per run. Every temp folder a test (or a command it runs,
 * in-process or as a child process) makes through `os.tmpdir()` lands under it, and it is
 * removed at the end, so the run leaves the OS temp directory as it found it. Entries still
 * there at the end are listed: each test removes what it made.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The variable that tells a test where this run's temp root is. */
export const TEMP_ROOT_VAR = 'IMPORTKIT_TEST_TEMP_ROOT';
const VARS = ['TMPDIR', 'TMP', 'TEMP'] as const;

export default function setup(): () => void {
  const before = VARS.map((v) => process.env[v]);
  const root = mkdtempSync(join(tmpdir(), 'importkit-test-run-'));
  for (const v of VARS) process.env[v] = root;
  process.env[TEMP_ROOT_VAR] = root;
  return () => {
    const left = readdirSync(root);
    rmSync(root, { recursive: true, force: true });
    VARS.forEach((v, i) => {
      const value = before[i];
      if (value === undefined) delete process.env[v];
      else process.env[v] = value;
    });
    delete process.env[TEMP_ROOT_VAR];
    if (left.length > 0) {
      process.stderr.write(`temp entries a test left behind (now removed): ${left.join(', ')}\n`);
    }
  };
}
