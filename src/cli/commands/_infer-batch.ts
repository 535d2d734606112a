import { resolve } from 'node:path';
import { type InferOptions, inferBatch } from '../../infer/index.js';
import { hasErrors } from '../../model/index.js';
import { EXIT_INVALID, EXIT_OK } from '../errors.js';
import type { Io } from '../io.js';
import { createProgress } from '../progress.js';
import { draftText, explainTable, writeDraft, writeIssues } from './_draft-output.js';

export interface BatchFlags {
  defaults: boolean;
  jobs: number;
  /** A folder's worker threads start once they pay for their start (no `--jobs`). */
  threadsAsTheyPay: boolean;
  explain: boolean;
  format: string;
  output: string | undefined;
}

/** `importkit infer <folder | archive>`: a draft batchConfig, progress in files on a terminal. */
export async function inferBatchCommand(
  io: Io,
  file: string,
  options: InferOptions,
  flags: BatchFlags,
): Promise<number> {
  const progress = createProgress(io, `inferring ${file}`, 0, { unit: 'items' });
  let draft: Awaited<ReturnType<typeof inferBatch>>;
  try {
    draft = await inferBatch(resolve(io.cwd, file), {
      ...options,
      defaults: flags.defaults,
      jobs: flags.jobs,
      threadsAsTheyPay: flags.threadsAsTheyPay,
      ...(progress.active
        ? {
            onFiles: (done: number, total: number) => {
              progress.setTotal(Math.max(total, done));
              progress.update(done);
            },
          }
        : {}),
    });
  } finally {
    progress.done();
  }
  const text = draftText(draft, file, flags.format);
  if (flags.explain) io.stderr.write(explainTable(draft.evidence));
  writeIssues(draft.issues, file, io.stderr);
  if (!(await writeDraft(io, text, flags.output))) return EXIT_INVALID;
  return hasErrors(draft.issues) ? EXIT_INVALID : EXIT_OK;
}
