/**
 * Resources the reference can update or read but gives no way to create (views, saved
 * searches, user-defined function versions): each organization starts with a few, with
 * ids that depend only on the organization, so scripts can name them.
 */
import { createHash } from 'node:crypto';
import type { StateData } from './store-state.js';

function id(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\0')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** The ids of the seeded resources of an organization. */
export function seededIds(orgId: string) {
  return {
    views: [id('view', orgId, '1'), id('view', orgId, '2')],
    savedSearches: [id('saved-search', orgId, '1')],
    userDefinedFunction: id('udf', orgId, 'scale'),
    userDefinedFunctionVersions: [id('udf-version', orgId, '1'), id('udf-version', orgId, '2')],
  };
}

/** Who made the seeded resources, and when. */
interface Stamp {
  createdDate: string;
  modifiedDate: string;
  createdByUserId: string;
  modifiedByUserId: string;
}

/** Gives a new organization its seeded views, saved search and function versions. */
export function seedOrganization(
  data: StateData,
  orgId: string,
  userId: string,
  now: string,
): void {
  const ids = seededIds(orgId);
  const stamp: Stamp = {
    createdDate: now,
    modifiedDate: now,
    createdByUserId: userId,
    modifiedByUserId: userId,
  };
  seedViews(data, orgId, ids.views, stamp);
  seedSavedSearch(data, orgId, ids.savedSearches[0] ?? '', stamp);
  seedFunctionVersions(data, orgId, ids, stamp);
}

/** Two views: one showing a temperature channel, one empty. */
function seedViews(data: StateData, orgId: string, viewIds: string[], stamp: Stamp): void {
  const [v1 = '', v2 = ''] = viewIds;
  data.views[v1] = {
    orgId,
    value: {
      viewId: v1,
      name: 'Overview',
      axisGroups: { left: ['temperature'], right: [] },
      channels: [
        {
          name: 'temperature',
          component: '',
          dataType: 'CHANNEL_DATA_TYPE_DOUBLE',
          axisGroup: 'left',
        },
      ],
      organizationId: orgId,
      isPinned: false,
      ...stamp,
    },
  };
  data.views[v2] = {
    orgId,
    value: {
      viewId: v2,
      name: 'Empty view',
      axisGroups: { left: [], right: [] },
      channels: [],
      organizationId: orgId,
      isPinned: false,
      ...stamp,
    },
  };
}

/** One saved search of recent runs. */
function seedSavedSearch(data: StateData, orgId: string, s1: string, stamp: Stamp): void {
  data.savedSearches[s1] = {
    orgId,
    value: {
      savedSearchId: s1,
      organizationId: orgId,
      name: 'Recent runs',
      properties: {
        overviewMode: 'runs',
        searchTerm: '',
        includeArchived: false,
        orderBy: 'created_date desc',
      },
      ...stamp,
    },
  };
}

/** Two versions of the user-defined function `scale`: `x * 2`, then `x * factor`. */
function seedFunctionVersions(
  data: StateData,
  orgId: string,
  ids: ReturnType<typeof seededIds>,
  stamp: Stamp,
): void {
  ids.userDefinedFunctionVersions.forEach((vid, i) => {
    data.udfVersions[vid] = {
      orgId,
      value: {
        userDefinedFunctionId: ids.userDefinedFunction,
        name: 'scale',
        userDefinedFunctionVersionId: vid,
        version: i + 1,
        description: 'Multiplies a channel by a constant.',
        changeMessage: i === 0 ? 'first version' : 'factor as an input',
        userNotes: '',
        expression: i === 0 ? 'x * 2' : 'x * factor',
        functionInputs:
          i === 0
            ? [{ identifier: 'x', dataType: 'FUNCTION_DATA_TYPE_NUMERIC', constant: false }]
            : [
                { identifier: 'x', dataType: 'FUNCTION_DATA_TYPE_NUMERIC', constant: false },
                { identifier: 'factor', dataType: 'FUNCTION_DATA_TYPE_NUMERIC', constant: true },
              ],
        functionDependencies: [],
        metadata: [],
        isArchived: false,
        functionOutputType: 'FUNCTION_DATA_TYPE_NUMERIC',
        ...stamp,
      },
    };
  });
}
