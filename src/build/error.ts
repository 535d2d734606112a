import type { Issue } from '../model/index.js';
import { ConfigValidationError } from '../validate/index.js';

/**
 * Thrown by a builder whose output would not be a valid config. It is a
 * ConfigValidationError (catch either) and carries the same issues validation reports:
 * codes, JSON pointers into the built document, hints.
 */
export class ConfigBuildError extends ConfigValidationError {
  constructor(builder: string, issues: readonly Issue[]) {
    super([...issues]);
    this.name = 'ConfigBuildError';
    const errors = issues.filter((i) => i.severity === 'error');
    const shown = errors.slice(0, 3).map(shownIssue);
    const more = errors.length > 3 ? ` (and ${errors.length - 3} more)` : '';
    this.message = `${builder}: ${shown.join('; ')}${more}`;
  }
}

/** One issue in the error's message: where, what and its code, then its hint. */
function shownIssue(i: Issue): string {
  return `${i.path || '/'}: ${i.message} [${i.code}]${i.hint ? ` ${i.hint}` : ''}`;
}
