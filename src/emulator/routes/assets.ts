/** Assets: `GET /api/v1/assets/{id}`. */
import { Asset } from '../../model/index.js';
import { owned } from '../context.js';
import { messageOf } from '../proto-shape.js';
import { writeMessage } from '../proto-write.js';
import type { Route } from './table.js';

export const assetRoutes: Route[] = [
  {
    method: 'GET',
    path: /^\/api\/v1\/assets\/([^/]+)$/,
    handler: ({ params, orgId }, ctx) => ({
      asset: writeMessage(
        messageOf(Asset),
        owned(ctx.store.data.assets, params[0] ?? '', orgId, 'asset').value,
      ),
    }),
  },
];
