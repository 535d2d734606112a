/**
 * One member of a folder or an archive → what the batch lists for it: left out (not data),
 * its type and config, or the issues that stopped its inference.
 */
import {
  type ByteSource,
  detectFormat,
  type FileFormat,
  formatById,
  InspectError,
  leftOutByContent,
  leftOutByName,
  unknownFormatError,
} from '../inspect/index.js';
import type { Issue } from '../model/plain.js';
import { finishDraft } from './finish.js';
import type { Draft, InferOptions } from './types.js';

/** What the walk found for one member. */
export type MemberResult =
  | { path: string; outcome: 'left-out'; reason: string }
  | { path: string; outcome: 'draft'; format: FileFormat; draft: Draft }
  | { path: string; outcome: 'type-only'; format: FileFormat }
  | { path: string; outcome: 'failed'; format: FileFormat; issues: Issue[] };

/** Options of one member's inference: the batch's, without what the batch sets itself. */
function memberOptions(options: InferOptions): InferOptions {
  const { assetName: _a, runName: _r, onProgress: _p, ...rest } = options;
  return rest;
}

/**
 * A member's draft through the format table: from its bytes (every built-in format, HDF5
 * included: its reader reads the member where it is), or from `file` (a folder's file) for
 * a format that can only be read by path; undefined for such a member of an archive, and
 * for a format a batch lists by its type only (CH10): the batch lists it by its type.
 */
async function inferMember(
  path: string,
  source: ByteSource,
  format: FileFormat,
  file: string | undefined,
  options: InferOptions,
): Promise<Draft | undefined> {
  const entry = formatById(format);
  if (!entry) throw unknownFormatError(path);
  if (entry.batch === 'type-only') return undefined;
  if (entry.inferSource) return entry.inferSource(source, options);
  if (file === undefined) return undefined;
  return entry.infer(file, options);
}

/** Detects a member's format and infers its draft; a failure becomes the member's issues. */
export async function examineMember(
  path: string,
  open: () => Promise<ByteSource>,
  file: string | undefined,
  options: InferOptions,
): Promise<MemberResult> {
  const byName = leftOutByName(path);
  if (byName) return { path, outcome: 'left-out', reason: byName };
  let format: FileFormat = 'unknown';
  let source: ByteSource | undefined;
  try {
    source = await open();
    const detection = await detectFormat(source);
    format = detection.format;
    const why = leftOutByContent(path, format, detection.by);
    if (why) return { path, outcome: 'left-out', reason: why };
    const draft = await inferMember(path, source, format, file, memberOptions(options));
    if (!draft) return { path, outcome: 'type-only', format };
    return { path, outcome: 'draft', format, draft: finishDraft(draft) };
  } catch (err) {
    if (!(err instanceof InspectError)) throw err;
    return { path, outcome: 'failed', format, issues: err.issues };
  } finally {
    await source?.close();
  }
}
