/** Runs: `PATCH /api/v2/runs` (the id in the body); client_key is set once, archiving dates. */
import { RUN_UPDATE_MASK_FIELDS, Run } from '../../model/index.js';
import { HttpFailure } from '../http.js';
import type { UpdateSpec } from './update.js';

export const runUpdate: UpdateSpec = {
  operation: 'UpdateRun',
  path: '/api/v2/runs',
  key: 'run',
  schema: Run,
  what: 'run',
  table: 'runs',
  idField: 'runId',
  fields: RUN_UPDATE_MASK_FIELDS,
  onField: (run, path, value, id, ctx) => {
    if (path === 'client_key' && typeof run.clientKey === 'string' && run.clientKey !== '') {
      throw new HttpFailure(9, `run ${id} already has a client_key: it can be set only once`);
    }
    if (path === 'is_archived') {
      if (value === true && run.isArchived !== true) run.archivedDate = ctx.now();
      if (value !== true) delete run.archivedDate;
    }
  },
};
