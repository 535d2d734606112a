/** The organization of the caller's API key. */
import { Organization } from '../../model/index.js';
import type { Route } from './table.js';

export const organizationRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/v2/api-keys/organization',
    handler: ({ org }) => ({ organization: Organization.parse({ ...org, isAbacEnabled: false }) }),
  },
];
