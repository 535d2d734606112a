/** Saved searches: `PATCH /api/v1/saved_searches` (the id in the body). */
import { SavedSearch } from '../../model/index.js';
import type { UpdateSpec } from './update.js';

export const savedSearchUpdate: UpdateSpec = {
  operation: 'UpdateSavedSearch',
  path: '/api/v1/saved_searches',
  key: 'savedSearch',
  schema: SavedSearch,
  what: 'saved search',
  table: 'savedSearches',
  idField: 'savedSearchId',
  fields: ['name', 'properties'],
};
