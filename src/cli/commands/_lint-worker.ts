/** A worker thread of `importkit lint` (see `_lint-jobs.ts`): lints the runs of files it is sent. */
import { serveParts } from '../../values/index.js';
import type { Io } from '../io.js';
import type { FailOn } from '../reporters/index.js';
import { type LintWorkerInput, lintRun } from './_lint-jobs.js';
import { lintFile } from './lint.js';

serveParts((run: string[], input: LintWorkerInput) => {
  // lintFile reads only the working folder of its Io for a named file (never stdin).
  const io = { cwd: input.cwd } as Io;
  return lintRun(run, (f) => lintFile(f, io, input.failOn as FailOn));
});
