/**
 * What every step of CSV inference shares: the config's key for pointers, the recorder of
 * each choice's evidence, the names a file's asset and its normalized copy take, and the
 * row an issue's place (`row 12`) points to.
 */
import { basename } from 'node:path';
import type { Confidence, Evidence } from '../../infer/shared.js';

export const CSV = 'csvConfig';

/** The file's base name without `.csv`, `.tsv`, `.txt` or `.gz`. */
export function assetNameOf(path: string): string {
  return basename(path)
    .replace(/\.gz$/i, '')
    .replace(/\.(csv|tsv|txt)$/i, '');
}

/** Records one choice with its evidence. */
export type RecordEvidence = (
  path: string,
  choice: string,
  reason: string,
  confidence: Confidence,
  alternatives?: string[],
) => void;

export function evidenceRecorder(evidence: Evidence[]): RecordEvidence {
  return (path, choice, reason, confidence, alternatives) => {
    const e: Evidence = { path, choice, reason, confidence };
    if (alternatives && alternatives.length > 0) e.alternatives = alternatives;
    evidence.push(e);
  };
}

/** `data.csv` → `data.normalized.csv`: where `normalize` is told to write in hints. */
export function normalizedName(file: string): string {
  return `${assetNameOf(file)}.normalized.csv`;
}

export function normalizeHint(file: string): string {
  return `Convert the file: importkit normalize ${basename(file)} -o ${normalizedName(file)}`;
}

export function rowOf(where: string): number {
  const m = /^row (\d+)$/.exec(where);
  return m ? Number(m[1]) : Number.MAX_SAFE_INTEGER;
}

export function rowSource(where: string | undefined): { row?: number } {
  const row = where === undefined ? Number.NaN : rowOf(where);
  return Number.isFinite(row) && row !== Number.MAX_SAFE_INTEGER ? { row } : {};
}
