/**
 * Channels: `PATCH /api/v3/channels` (the id in the body). The mask allows what the public
 * proto lists for UpdateChannel: `display_description`, `display_units` (it sets
 * `displayUnitId`: the Channel message has no `display_units` field), `metadata`, `active`.
 */
import { Channel } from '../../model/index.js';
import type { UpdateSpec } from './update.js';

export const channelUpdate: UpdateSpec = {
  operation: 'UpdateChannel',
  path: '/api/v3/channels',
  key: 'channel',
  schema: Channel,
  what: 'channel',
  table: 'channels',
  idField: 'channelId',
  fields: ['display_description', 'display_units', 'metadata', 'active'],
  fieldOf: { display_units: 'displayUnitId' },
};
