/** A worker thread of `importkit lint` (see `_lint-jobs.ts`): lints the runs of files it claims. */
import { parentPort, workerData } from 'node:worker_threads';
import type { Io } from '../io.js';
import type { FailOn } from '../reporters/index.js';
import { CHUNK, claimRun, type FromLintWorker, type LintWorkerInput } from './_lint-jobs.js';
import { lintFile } from './lint.js';

const input = workerData as LintWorkerInput;
// lintFile reads only the working folder of its Io for a named file (never stdin).
const io = { cwd: input.cwd } as Io;
const runs = Math.ceil(input.files.length / CHUNK);
for (let k = claimRun(input.claimed, runs); k !== undefined; k = claimRun(input.claimed, runs)) {
  const reports = [];
  for (const f of input.files.slice(k * CHUNK, (k + 1) * CHUNK)) {
    reports.push(await lintFile(f, io, input.failOn as FailOn));
  }
  parentPort?.postMessage({ k, reports } satisfies FromLintWorker);
}
parentPort?.postMessage({ end: true } satisfies FromLintWorker);
