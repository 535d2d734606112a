/** The emulator as a child process for the benches: `importkit serve` on a free port. */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'importkit.js');

/** The benches' API key, accepted by the emulator `serveEmulator` starts. */
export const BENCH_KEY = 'bench-key-0123456789';

/**
 * Starts `importkit serve` with `extra` arguments (a `--data-dir`, say); answers its URL once
 * it listens, the child, and the milliseconds it took to start.
 */
export function serveEmulator(
  extra: readonly string[] = [],
): Promise<{ url: string; child: ChildProcess; ms: number }> {
  const start = performance.now();
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', ...extra, '--api-key', `${BENCH_KEY}=bench`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let err = '';
  child.stderr?.on('data', (d) => {
    err += String(d);
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d) => {
      out += String(d);
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) resolve({ url: m[1], child, ms: performance.now() - start });
    });
    child.on('exit', (c) => reject(new Error(`serve exited ${c}: ${err}`)));
  });
}
