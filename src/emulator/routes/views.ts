/** Views: `PATCH /api/v1/views/{id}` (the id in the path). */
import { View } from '../../model/index.js';
import type { UpdateSpec } from './update.js';

export const viewUpdate: UpdateSpec = {
  operation: 'UpdateView',
  path: /^\/api\/v1\/views\/([^/]+)$/,
  key: 'view',
  schema: View,
  what: 'view',
  table: 'views',
  fields: ['name', 'axis_groups', 'channels', 'is_pinned'],
};
