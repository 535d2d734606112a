/**
 * What the steps of Parquet inference share: the draft's root pointer, the findings
 * (issues and evidence, in the order the steps find them) and the reader of a column's
 * first page.
 */

import type { Evidence } from '../../infer/shared.js';
import { type Issue, issue as newIssue } from '../../model/plain.js';
import type { ColumnHead, ColumnHeadMissing } from './column-head.js';

/** Reads the first values of a column (one page), or says why it could not. */
export type HeadReader = (column: string) => Promise<ColumnHead | ColumnHeadMissing>;

export const P = '/parquetConfig';

/** What the steps found, in order: issues (through `issue`) and evidence. */
export interface Findings {
  issues: Issue[];
  evidence: Evidence[];
  issue: Report;
}

export function newFindings(file: string): Findings {
  const issues: Issue[] = [];
  const issue: Report = (code, path, message, hint) => {
    issues.push(newIssue(code, path, message, { hint: hint || undefined, source: { file } }));
  };
  return { issues, evidence: [], issue };
}

export type Report = (code: Issue['code'], path: string, message: string, hint?: string) => void;
