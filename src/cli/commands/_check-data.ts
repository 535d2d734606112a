/**
 * A config checked against its data file as the commands show it: a progress bar on a
 * terminal for full reads, issues placed on config lines (`check`, `preview`, `submit`), and
 * the data checks `lint --data` adds to a lint report.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { checkAsConfigured, type checkConfig } from '../../check/index.js';
import type { ImportDocument } from '../../model/index.js';
import type { Issue } from '../../model/plain.js';
import { pushAll } from '../../model/plain.js';
import { validateConfigText } from '../../validate/index.js';
import { type Io, showsProgress } from '../io.js';
import { createProgress, type Progress } from '../progress.js';
import { type FailOn, type FileReport, isValid } from '../reporters/index.js';
import { requireFile } from './_files.js';

/**
 * Checks a validated document against its data file, with a progress bar on a terminal
 * for full reads, and places each issue on the config line its pointer names. Shared by
 * `check` and `lint --data`.
 */
export async function checkAgainstData(
  document: ImportDocument,
  text: string,
  configFile: string,
  dataName: string,
  dataPath: string,
  io: Io,
  options: {
    full?: boolean;
    delimiter?: string;
    headerRow?: number;
    jobs?: number;
    /** False: no progress bar (several files at once share one). Default true. */
    progress?: boolean;
    /** What checks the data (default `checkConfig`; `submit` checks a batch apart). */
    check?: typeof checkConfig;
  } = {},
): Promise<Issue[]> {
  const { progress: showBar, check, ...checkOptions } = options;
  const full = options.full === true;
  const size = (await stat(dataPath)).size;
  // CSV reports bytes of the file; Parquet and HDF5 report rows: the bar takes the unit of
  // the first report.
  let progress: Progress | undefined;
  const onProgress = (done: number, total: number) => {
    progress ??= createProgress(io, `checking ${dataName}`, total, {
      unit: total === size ? 'bytes' : 'items',
    });
    progress.setTotal(total);
    progress.update(done);
  };
  try {
    return await checkAsConfigured(
      document,
      dataPath,
      { text, configName: configFile, dataName },
      {
        ...checkOptions,
        full,
        ...(check ? { check } : {}),
        ...(full && showBar !== false && showsProgress(io) ? { onProgress } : {}),
      },
    );
  } finally {
    (progress as Progress | undefined)?.done();
  }
}

/**
 * `lint --data <file>`: adds the data checks to a lint report (the config's first valid
 * document against the data file) and recomputes its verdict.
 */
export async function withDataChecks(
  report: FileReport,
  dataFile: string,
  io: Io,
  failOn: FailOn,
): Promise<void> {
  if (report.text === undefined) return;
  const dataPath = resolve(io.cwd, dataFile);
  await requireFile(dataPath, dataFile);
  const result = validateConfigText(report.text, { filename: report.file });
  const document = result.documents.find((d) => d.value !== undefined)?.value as
    | ImportDocument
    | undefined;
  if (!document) return;
  pushAll(
    report.issues,
    await checkAgainstData(document, report.text, report.file, dataFile, dataPath, io),
  );
  report.valid = isValid(report.issues, failOn);
}
