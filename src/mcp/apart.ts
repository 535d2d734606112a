/**
 * Runs a job (`jobs.ts`) in a worker thread of its own, one per tool call: the call's
 * memory is bounded (the worker's heap limit), its time too (the server's --timeout), and
 * a cancelled call ends its thread at once (`terminate`), with whatever threads it
 * started. Whatever the library prints goes to stderr, never into the protocol on stdout.
 * The server itself holds only the protocol: a call that runs out of memory ends its
 * worker, not the server.
 */
import { Worker } from 'node:worker_threads';
import { fail, ToolFailure } from './failure.js';
import type { FromJob, JobRequest } from './job-worker.js';
import type { JobInput, JobName, JobOutput } from './jobs.js';

// Beside this module: job-worker.js in dist/; under the tests, the TypeScript source (the
// tests' module hooks load it, as for the CSV scan workers).
const JOB_WORKER = new URL('./job-worker.js', import.meta.url);

export interface ApartOptions {
  /** The client's cancellation: the worker is ended and the call rejects with the reason. */
  signal: AbortSignal;
  /** Time limit of the call, in ms. */
  timeoutMs: number;
  /** Heap limit of the call's thread, in MiB. */
  memoryMb: number;
  onProgress: (done: number, total: number) => void;
}

/** Runs `job` apart and answers its value, or throws the ToolFailure it ended with. */
export function runApart<J extends JobName>(
  job: J,
  input: JobInput<J>,
  options: ApartOptions,
): Promise<JobOutput<J>> {
  if (options.signal.aborted) return Promise.reject(options.signal.reason);
  const request: JobRequest = { job, input };
  const worker = new Worker(JOB_WORKER, {
    workerData: request,
    stdout: true,
    stderr: true,
    resourceLimits: { maxOldGenerationSizeMb: options.memoryMb },
  });
  worker.stdout.pipe(process.stderr);
  worker.stderr.pipe(process.stderr);
  return new Promise<JobOutput<J>>((resolve, reject) => {
    let settled = false;
    const end = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      outcome();
    };
    const onAbort = () => end(() => reject(options.signal.reason));
    const timer = setTimeout(
      () =>
        end(() =>
          reject(
            fail(
              'tool_limit_exceeded',
              `the call ran past the server's time limit (${Math.round(options.timeoutMs / 1000)} s) and was stopped`,
              'leave out `full`, or start the server with a longer --timeout',
            ),
          ),
        ),
      options.timeoutMs,
    );
    options.signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (m: FromJob) => {
      if (m.type === 'progress') options.onProgress(m.done, m.total);
      else if (m.type === 'done') end(() => resolve(m.value as JobOutput<J>));
      else end(() => reject(new ToolFailure(m.issue)));
    });
    worker.on('error', (err: Error & { code?: string }) =>
      end(() =>
        reject(
          err.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? fail(
                'tool_limit_exceeded',
                `the call needed more than the server's memory limit (${options.memoryMb} MiB) and was stopped`,
                'read less (leave out `full`, inspect a smaller part), or start the server with a larger --memory',
              )
            : fail('tool_failed', err.message),
        ),
      ),
    );
    worker.on('exit', (code) =>
      end(() =>
        reject(
          fail('tool_failed', `the call's thread ended (exit code ${code}) without an answer`),
        ),
      ),
    );
  });
}
