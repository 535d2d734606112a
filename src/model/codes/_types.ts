/** How bad an issue is. `error` makes a result not ok; `info` is only shown on request. */
export type Severity = 'error' | 'warning' | 'info';

/** The documentation of one issue code: what it means and how to fix it. */
export interface CodeDoc {
  /** The severity the code is usually reported with. */
  severity: Severity;
  /** One sentence: what the code means. */
  summary: string;
  /** One sentence or two: how to fix it. */
  fix: string;
}
