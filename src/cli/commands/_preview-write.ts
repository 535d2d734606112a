/**
 * The preview page written for a config and its data file, checked first: shared by
 * `preview` and `infer --preview`.
 */
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { Evidence } from '../../infer/index.js';
import type { ImportDocument } from '../../model/index.js';
import type { Issue } from '../../model/plain.js';
import { buildPreview } from '../../preview/index.js';
import type { Io } from '../io.js';
import { printable } from '../printable.js';
import { createProgress } from '../progress.js';
import { checkAgainstData } from './_check-data.js';
import { writeOutput } from './_outputs.js';

export interface WritePreview {
  /** The command writing it (`preview`, `infer`), for its messages. */
  command: string;
  document: ImportDocument;
  configText: string;
  configName: string;
  dataFile: string;
  output: string;
  full: boolean;
  /** Issues the config already has (validation, inference); the check's are added. */
  issues: readonly Issue[];
  evidence?: readonly Evidence[];
}

/**
 * Checks the config against its data file, builds the preview page and writes it, with a
 * progress bar on a terminal for full reads. Returns every issue shown (undefined when the
 * page could not be written). Shared by `preview` and `infer --preview`.
 */
export async function writePreview(io: Io, p: WritePreview): Promise<Issue[] | undefined> {
  const dataPath = resolve(io.cwd, p.dataFile);
  const checked = await checkAgainstData(
    p.document,
    p.configText,
    p.configName,
    p.dataFile,
    dataPath,
    io,
    { full: p.full },
  );
  const issues = [...p.issues, ...checked];
  const progress = p.full
    ? createProgress(io, `reading ${basename(p.dataFile)}`, (await stat(dataPath)).size)
    : undefined;
  let html: string;
  let notes: string[];
  try {
    ({ html, notes } = await buildPreview({
      document: p.document,
      dataPath,
      dataName: p.dataFile,
      configText: p.configText,
      configName: p.configName,
      issues,
      ...(p.evidence ? { evidence: p.evidence } : {}),
      full: p.full,
      ...(progress?.active
        ? {
            onProgress: (done: number, total: number) => {
              progress.setTotal(total);
              progress.update(done);
            },
          }
        : {}),
    }));
  } finally {
    progress?.done();
  }
  const errors = issues.filter((i) => i.severity === 'error').length;
  const said = errors > 0 ? ` (the config has ${errors} error(s): see the page)` : '';
  if (!(await writeOutput(io, p.command, p.output, html, said))) return undefined;
  for (const note of notes) io.stderr.write(`note: ${printable(note)}\n`);
  return issues;
}
