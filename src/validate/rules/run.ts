import { type Issue, issue } from '../../model/plain.js';
import { configsOf, given, join, type Rule } from './_walk.js';

/**
 * runName with runId (runId wins: a warning); importFileProperties needs a run (its own or,
 * inside a batch, the batch's). Run fields inside a batch's configs are the batch rule's.
 */
export const runRule: Rule = (doc) => {
  const out: Issue[] = [];
  for (const c of configsOf(doc)) {
    const cfg = c.config;
    if (!c.inBatch && given(cfg.runName) && given(cfg.runId)) {
      out.push(
        issue(
          'run_name_and_run_id',
          join(c.path, 'runName'),
          'Both runName and runId are set: the import goes into the run runId names, and runName is ignored.',
          'Remove runName (to add to the existing run) or runId (to create a new run).',
        ),
      );
    }
    if (cfg.importFileProperties === true) {
      const run =
        given(cfg.runName) ||
        given(cfg.runId) ||
        (c.batch !== undefined && (given(c.batch.runName) || given(c.batch.runId)));
      if (!run) {
        out.push(
          issue(
            'import_file_properties_without_run',
            join(c.path, 'importFileProperties'),
            'importFileProperties is only valid when the import goes into a run.',
            'Set runName or runId, or remove importFileProperties.',
          ),
        );
      }
    }
  }
  return out;
};
