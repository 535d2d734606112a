/** User-defined function versions: listed by version ids and/or function id. */
import { UserDefinedFunctionVersion } from '../../model/index.js';
import { messageOf } from '../proto-shape.js';
import { writeMessage } from '../proto-write.js';
import type { Route } from './table.js';

export const functionRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/v1/user-defined-functions/versions',
    handler: ({ url, orgId }, ctx) => {
      const ids = url.searchParams.getAll('userDefinedFunctionVersionIds');
      const fid = url.searchParams.get('userDefinedFunctionId');
      const all = Object.values(ctx.store.data.udfVersions)
        .filter((v) => v.orgId === orgId)
        .map((v) => v.value)
        .filter((v) => ids.length === 0 || ids.includes(v.userDefinedFunctionVersionId ?? ''))
        .filter((v) => !fid || v.userDefinedFunctionId === fid);
      const message = messageOf(UserDefinedFunctionVersion);
      return { userDefinedFunctions: all.map((v) => writeMessage(message, v)) };
    },
  },
];
