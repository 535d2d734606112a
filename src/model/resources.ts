import { z } from 'zod';
import type { BatchConfig } from './batch.js';
import type { Ch10Config } from './ch10.js';
import type { CsvConfig } from './csv.js';
import { ChannelDataType, DataImportStatus, FunctionDataType, MetadataKeyType } from './enums.js';
import type { Hdf5Config } from './hdf5.js';
import type { ParquetConfig } from './parquet.js';
import type { TdmsConfig } from './tdms.js';
import type { UlogConfig } from './ulog.js';

/**
 * The platform's resources as the service answers them. Responses are read tolerantly:
 * objects keep fields this model does not know (`looseObject`), and enum fields accept
 * values this model does not know (kept as strings), so a newer server never crashes
 * an older client.
 */
function tolerant<T extends z.ZodEnum>(e: T) {
  // The type keeps the known values (editors complete them, `switch` narrows on them);
  // `string & {}` admits the others without folding the union into plain `string`.
  return z.union([e, z.string()]) as unknown as z.ZodType<
    z.output<T> | (string & {}),
    z.input<T> | (string & {})
  >;
}

const DateTime = z.string();

export const ResponseMetadataKey = z.looseObject({
  name: z.string().optional(),
  type: tolerant(MetadataKeyType).optional(),
  archivedDate: DateTime.optional(),
  isArchived: z.boolean().optional(),
});

export const Metadata = z.looseObject({
  key: ResponseMetadataKey.optional(),
  stringValue: z.string().optional(),
  numberValue: z.number().optional(),
  booleanValue: z.boolean().optional(),
  relationValue: z
    .looseObject({ resourceType: z.string().optional(), resourceId: z.string().optional() })
    .optional(),
  archivedDate: DateTime.optional(),
  isArchived: z.boolean().optional(),
});
export type Metadata = z.infer<typeof Metadata>;

export const ChannelReference = z.looseObject({ name: z.string(), component: z.string() });
export const CalculatedChannelConfig = z.looseObject({
  channelKey: z.string(),
  channelReferences: z.record(z.string(), ChannelReference),
  expression: z.string(),
  unit: z.string(),
});
export const ViewChannel = z.looseObject({
  name: z.string(),
  component: z.string(),
  dataType: z.string(),
  axisGroup: z.string().optional(),
  bitFieldNames: z.array(z.string()).optional(),
  calculatedChannelConfig: CalculatedChannelConfig.optional(),
});
export type ViewChannel = z.infer<typeof ViewChannel>;

export const View = z.looseObject({
  viewId: z.string().optional(),
  name: z.string().optional(),
  axisGroups: z
    .looseObject({ left: z.array(z.string()).optional(), right: z.array(z.string()).optional() })
    .optional(),
  channels: z.array(ViewChannel).optional(),
  createdDate: DateTime.optional(),
  modifiedDate: DateTime.optional(),
  createdByUserId: z.string().optional(),
  organizationId: z.string().optional(),
  modifiedByUserId: z.string().optional(),
  isPinned: z.boolean().optional(),
});
export type View = z.infer<typeof View>;

export const Organization = z.looseObject({
  organizationId: z.string().optional(),
  organizationName: z.string().optional(),
  isAbacEnabled: z.boolean().optional(),
});
export type Organization = z.infer<typeof Organization>;

export const Run = z.looseObject({
  runId: z.string().optional(),
  createdDate: DateTime.optional(),
  modifiedDate: DateTime.optional(),
  createdByUserId: z.string().optional(),
  modifiedByUserId: z.string().optional(),
  organizationId: z.string().optional(),
  isPinned: z.boolean().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  tags: z.array(z.string()).optional(),
  metadata: z.array(Metadata).optional(),
  assetIds: z.array(z.string()).optional(),
  isAdhoc: z.boolean().optional(),
  isArchived: z.boolean().optional(),
  startTime: DateTime.optional(),
  stopTime: DateTime.optional(),
  defaultReportId: z.string().optional(),
  clientKey: z.string().optional(),
  archivedDate: DateTime.optional(),
  duration: z.string().optional(),
});
export type Run = z.infer<typeof Run>;

/** Fields UpdateRun accepts in its mask, as the reference writes them. */
export const RUN_UPDATE_MASK_FIELDS = [
  'name',
  'description',
  'start_time',
  'stop_time',
  'is_pinned',
  'client_key',
  'tags',
  'is_archived',
  'metadata',
] as const;

export const ResponseEnumType = z.looseObject({
  name: z.string().optional(),
  key: z.number().optional(),
  isSigned: z.boolean().optional(),
});
export const ResponseBitFieldElement = z.looseObject({
  name: z.string().optional(),
  index: z.number().optional(),
  bitCount: z.number().optional(),
});

export const Channel = z.looseObject({
  channelId: z.string().optional(),
  name: z.string().optional(),
  assetId: z.string().optional(),
  description: z.string().optional(),
  unitId: z.string().optional(),
  createdDate: DateTime.optional(),
  modifiedDate: DateTime.optional(),
  createdByUserId: z.string().optional(),
  modifiedByUserId: z.string().optional(),
  dataType: tolerant(ChannelDataType).optional(),
  metadata: z.array(Metadata).optional(),
  enumTypes: z.array(ResponseEnumType).optional(),
  bitFieldElements: z.array(ResponseBitFieldElement).optional(),
  displayDescription: z.string().optional(),
  displayUnitId: z.string().optional(),
  active: z.boolean().optional(),
});
export type Channel = z.infer<typeof Channel>;

