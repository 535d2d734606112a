import type { Issue } from '../model/index.js';

/**
 * Thrown by a builder whose output would not be a valid config: it carries the same
 * issues validation reports (codes, JSON pointers into the built document, hints).
 */
export class ConfigBuildError extends Error {
  override readonly name = 'ConfigBuildError';
  readonly issues: readonly Issue[];

  constructor(builder: string, issues: readonly Issue[]) {
    const errors = issues.filter((i) => i.severity === 'error');
    const shown = errors.slice(0, 3).map((i) => `${i.path || '/'}: ${i.message} [${i.code}]`);
    const more = errors.length > 3 ? ` (and ${errors.length - 3} more)` : '';
    super(`${builder}: ${shown.join('; ')}${more}`);
    this.issues = issues;
  }
}
