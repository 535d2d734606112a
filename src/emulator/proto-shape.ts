/**
 * The platform's messages as protobuf sees them, read from importkit's zod model: each
 * object schema becomes a message, each field a kind (string, bool, double, 32- and 64-bit
 * integers, enum, Timestamp, FieldMask, message, list, map). The model is the one
 * definition of each shape; what a zod schema cannot say about the proto (which fields have
 * presence, which form a oneof, the width of an integer the response models keep as a plain
 * number, the key type of a map) is `PROTO_FACTS` below, taken from the platform's public
 * proto files and named by the model's own schemas. The reader (`proto-read.ts`) and the
 * writer (`proto-write.ts`) walk these messages.
 */
import { z } from 'zod';
import {
  BATCH_FILE_KEYS,
  BatchFileConfig,
  CONFIG_KINDS,
  CsvConfig,
  CsvTimeColumn,
  DataImport,
  DataTypeKey,
  ENUMS,
  type EnumInfo,
  Hdf5Config,
  Hdf5DataEntry,
  Int32,
  Int64String,
  Metadata,
  MetadataValue,
  ParquetConfig,
  ParquetSingleChannelPerRow,
  ParquetTimeColumn,
  ResponseBitFieldElement,
  ResponseEnumType,
  Run,
  SavedSearchProperties,
  TdmsConfig,
  TdmsDataEntry,
  Timestamp,
  Uint32,
  Uint64String,
  UlogConfig,
  UserDefinedFunctionVersion,
  ViewChannel,
} from '../model/index.js';

/** An update mask, as a request body holds it (a string of comma-separated paths). */
export const FieldMaskText = z.string();

export type IntKind = 'int32' | 'uint32' | 'int64' | 'uint64';

export type Kind =
  | { k: 'string' | 'bool' | 'double' | 'timestamp' | 'fieldmask' | 'any' }
  | { k: IntKind }
  /** `info` undefined: an enumeration whose values the reference does not give. */
  | { k: 'enum'; info: EnumInfo | undefined; zero: string }
  | { k: 'message'; message: Message }
  | { k: 'list'; item: Kind }
  | { k: 'map'; key: 'string' | 'uint32'; value: Kind };

export interface Field {
  /** The JSON (lowerCamelCase) name. */
  name: string;
  /** The proto (snake_case) name, which a reader also accepts. */
  protoName: string;
  kind: Kind;
  /** Explicit presence (proto3 `optional`, or a member of a oneof): unset is never written. */
  presence: boolean;
}

export interface Message {
  fields: Field[];
  byName: Map<string, Field>;
  /** Groups of fields of which at most one may be set. */
  oneofs: string[][];
}

interface Facts {
  /** proto3 `optional` fields. */
  optional?: string[];
  oneofs?: string[][];
  /** Integer fields the response models keep as plain numbers. */
  ints?: Record<string, IntKind>;
  /** Map fields whose keys are numbers. */
  numericKeys?: string[];
  /** Fields the model types loosely, with the schema the proto gives them. */
  schemas?: Record<string, z.ZodType>;
}

const CONFIGS = Object.fromEntries(Object.values(CONFIG_KINDS).map((c) => [c.key, c.schema]));

/** What the public proto files say that the zod model does not. */
const PROTO_FACTS = new Map<z.ZodType, Facts>([
  [
    DataImport,
    {
      optional: ['runId', 'reportId', 'assetId', 'dataStartTime', 'dataStopTime'],
      schemas: CONFIGS,
    },
  ],
  [Run, { optional: ['startTime', 'stopTime', 'clientKey', 'archivedDate', 'duration'] }],
  [Metadata, { oneofs: [['stringValue', 'numberValue', 'booleanValue', 'relationValue']] }],
  [MetadataValue, { oneofs: [['stringValue', 'numberValue', 'booleanValue', 'relationValue']] }],
  [ResponseEnumType, { ints: { key: 'uint32' } }],
  [ResponseBitFieldElement, { ints: { index: 'int32', bitCount: 'uint32' } }],
  [UserDefinedFunctionVersion, { ints: { version: 'uint32' } }],
  [ViewChannel, { optional: ['calculatedChannelConfig'] }],
  [
    SavedSearchProperties,
    { optional: ['searchTerm', 'fromDateTime', 'toDateTime', 'showAdvancedFilters'] },
  ],
  [CsvConfig, { optional: ['timeColumn', 'numRows'], numericKeys: ['dataColumns'] }],
  [CsvTimeColumn, { optional: ['relativeStartTime'] }],
  [TdmsConfig, { optional: ['fileSize', 'timeFormat', 'relativeStartTime'] }],
  [TdmsDataEntry, { optional: ['timeChannelName', 'scaled', 'complexComponent'] }],
  [ParquetTimeColumn, { optional: ['relativeStartTime'] }],
  [ParquetConfig, { oneofs: [['flatDataset', 'singleChannelPerRow']] }],
  [ParquetSingleChannelPerRow, { oneofs: [['singleChannel', 'multiChannel']] }],
  [Hdf5DataEntry, { optional: ['timeField', 'valueField'] }],
  [Hdf5Config, { optional: ['relativeStartTime'] }],
  [UlogConfig, { optional: ['relativeStartTime'] }],
  [BatchFileConfig, { oneofs: [[...BATCH_FILE_KEYS]] }],
]);

