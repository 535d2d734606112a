/**
 * A large decode whose objects outlive it (a Parquet footer of thousands of row groups) made
 * V8's young generation grow to its largest, and it stayed that size for the rest of the
 * process. V8 grows the young generation when more bytes survive its collections than it
 * holds, by `--semi-space-growth-factor` (2 by default), a flag it reads at each growth.
 * Held at 1 while such a decode runs, the surviving objects move to the old generation as
 * they would anyway, and the young generation keeps its size.
 *
 * Measured on bench/check-parquet's 100 M-row file (a footer of 437 KB, 814 row groups):
 * its decode took 85 ms and left a heap of 25.5 MiB (15 MiB of it live); held, 102 ms and
 * 15.2 MiB. `importkit inspect` of the file peaked at 117 to 122 MiB of RSS, held at 103
 * to 108 MiB (three runs each, alternated).
 */
import { setFlagsFromString } from 'node:v8';

/** V8's default growth factor: what the flag is set back to. */
const DEFAULT_GROWTH = 2;

/**
 * Runs `work` (synchronous: nothing else of this thread runs meanwhile) with the young
 * generation held at its size. The flag is the process's: a worker thread collecting while
 * `work` runs keeps its size too, which costs it collections, never values. A process
 * started with its own `--semi-space-growth-factor` keeps it.
 */
export function withYoungGenerationHeld<T>(work: () => T): T {
  if (process.execArgv.some((a) => a.startsWith('--semi-space-growth-factor'))) return work();
  setFlagsFromString('--semi-space-growth-factor=1');
  try {
    return work();
  } finally {
    setFlagsFromString(`--semi-space-growth-factor=${DEFAULT_GROWTH}`);
  }
}
