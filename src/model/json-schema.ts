import { z } from 'zod';
import { BatchFileConfig } from './batch.js';
import {
  BitFieldElement,
  ChannelConfig,
  EnumType,
  MetadataKey,
  MetadataValue,
  RelationValue,
} from './channel.js';
import { CsvTimeColumn } from './csv.js';
import { CONFIG_KIND_NAMES, CONFIG_KINDS, type ConfigKind, ImportDocument } from './document.js';
import * as enums from './enums.js';
import { ENUMS } from './enums.js';
import { Hdf5DataEntry } from './hdf5.js';
import {
  ParquetColumn,
  ParquetDataColumn,
  ParquetFlatDataset,
  ParquetMultiChannel,
  ParquetSingleChannel,
  ParquetSingleChannelPerRow,
  ParquetTimeColumn,
} from './parquet.js';
import { Int32, Int64String, Timestamp, Uint32, Uint64String } from './scalars.js';
import { type JsonSchema, SCHEMA_BASE, SCHEMA_FILES, type SchemaName } from './schema-files.js';
import { TdmsDataEntry } from './tdms.js';
import { UlogDataEntry } from './ulog.js';

/** Names and descriptions of the shared pieces, so they land in `$defs` under readable names. */
function registry(withConfigs: boolean) {
  const reg = z.registry<{ id: string; description?: string }>();
  reg.add(Uint32, { id: 'Uint32', description: 'An unsigned 32-bit integer.' });
  reg.add(Int32, { id: 'Int32', description: 'A signed 32-bit integer.' });
  reg.add(Uint64String, {
    id: 'Uint64String',
    description: 'An unsigned 64-bit integer written as a decimal string, for example "1024".',
  });
  reg.add(Int64String, {
    id: 'Int64String',
    description: 'A signed 64-bit integer written as a decimal string, for example "-3".',
  });
  reg.add(Timestamp, {
    id: 'Timestamp',
    description: 'An RFC 3339 timestamp with a zone, for example "2024-05-01T12:00:00Z".',
  });
  for (const name of Object.keys(ENUMS) as Array<keyof typeof ENUMS>) {
    const schema = (enums as Record<string, unknown>)[name];
    if (schema instanceof z.ZodType) reg.add(schema, { id: name });
  }
  const pieces: Record<string, z.ZodType> = {
    ChannelConfig,
    EnumType,
    BitFieldElement,
    MetadataKey,
    MetadataValue,
    RelationValue,
    CsvTimeColumn,
    TdmsDataEntry,
    ParquetTimeColumn,
    ParquetDataColumn,
    ParquetFlatDataset,
    ParquetColumn,
    ParquetSingleChannel,
    ParquetMultiChannel,
    ParquetSingleChannelPerRow,
    Hdf5DataEntry,
    UlogDataEntry,
    BatchFileConfig,
  };
  for (const [id, schema] of Object.entries(pieces)) reg.add(schema, { id });
  if (withConfigs) {
    for (const kind of CONFIG_KIND_NAMES)
      reg.add(CONFIG_KINDS[kind].schema, { id: CONFIG_KINDS[kind].title });
  }
  return reg;
}

const KIND_DESCRIPTIONS: Record<ConfigKind, string> = {
  csv: 'How to import a CSV file: the time column, the data columns and their channels.',
  ch10: 'How to import an IRIG 106 Chapter 10 file.',
  tdms: 'How to import a NI TDMS file: which channels, and how they are timed.',
  parquet: 'How to import a Parquet file: a flat dataset or one channel value per row.',
  hdf5: 'How to import an HDF5 file: pairs of time and value datasets.',
  ulog: 'How to import a PX4 ULog file.',
  batch: 'How to import a zip or tar archive of many files: defaults and per-file configs.',
};

function emit(schema: z.ZodType, name: SchemaName, title: string, description: string): JsonSchema {
  const out = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    metadata: registry(name === 'document'),
    reused: 'inline',
    unrepresentable: 'throw',
  }) as JsonSchema;
  const { $schema, ...rest } = out;
  return { $schema, $id: `${SCHEMA_BASE}${SCHEMA_FILES[name]}`, title, description, ...rest };
}

/**
 * Generates every JSON Schema (draft 2020-12) from the zod model: the whole document and
 * one per config kind. `npm run schemas` writes them to schemas/; a test compares them
 * with the committed files. Pure: no file system, so it also runs in a browser.
 */
export function generateSchemas(): Record<SchemaName, JsonSchema> {
  const out = {
    document: emit(
      ImportDocument,
      'document',
      'importkit config document',
      'A data-import config: the body of CreateDataImportFromUpload (exactly one config key), or with `url` the body of CreateDataImportFromUrl. Canonical form: camelCase keys, full enum names, 64-bit integers as decimal strings.',
    ),
  } as Record<SchemaName, JsonSchema>;
  for (const kind of CONFIG_KIND_NAMES) {
    const k = CONFIG_KINDS[kind];
    out[kind] = emit(k.schema, kind, k.title, KIND_DESCRIPTIONS[kind]);
  }
  return out;
}