export const Asset = z.looseObject({
  assetId: z.string().optional(),
  name: z.string().optional(),
  organizationId: z.string().optional(),
  createdDate: DateTime.optional(),
  createdByUserId: z.string().optional(),
  modifiedDate: DateTime.optional(),
  modifiedByUserId: z.string().optional(),
  tags: z.array(z.string()).optional(),
  metadata: z.array(Metadata).optional(),
  isArchived: z.boolean().optional(),
  archivedDate: DateTime.optional(),
});
export type Asset = z.infer<typeof Asset>;

const SearchItem = z.looseObject({ id: z.string().optional(), name: z.string().optional() });
export const SavedSearchProperties = z.looseObject({
  overviewMode: z.string().optional(),
  searchTerm: z.string().optional(),
  fromDateTime: DateTime.optional(),
  toDateTime: DateTime.optional(),
  assetItems: z.array(SearchItem).optional(),
  userItems: z.array(SearchItem).optional(),
  tagItems: z.array(SearchItem).optional(),
  annotationItems: z.array(SearchItem).optional(),
  runItems: z.array(SearchItem).optional(),
  reportTemplateItems: z.array(SearchItem).optional(),
  showAdvancedFilters: z.boolean().optional(),
  includeArchived: z.boolean().optional(),
  orderBy: z.string().optional(),
  metadataItems: z
    .array(
      z.looseObject({
        key: z.string().optional(),
        stringValue: z.string().optional(),
        numberValue: z.number().optional(),
        booleanValue: z.boolean().optional(),
      }),
    )
    .optional(),
  duration: z.string().optional(),
});

export const SavedSearch = z.looseObject({
  savedSearchId: z.string().optional(),
  organizationId: z.string().optional(),
  name: z.string().optional(),
  properties: SavedSearchProperties.optional(),
  createdByUserId: z.string().optional(),
  modifiedByUserId: z.string().optional(),
  createdDate: DateTime.optional(),
  modifiedDate: DateTime.optional(),
});
export type SavedSearch = z.infer<typeof SavedSearch>;

export const UserDefinedFunctionVersion = z.looseObject({
  userDefinedFunctionId: z.string().optional(),
  name: z.string().optional(),
  userDefinedFunctionVersionId: z.string().optional(),
  version: z.number().optional(),
  description: z.string().optional(),
  changeMessage: z.string().optional(),
  userNotes: z.string().optional(),
  expression: z.string().optional(),
  functionInputs: z
    .array(
      z.looseObject({
        identifier: z.string().optional(),
        dataType: FunctionDataType.optional(),
        constant: z.boolean().optional(),
      }),
    )
    .optional(),
  functionDependencies: z
    .array(z.looseObject({ userDefinedFunctionVersionId: z.string().optional() }))
    .optional(),
  createdDate: DateTime.optional(),
  modifiedDate: DateTime.optional(),
  createdByUserId: z.string().optional(),
  modifiedByUserId: z.string().optional(),
  metadata: z.array(Metadata).optional(),
  isArchived: z.boolean().optional(),
  archivedDate: DateTime.optional(),
  functionOutputType: FunctionDataType.optional(),
});
export type UserDefinedFunctionVersion = z.infer<typeof UserDefinedFunctionVersion>;

/**
 * A data import as GetDataImport answers it. The config it was created with is kept as
 * the server sent it: typed for the caller, but not re-validated strictly, so a field a
 * newer server adds is never a crash.
 */
export const DataImport = z.looseObject({
  dataImportId: z.string().optional(),
  status: tolerant(DataImportStatus).optional(),
  createdDate: DateTime.optional(),
  modifiedDate: DateTime.optional(),
  sourceUrl: z.string().optional(),
  errorMessage: z.string().optional(),
  csvConfig: z.custom<CsvConfig>((v) => typeof v === 'object' && v !== null).optional(),
  ch10Config: z.custom<Ch10Config>((v) => typeof v === 'object' && v !== null).optional(),
  tdmsConfig: z.custom<TdmsConfig>((v) => typeof v === 'object' && v !== null).optional(),
  parquetConfig: z.custom<ParquetConfig>((v) => typeof v === 'object' && v !== null).optional(),
  hdf5Config: z.custom<Hdf5Config>((v) => typeof v === 'object' && v !== null).optional(),
  batchConfig: z.custom<BatchConfig>((v) => typeof v === 'object' && v !== null).optional(),
  ulogConfig: z.custom<UlogConfig>((v) => typeof v === 'object' && v !== null).optional(),
  runId: z.string().optional(),
  reportId: z.string().optional(),
  assetId: z.string().optional(),
  dataStartTime: DateTime.optional(),
  dataStopTime: DateTime.optional(),
});
export type DataImport = z.infer<typeof DataImport>;

/** The error body of every operation (gRPC status). */
export const Status = z.looseObject({
  code: z.number().int(),
  message: z.string().optional(),
  details: z.array(z.looseObject({ '@type': z.string().optional() })).optional(),
});
export type Status = z.infer<typeof Status>;
