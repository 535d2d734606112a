/**
 * One member of a folder or an archive → what the batch lists for it: left out (not data),
 * its type and config, or the issues that stopped its inference.
 */
import { join } from 'node:path';
import {
  type ByteSource,
  type ContainerKind,
  detectFormat,
  type FileFormat,
  InspectError,
  leftOutByContent,
  leftOutByName,
} from '../inspect/index.js';
import type { Issue } from '../model/issue.js';
import { issue } from '../model/make-issue.js';
import { finishDraft } from './index.js';
import type { Draft, InferOptions } from './types.js';

/** What the walk found for one member. */
export type MemberResult =
  | { path: string; outcome: 'left-out'; reason: string }
  | { path: string; outcome: 'draft'; format: FileFormat; draft: Draft }
  | { path: string; outcome: 'type-only'; format: FileFormat; issue: Issue }
  | { path: string; outcome: 'failed'; format: FileFormat; issues: Issue[] };

/** Options of one member's inference: the batch's, without what the batch sets itself. */
function memberOptions(options: InferOptions): InferOptions {
  const { assetName: _a, runName: _r, onProgress: _p, ...rest } = options;
  return rest;
}

async function inferMember(
  source: ByteSource,
  format: FileFormat,
  options: InferOptions,
): Promise<Draft> {
  switch (format) {
    case 'csv':
      return (await import('./csv.js')).inferCsvSource(source, options);
    case 'parquet':
      return (await import('./parquet.js')).inferParquetSource(source, options);
    case 'tdms': {
      const { inspectTdmsSource } = await import('../inspect/index.js');
      const { draftFromTdmsProfile } = await import('./tdms.js');
      return draftFromTdmsProfile(await inspectTdmsSource(source), options);
    }
    default: {
      const { inspectUlogSource } = await import('../inspect/index.js');
      const { draftFromUlogProfile } = await import('./ulog.js');
      return draftFromUlogProfile(await inspectUlogSource(source), options);
    }
  }
}

/** Where the member lives, for HDF5 (read by path: only a folder's members have one). */
export interface MemberPlace {
  kind: ContainerKind;
  root: string;
}

function typeOnlyIssue(path: string): Issue {
  return issue(
    'batch_member_not_inspected',
    '',
    `${path}: an HDF5 file inside an archive is listed with its type only (importkit reads HDF5 files in place, not inside archives)`,
    {
      hint: 'Infer the folder the archive was made from to get its own config, or write one.',
      source: { file: path },
    },
  );
}

/** Detects a member's format and infers its draft; a failure becomes the member's issues. */
export async function examineMember(
  path: string,
  open: () => Promise<ByteSource>,
  place: MemberPlace,
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
    const opts = memberOptions(options);
    if (format === 'hdf5') {
      if (place.kind !== 'folder')
        return { path, outcome: 'type-only', format, issue: typeOnlyIssue(path) };
      const { inferHdf5 } = await import('./hdf5.js');
      return {
        path,
        outcome: 'draft',
        format,
        draft: finishDraft(await inferHdf5(join(place.root, path), opts)),
      };
    }
    return {
      path,
      outcome: 'draft',
      format,
      draft: finishDraft(await inferMember(source, format, opts)),
    };
  } catch (err) {
    if (!(err instanceof InspectError)) throw err;
    return { path, outcome: 'failed', format, issues: err.issues };
  } finally {
    await source?.close();
  }
}
