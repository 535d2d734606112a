/**
 * Every operation the emulator answers, as one table (method + path → handler), in the
 * order they are tried. Add an operation by adding a row in its resource's file.
 */
import { assetRoutes } from './assets.js';
import { channelUpdate } from './channels.js';
import { emulatorRoutes } from './emulator.js';
import { functionRoutes } from './functions.js';
import { importRoutes } from './imports.js';
import { organizationRoutes } from './organization.js';
import { runUpdate } from './runs.js';
import { savedSearchUpdate } from './saved-searches.js';
import type { Route } from './table.js';
import { updateRoute } from './update.js';
import { uploadRoutes } from './uploads.js';
import { viewUpdate } from './views.js';

export { findRoute } from './table.js';
export { filenameOf } from './uploads.js';

/** The four PATCH operations: one handler, one row per resource. */
const UPDATES = [viewUpdate, runUpdate, channelUpdate, savedSearchUpdate];

export const ROUTES: readonly Route[] = [
  ...organizationRoutes,
  ...importRoutes,
  ...uploadRoutes,
  ...UPDATES.map(updateRoute),
  ...functionRoutes,
  ...assetRoutes,
  ...emulatorRoutes,
];
