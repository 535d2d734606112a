/** Channels: `PATCH /api/v3/channels` (the id in the body). */
import { Channel } from '../../model/index.js';
import type { UpdateSpec } from './update.js';

export const channelUpdate: UpdateSpec = {
  path: '/api/v3/channels',
  key: 'channel',
  schema: Channel,
  what: 'channel',
  table: 'channels',
  idField: 'channelId',
  fields: [
    'name',
    'description',
    'unit_id',
    'display_description',
    'display_unit_id',
    'active',
    'metadata',
    'enum_types',
    'bit_field_elements',
    'data_type',
  ],
};