/** Date-time fields of the response models, which keep them as plain strings. */
const RESPONSE_TIMESTAMPS = new Set([
  'createdDate',
  'modifiedDate',
  'archivedDate',
  'startTime',
  'stopTime',
  'fromDateTime',
  'toDateTime',
  'dataStartTime',
  'dataStopTime',
]);

const INT_SCALARS = new Map<z.ZodType, IntKind>([
  [Uint32, 'uint32'],
  [Int32, 'int32'],
  [Uint64String, 'uint64'],
  [Int64String, 'int64'],
]);

const messages = new Map<z.ZodType, Message>();

const def = (s: z.ZodType) => (s as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;

/** The message of an object schema of the model (built once, cycles allowed). */
export function messageOf(schema: z.ZodType): Message {
  const known = messages.get(schema);
  if (known) return known;
  const message: Message = { fields: [], byName: new Map(), oneofs: [] };
  messages.set(schema, message);
  const facts = PROTO_FACTS.get(schema) ?? {};
  message.oneofs = facts.oneofs ?? [];
  const inOneof = new Set(message.oneofs.flat());
  const shape = (schema as unknown as { shape: Record<string, z.ZodType> }).shape;
  for (const [name, fieldSchema] of Object.entries(shape)) {
    const typed = facts.schemas?.[name] ?? fieldSchema;
    const field: Field = {
      name,
      protoName: name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
      kind: kindOf(typed, name, facts),
      presence: inOneof.has(name) || (facts.optional ?? []).includes(name),
    };
    message.fields.push(field);
    message.byName.set(name, field);
    if (field.protoName !== name) message.byName.set(field.protoName, field);
  }
  return message;
}

function kindOf(schema: z.ZodType, name: string, facts: Facts): Kind {
  const d = def(schema);
  if (d.type === 'optional' || d.type === 'nullable' || d.type === 'default')
    return kindOf(d.innerType as z.ZodType, name, facts);
  const int = INT_SCALARS.get(schema) ?? facts.ints?.[name];
  if (int) return { k: int };
  if (schema === Timestamp) return { k: 'timestamp' };
  if (schema === FieldMaskText) return { k: 'fieldmask' };
  switch (d.type) {
    case 'string':
      return RESPONSE_TIMESTAMPS.has(name) ? { k: 'timestamp' } : { k: 'string' };
    case 'boolean':
      return { k: 'bool' };
    case 'number':
      return { k: 'double' };
    case 'enum':
      return enumKind(Object.values(d.entries as Record<string, string>));
    case 'union': {
      // A tolerant response enum: the enum or any other string.
      const first = (d.options as z.ZodType[])[0];
      return first && def(first).type === 'enum' ? kindOf(first, name, facts) : { k: 'any' };
    }
    case 'object':
      return { k: 'message', message: messageOf(schema) };
    case 'array':
      return { k: 'list', item: kindOf(d.element as z.ZodType, name, {}) };
    case 'record':
      return {
        k: 'map',
        key: (facts.numericKeys ?? []).includes(name) ? 'uint32' : 'string',
        value: kindOf(d.valueType as z.ZodType, name, {}),
      };
    default:
      return { k: 'any' };
  }
}

function enumKind(values: readonly string[]): Kind {
  const info = Object.values(ENUMS).find(
    (e) => e.values.length === values.length && e.values.every((v, i) => v === values[i]),
  );
  return { k: 'enum', info, zero: info?.values[0] ?? '' };
}

/** The message of a request body `{ [key]: schema, updateMask }` (the four updates). */
export function updateBodyMessage(key: string, schema: z.ZodType): Message {
  return messageOf(bodySchema(key, schema));
}

const bodies = new Map<string, z.ZodType>();
function bodySchema(key: string, schema: z.ZodType): z.ZodType {
  let body = bodies.get(key);
  if (!body) {
    body = z.object({ [key]: schema.optional(), updateMask: FieldMaskText.optional() });
    bodies.set(key, body);
  }
  return body;
}

/**
 * DetectConfig's request and answer, which the model has no shape for: `data` is protobuf
 * `bytes` (base64 text in JSON), `type` a DataTypeKey; the answer holds the CSV or the
 * Parquet config detected.
 */
export const DetectConfigRequest = z.object({ data: z.string(), type: DataTypeKey });
export const DetectConfigResponse = z.object({
  csvConfig: CsvConfig.optional(),
  parquetConfig: ParquetConfig.optional(),
});
