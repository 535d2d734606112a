/**
 * Resources a test puts in the emulator before it starts (`--seed FILE`, or `seed` in
 * code): runs, assets, channels, views, saved searches and user-defined function versions,
 * which the reference can update or read but gives no way to create (no answer carries a
 * channel id). Each is read as the platform's reader would read it (a wrong type is an
 * error naming the field; an unknown field is refused), given to one organization, and
 * keeps the id it names (else gets a stable one). A restart with the same store keeps
 * what it already holds.
 */
import {
  Asset,
  Channel,
  Run,
  SavedSearch,
  UserDefinedFunctionVersion,
  View,
} from '../model/index.js';
import { commit, type EmulatorContext, stableId } from './context.js';
import { HttpFailure } from './http.js';
import { readMessage } from './proto-read.js';
import { messageOf } from './proto-shape.js';
import type { Owned, Table } from './store-state.js';

/** The seed file: each list optional; `organization` names the API key's organization it is for. */
export interface EmulatorSeed {
  organization?: string;
  runs?: unknown[];
  assets?: unknown[];
  channels?: unknown[];
  views?: unknown[];
  savedSearches?: unknown[];
  userDefinedFunctionVersions?: unknown[];
}

/** What a seed list holds: its table, its schema and the field of each resource's id. */
const SEED_TABLES = [
  { list: 'runs', table: 'runs', schema: Run, idField: 'runId' },
  { list: 'assets', table: 'assets', schema: Asset, idField: 'assetId' },
  { list: 'channels', table: 'channels', schema: Channel, idField: 'channelId' },
  { list: 'views', table: 'views', schema: View, idField: 'viewId' },
  { list: 'savedSearches', table: 'savedSearches', schema: SavedSearch, idField: 'savedSearchId' },
  {
    list: 'userDefinedFunctionVersions',
    table: 'udfVersions',
    schema: UserDefinedFunctionVersion,
    idField: 'userDefinedFunctionVersionId',
  },
] as const satisfies ReadonlyArray<{
  list: keyof EmulatorSeed;
  table: Exclude<Table, 'imports'>;
  schema: unknown;
  idField: string;
}>;

/** A seed that cannot be used: what is wrong, naming the resource and field. */
export class SeedError extends Error {
  override name = 'SeedError';
}

/** The ids seeded, by list. */
export type SeededIds = Partial<Record<(typeof SEED_TABLES)[number]['list'], string[]>>;

/** Puts the seed's resources into the store for `orgId`; answers their ids. */
export async function applySeed(
  ctx: EmulatorContext,
  seed: EmulatorSeed,
  orgId: string,
  userId: string,
): Promise<SeededIds> {
  if (typeof seed !== 'object' || seed === null || Array.isArray(seed))
    throw new SeedError('the seed must be a JSON object of lists (runs, channels, views …)');
  const lists = new Set<string>(SEED_TABLES.map((t) => t.list));
  const unknown = Object.keys(seed).filter((k) => k !== 'organization' && !lists.has(k));
  if (unknown.length > 0)
    throw new SeedError(
      `the seed has ${unknown.map((k) => `'${k}'`).join(', ')}: its lists are ${[...lists].join(', ')}`,
    );
  const out: SeededIds = {};
  const now = ctx.now();
  for (const { list, table, schema, idField } of SEED_TABLES) {
    const given = seed[list];
    if (given === undefined) continue;
    if (!Array.isArray(given)) throw new SeedError(`the seed's ${list} must be a list`);
    const rows = ctx.store.data[table] as Record<string, Owned<unknown>>;
    out[list] = given.map((item, i) => {
      const value = seedValue(item, schema, `${list}[${i}]`);
      const id =
        typeof value[idField] === 'string' && value[idField] !== ''
          ? (value[idField] as string)
          : stableId('seed', orgId, list, String(i));
      const owner = Object.hasOwn(rows, id) ? rows[id]?.orgId : undefined;
      if (owner !== undefined && owner !== orgId)
        throw new SeedError(`${list}[${i}]: id ${id} belongs to another organization`);
      if (owner === undefined) {
        rows[id] = {
          orgId,
          value: {
            createdDate: now,
            modifiedDate: now,
            createdByUserId: userId,
            modifiedByUserId: userId,
            ...(table === 'channels' ? {} : { organizationId: orgId }),
            ...value,
            [idField]: id,
          },
        };
        ctx.store.touch(table, id);
      }
      return id;
    });
  }
  await commit(ctx, () => {});
  return out;
}

function seedValue(item: unknown, schema: Parameters<typeof messageOf>[0], where: string) {
  try {
    const { value, dropped } = readMessage(messageOf(schema), item, where);
    if (dropped.length > 0)
      throw new SeedError(dropped.map((d) => `${d.path} is ${d.why}`).join('; '));
    return value;
  } catch (err) {
    if (err instanceof HttpFailure) throw new SeedError(err.message);
    throw err;
  }
}
