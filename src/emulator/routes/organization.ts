/** The organization of the caller's API key. */
import { Organization } from '../../model/index.js';
import { messageOf } from '../proto-shape.js';
import { writeMessage } from '../proto-write.js';
import type { Route } from './table.js';

export const organizationRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/v2/api-keys/organization',
    handler: ({ org }) => ({
      organization: writeMessage(messageOf(Organization), { ...org, isAbacEnabled: false }),
    }),
  },
];
