/** The issues HDF5 inference finds, in the order its steps find them, and the draft's root pointer. */

import { type Issue, issue as newIssue } from '../../model/plain.js';

export const P = '/hdf5Config';

type Report = (
  code: Issue['code'],
  path: string,
  message: string,
  extra?: { hint?: string; dataset?: string },
) => void;

/** The issues the steps found, in order, and how they add one. */
export interface Findings {
  issues: Issue[];
  issue: Report;
}

export function newFindings(file: string): Findings {
  const issues: Issue[] = [];
  const issue: Report = (code, path, message, extra = {}) => {
    issues.push(
      newIssue(code, path, message, {
        hint: extra.hint || undefined,
        source: { file, ...(extra.dataset ? { dataset: extra.dataset } : {}) },
      }),
    );
  };
  return { issues, issue };
}
