/**
 * Routes of the emulator's own, for tests, under the reserved prefix `/_emulator/` (no
 * operation of the platform starts with it): `GET /_emulator/resources` answers the
 * caller's organization's runs, assets, channels, views, saved searches and function
 * versions, written as the platform writes each, so a test can find the ids no answer
 * of the reference carries (a channel's, an asset's before an import names it).
 */
import {
  Asset,
  Channel,
  Run,
  SavedSearch,
  UserDefinedFunctionVersion,
  View,
} from '../../model/index.js';
import type { EmulatorContext } from '../context.js';
import { messageOf } from '../proto-shape.js';
import { writeMessage } from '../proto-write.js';
import type { Owned } from '../store-state.js';
import type { Route, RouteCall } from './table.js';

export const EMULATOR_PREFIX = '/_emulator/';

export const emulatorRoutes: Route[] = [
  { method: 'GET', path: `${EMULATOR_PREFIX}resources`, handler: resources },
];

function resources({ orgId }: RouteCall, ctx: EmulatorContext) {
  const d = ctx.store.data;
  const mine = <T>(table: Record<string, Owned<T>>, schema: Parameters<typeof messageOf>[0]) =>
    Object.values(table)
      .filter((r) => r.orgId === orgId)
      .map((r) => writeMessage(messageOf(schema), r.value));
  return {
    runs: mine(d.runs, Run),
    assets: mine(d.assets, Asset),
    channels: mine(d.channels, Channel),
    views: mine(d.views, View),
    savedSearches: mine(d.savedSearches, SavedSearch),
    userDefinedFunctionVersions: mine(d.udfVersions, UserDefinedFunctionVersion),
  };
}
