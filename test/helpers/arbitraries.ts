/**
 * fast-check arbitraries of VALID canonical configs: every value they produce is a config
 * the validator must accept with no issue at all (camelCase keys, full enum names, 64-bit
 * integers as decimal strings, RFC 3339 timestamps with a zone) and that respects every
 * semantic rule of the model:
 * - relative time formats carry relativeStartTime, absolute ones do not;
 * - ENUM channels have enumTypes with unique keys and names, BIT_FIELD channels have
 *   non-overlapping bitFieldElements inside 64 bits (bitCount >= 1); neither list appears
 *   on other types;
 * - channel names are unique within a document (so within every config of a batch too);
 * - CSV data column keys are positive integers that differ from the time column;
 * - Parquet has exactly one layout (and, per row, exactly one of singleChannel /
 *   multiChannel), footerOffset and footerLength both or neither, distinct column paths;
 * - never runName together with runId; importFileProperties only with a run;
 * - metadata values carry exactly one value field;
 * - batch file entries carry the config of their type (or rely on a default that exists),
 *   and no run or asset fields inside per-file (or default) configs;
 * - no UNSPECIFIED enum values anywhere.
 * Arrays are kept short so a property run stays fast.
 *
 * Entry points: `arbConfigOf(kind)` (the inner config), `arbDocumentOf(kind)`
 * (`{ csvConfig: ... }`), `arbDocument` (any kind, sometimes with `url`), plus one
 * arbitrary per config and per shared piece.
 */
import fc from 'fast-check';
import type {
  BatchConfig,
  BatchFileConfig,
  BitFieldElement,
  Ch10Config,
  ChannelConfig,
  ChannelDataType,
  ConfigKind,
  CsvConfig,
  DataTypeKey,
  EnumType,
  Hdf5Config,
  Hdf5DataEntry,
  ImportDocument,
  MetadataValue,
  ParquetColumn,
  ParquetConfig,
  ParquetDataColumn,
  ParquetFlatDataset,
  ParquetSingleChannelPerRow,
  ParquetTimeColumn,
  TdmsConfig,
  TdmsDataEntry,
  TimeFormat,
  UlogConfig,
  UlogDataEntry,
} from '../../src/model/index.js';
import {
  CHANNEL_DATA_TYPE_VALUES,
  CONFIG_KINDS,
  INT64_MAX,
  INT64_MIN,
  PARQUET_COMPLEX_TYPES_IMPORT_MODE_VALUES,
  TDMS_COMPLEX_COMPONENT_VALUES,
  TDMS_FALLBACK_METHOD_VALUES,
  TIME_FORMAT_VALUES,
  UINT32_MAX,
  UINT64_MAX,
  ULOG_PARSE_ERROR_POLICY_VALUES,
} from '../../src/model/index.js';

// ---------------------------------------------------------------------------------------
// Scalars

/** The values of an enum minus UNSPECIFIED. */
function specified<T extends string>(values: readonly T[]): fc.Arbitrary<T> {
  return fc.constantFrom(...values.filter((v) => !v.endsWith('_UNSPECIFIED')));
}

/** A short identifier: safe as a name, a path segment or a key. */
export const arbIdent: fc.Arbitrary<string> = fc.stringMatching(/^[a-z][a-z0-9_]{0,7}$/);

/** Free text (units, descriptions): any short printable string, YAML must cope. */
export const arbText: fc.Arbitrary<string> = fc.string({ maxLength: 12 });

export const arbUint32: fc.Arbitrary<number> = fc.oneof(
  fc.integer({ min: 0, max: 1000 }),
  fc.integer({ min: 0, max: UINT32_MAX }),
);

/** A uint64 as a decimal string, anywhere in range (small values more often). */
export const arbUint64String: fc.Arbitrary<string> = fc
  .oneof(fc.bigInt({ min: 0n, max: 1_000_000n }), fc.bigInt({ min: 0n, max: UINT64_MAX }))
  .map(String);

/** An int64 as a decimal string, anywhere in range. */
export const arbInt64String: fc.Arbitrary<string> = fc
  .oneof(fc.bigInt({ min: 0n, max: 16n }), fc.bigInt({ min: INT64_MIN, max: INT64_MAX }))
  .map(String);

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/**
 * An RFC 3339 timestamp with a zone: `Z` or `±HH:MM`, with 0, 3, 6 or 9 fraction digits,
 * between 1970 and 2100.
 */
export const arbTimestamp: fc.Arbitrary<string> = fc
  .record({
    ms: fc.integer({ min: 0, max: Date.UTC(2100, 0, 1) - 1 }),
    fraction: fc.constantFrom(0, 3, 6, 9),
    extra: fc.integer({ min: 0, max: 999_999 }),
    offset: fc.oneof(fc.constant(0), fc.integer({ min: -12 * 60, max: 14 * 60 })),
  })
  .map(({ ms, fraction, extra, offset }) => {
    // The wall-clock time at the offset, so the string names the same instant.
    const d = new Date(ms + offset * 60_000);
    const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
    const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
    const digits = `${pad(d.getUTCMilliseconds(), 3)}${pad(extra, 6)}`.slice(0, fraction);
    const frac = fraction === 0 ? '' : `.${digits}`;
    const abs = Math.abs(offset);
    const zone =
      offset === 0 ? 'Z' : `${offset < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
    return `${date}T${time}${frac}${zone}`;
  });

export const arbTimeFormat: fc.Arbitrary<TimeFormat> = specified(TIME_FORMAT_VALUES);

/** A time format and, exactly when it is relative, its start time. */
export const arbTimeSpec: fc.Arbitrary<{ format: TimeFormat; relativeStartTime?: string }> =
  fc.oneof(
    specified(TIME_FORMAT_VALUES.filter((f) => f.startsWith('TIME_FORMAT_ABSOLUTE_'))).map(
      (format) => ({ format }),
    ),
    fc.record({
      format: specified(TIME_FORMAT_VALUES.filter((f) => f.startsWith('TIME_FORMAT_RELATIVE_'))),
      relativeStartTime: arbTimestamp,
    }),
  );

// ---------------------------------------------------------------------------------------
// Channels

export const arbEnumTypes: fc.Arbitrary<EnumType[]> = fc
  .uniqueArray(
    fc.record(
      { name: arbIdent, key: arbUint32, isSigned: fc.boolean() },
      { requiredKeys: ['name', 'key'] },
    ),
    { minLength: 1, maxLength: 4, selector: (e) => e.name },
  )
  .filter((list) => new Set(list.map((e) => e.key)).size === list.length);

/** Non-overlapping elements inside 64 bits, in bit order, each at least one bit wide. */
export const arbBitFieldElements: fc.Arbitrary<BitFieldElement[]> = fc
  .array(
    fc.record({ gap: fc.integer({ min: 0, max: 8 }), bitCount: fc.integer({ min: 1, max: 16 }) }),
    {
      minLength: 1,
      maxLength: 5,
    },
  )
  .map((parts) => {
    const out: BitFieldElement[] = [];
    let next = 0;
    for (const [i, p] of parts.entries()) {
      const index = next + p.gap;
      if (index + p.bitCount > 64) break;
      out.push({ name: `bit_${i}`, index, bitCount: p.bitCount });
      next = index + p.bitCount;
    }
    // The first element always fits (gap <= 8, bitCount <= 16).
    return out;
  });

export const arbMetadataValue: fc.Arbitrary<MetadataValue> = fc
  .record(
    {
      name: arbIdent,
      value: fc.oneof(
        arbText.map((v) => ({ type: 'METADATA_KEY_TYPE_STRING' as const, stringValue: v })),
        fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }).map((v) => ({
          type: 'METADATA_KEY_TYPE_NUMBER' as const,
          numberValue: v === 0 ? 0 : v,
        })),
        fc.boolean().map((v) => ({ type: 'METADATA_KEY_TYPE_BOOLEAN' as const, booleanValue: v })),
        // A relation has no key type of its own.
        fc
          .record({ resourceType: arbIdent, resourceId: fc.uuid() })
          .map((relationValue) => ({ type: undefined, relationValue })),
      ),
      isArchived: fc.boolean(),
      archivedDate: arbTimestamp,
    },
    { requiredKeys: ['name', 'value'] },
  )
  .map(({ name, value, ...rest }): MetadataValue => {
    const { type, ...field } = value;
    return { key: type === undefined ? { name } : { name, type }, ...field, ...rest };
  });

const arbDataType: fc.Arbitrary<ChannelDataType> = specified(CHANNEL_DATA_TYPE_VALUES);

/** A channel config with a name and a data type, and the lists its type requires. */
export const arbChannelConfig: fc.Arbitrary<ChannelConfig> = fc
  .record(
    {
      name: arbIdent,
      dataType: arbDataType,
      units: arbText,
      description: arbText,
      enumTypes: arbEnumTypes,
      bitFieldElements: arbBitFieldElements,
      metadata: fc.uniqueArray(arbMetadataValue, {
        minLength: 1,
        maxLength: 2,
        selector: (m) => m.key.name,
      }),
    },
    { requiredKeys: ['name', 'dataType', 'enumTypes', 'bitFieldElements'] },
  )
  .map(({ enumTypes, bitFieldElements, ...c }): ChannelConfig => {
    if (c.dataType === 'CHANNEL_DATA_TYPE_ENUM') return { ...c, enumTypes };
    if (c.dataType === 'CHANNEL_DATA_TYPE_BIT_FIELD') return { ...c, bitFieldElements };
    return c;
  });

/**
 * Makes every channel name of a config unique by suffixing repeats. Channels sit under
 * `channelConfig`, `columnConfig`, `channel`, and as the values of CSV's `dataColumns`.
 */
function uniqueChannelNames<T>(value: T): T {
  const seen = new Set<string>();
  const rename = (c: unknown): void => {
    if (typeof c !== 'object' || c === null) return;
    const ch = c as { name?: unknown };
    if (typeof ch.name !== 'string') return;
    let name = ch.name;
    for (let i = 2; seen.has(name); i++) name = `${ch.name}_${i}`;
    seen.add(name);
    ch.name = name;
  };
  const walk = (node: unknown, key: string | undefined): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item, undefined);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    if (key === 'channelConfig' || key === 'columnConfig' || key === 'channel') {
      rename(node);
      return;
    }
    for (const [k, v] of Object.entries(node)) {
      if (k === 'dataColumns' && typeof v === 'object' && v !== null && !Array.isArray(v)) {
        for (const c of Object.values(v)) rename(c);
      } else {
        walk(v, k);
      }
    }
  };
  const copy = structuredClone(value);
  walk(copy, undefined);
  return copy;
}

// ---------------------------------------------------------------------------------------
// Run and asset fields

type RunFields = { assetName?: string; runName?: string; runId?: string };

/** assetName always; runName or runId or neither (never both). */
const arbRunFields: fc.Arbitrary<RunFields> = fc
  .record({
    assetName: arbIdent,
    run: fc.oneof(
      fc.constant({}),
      arbIdent.map((runName) => ({ runName })),
      fc.uuid().map((runId) => ({ runId })),
    ),
  })
  .map(({ assetName, run }) => ({ assetName, ...run }));

/** Run fields go in the document's config; per-file configs of a batch have none. */
interface Placement {
  inBatch: boolean;
}
const TOP: Placement = { inBatch: false };

function withRun<T extends object>(
  arb: fc.Arbitrary<T>,
  placement: Placement,
): fc.Arbitrary<T & RunFields> {
  if (placement.inBatch) return arb;
  return fc.tuple(arbRunFields, arb).map(([run, c]) => ({ ...run, ...c }));
}

// ---------------------------------------------------------------------------------------
// CSV

function csvConfigArb(placement: Placement): fc.Arbitrary<CsvConfig> {
  const body = fc
    .record(
      {
        timeCol: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: UINT32_MAX })),
        time: arbTimeSpec,
        cols: fc.uniqueArray(
          fc.oneof(fc.integer({ min: 1, max: 16 }), fc.integer({ min: 1, max: UINT32_MAX })),
          { minLength: 1, maxLength: 4 },
        ),
        channels: fc.array(arbChannelConfig, { minLength: 4, maxLength: 4 }),
        firstDataRow: fc.oneof(
          fc.integer({ min: 1, max: 5 }),
          fc.integer({ min: 1, max: UINT32_MAX }),
        ),
        numRows: arbUint64String,
        useEmbeddedConfig: fc.constant(false),
      },
      { requiredKeys: ['timeCol', 'time', 'cols', 'channels', 'firstDataRow'] },
    )
    .filter((r) => r.cols.some((c) => c !== r.timeCol))
    .map(({ timeCol, time, cols, channels, ...rest }): CsvConfig => {
      const dataColumns: Record<string, ChannelConfig> = {};
      cols
        .filter((c) => c !== timeCol)
        .forEach((c, i) => {
          dataColumns[String(c)] = channels[i] ?? {
            name: `c${c}`,
            dataType: 'CHANNEL_DATA_TYPE_DOUBLE',
          };
        });
      return { ...rest, timeColumn: { columnNumber: timeCol, ...time }, dataColumns };
    });
  return withRun(body, placement).map(uniqueChannelNames);
}

/** A CSV file that carries its own config: no time or data columns here. */
const arbEmbeddedCsvConfig: fc.Arbitrary<CsvConfig> = withRun(
  fc.record(
    { firstDataRow: fc.integer({ min: 1, max: 5 }), numRows: arbUint64String },
    { requiredKeys: [] },
  ),
  TOP,
).map((c) => ({ ...c, useEmbeddedConfig: true }));

export const arbCsvConfig: fc.Arbitrary<CsvConfig> = fc.oneof(
  { arbitrary: csvConfigArb(TOP), weight: 9 },
  { arbitrary: arbEmbeddedCsvConfig, weight: 1 },
);

// ---------------------------------------------------------------------------------------
// CH10

export const arbCh10Config: fc.Arbitrary<Ch10Config> = fc.record(
  { assetName: arbIdent, runName: arbIdent, scaleValues: fc.boolean() },
  { requiredKeys: ['assetName'] },
);

// ---------------------------------------------------------------------------------------
// TDMS

const arbTdmsDataEntry: fc.Arbitrary<TdmsDataEntry> = fc.record(
  {
    groupName: arbIdent,
    channelName: arbIdent,
    channelConfig: arbChannelConfig,
    timeChannelName: arbIdent,
    scaled: fc.boolean(),
    complexComponent: specified(TDMS_COMPLEX_COMPONENT_VALUES),
  },
  { requiredKeys: ['groupName', 'channelName', 'channelConfig'] },
);

function tdmsConfigArb(placement: Placement): fc.Arbitrary<TdmsConfig> {
  const body = fc
    .record(
      {
        startTimeOverride: arbTimestamp,
        data: fc.uniqueArray(arbTdmsDataEntry, {
          minLength: 1,
          maxLength: 3,
          selector: (e) => `${e.groupName}/${e.channelName}`,
        }),
        fallbackMethod: specified(TDMS_FALLBACK_METHOD_VALUES),
        time: arbTimeSpec,
        importFileProperties: fc.boolean(),
      },
      { requiredKeys: [] },
    )
    .map(({ time, ...rest }): TdmsConfig => {
      if (!time) return rest;
      const { format, ...start } = time;
      return { ...rest, timeFormat: format, ...start };
    });
  return withRun(body, placement)
    .map((c) => {
      // importFileProperties is only valid with a run.
      if (c.importFileProperties !== undefined && !c.runName && !c.runId) {
        const { importFileProperties: _, ...rest } = c;
        return rest;
      }
      return c;
    })
    .map(uniqueChannelNames);
}

export const arbTdmsConfig: fc.Arbitrary<TdmsConfig> = tdmsConfigArb(TOP);

// ---------------------------------------------------------------------------------------
// Parquet

/** A dotted column path (nested fields are written `a.b`). */
const arbColumnPath: fc.Arbitrary<string> = fc
  .array(arbIdent, { minLength: 1, maxLength: 2 })
  .map((parts) => parts.join('.'));

/** `n` distinct column paths. */
function distinctPaths(min: number, max: number): fc.Arbitrary<string[]> {
  return fc.uniqueArray(arbColumnPath, { minLength: min, maxLength: max });
}

function timeColumn(path: string, time: { format: TimeFormat; relativeStartTime?: string }) {
  return { path, ...time } satisfies ParquetTimeColumn;
}

export const arbParquetFlatDataset: fc.Arbitrary<ParquetFlatDataset> = fc
  .record({
    paths: distinctPaths(2, 5),
    time: arbTimeSpec,
    channels: fc.array(arbChannelConfig, { minLength: 4, maxLength: 4 }),
    useEmbeddedConfig: fc.option(fc.constant(false), { nil: undefined }),
  })
  .map(({ paths, time, channels, useEmbeddedConfig }) => {
    const [timePath = 'time', ...dataPaths] = paths;
    const dataColumns: ParquetDataColumn[] = dataPaths.map((path, i) => ({
      path,
      channelConfig: channels[i] ?? { name: path, dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
    }));
    const flat: ParquetFlatDataset = { timeColumn: timeColumn(timePath, time), dataColumns };
    if (useEmbeddedConfig !== undefined) flat.useEmbeddedConfig = useEmbeddedConfig;
    return flat;
  });

/** singleChannelPerRow with `singleChannel` (single) or `multiChannel` (multi). */
export function arbParquetSingleChannelPerRow(
  mode: 'single' | 'multi',
): fc.Arbitrary<ParquetSingleChannelPerRow> {
  return fc
    .record({
      paths: distinctPaths(5, 5),
      extra: fc.integer({ min: 0, max: 2 }),
      time: arbTimeSpec,
      channels: fc.array(arbChannelConfig, { minLength: 3, maxLength: 3 }),
    })
    .map(({ paths, extra, time, channels }): ParquetSingleChannelPerRow => {
      const [timePath = 't', dataPath = 'v', namePath = 'n', ...rest] = paths;
      const columns: ParquetColumn[] = rest
        .slice(0, extra)
        .map((path, i) => ({ path, columnConfig: channels[i + 1] ?? { name: path } }));
      const out: ParquetSingleChannelPerRow = { timeColumn: timeColumn(timePath, time) };
      if (columns.length > 0) out.columns = columns;
      if (mode === 'single') {
        out.singleChannel = {
          dataPath,
          channel: channels[0] ?? { name: dataPath, dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
        };
      } else {
        out.multiChannel = { namePath, dataPath };
      }
      return out;
    });
}

type ParquetLayout = 'flat' | 'single' | 'multi';

function parquetConfigArb(
  placement: Placement,
  layout?: ParquetLayout,
): fc.Arbitrary<ParquetConfig> {
  const layoutArb: fc.Arbitrary<Pick<ParquetConfig, 'flatDataset' | 'singleChannelPerRow'>> =
    layout === 'flat'
      ? arbParquetFlatDataset.map((flatDataset) => ({ flatDataset }))
      : layout !== undefined
        ? arbParquetSingleChannelPerRow(layout).map((singleChannelPerRow) => ({
            singleChannelPerRow,
          }))
        : fc.oneof(
            arbParquetFlatDataset.map((flatDataset) => ({ flatDataset })),
            arbParquetSingleChannelPerRow('single').map((singleChannelPerRow) => ({
              singleChannelPerRow,
            })),
            arbParquetSingleChannelPerRow('multi').map((singleChannelPerRow) => ({
              singleChannelPerRow,
            })),
          );
  const body = fc
    .record(
      {
        layout: layoutArb,
        footer: fc.record({ footerOffset: arbUint64String, footerLength: arbUint32 }),
        complexTypesImportMode: specified(PARQUET_COMPLEX_TYPES_IMPORT_MODE_VALUES),
      },
      { requiredKeys: ['layout'] },
    )
    .map(({ layout: l, footer, ...rest }): ParquetConfig => ({ ...rest, ...l, ...footer }));
  return withRun(body, placement).map(uniqueChannelNames);
}

export const arbParquetConfig: fc.Arbitrary<ParquetConfig> = parquetConfigArb(TOP);
/** A Parquet config of one layout. */
export function arbParquetConfigOf(layout: ParquetLayout): fc.Arbitrary<ParquetConfig> {
  return parquetConfigArb(TOP, layout);
}

// ---------------------------------------------------------------------------------------
// HDF5

const arbDatasetPath: fc.Arbitrary<string> = fc
  .array(arbIdent, { minLength: 1, maxLength: 3 })
  .map((parts) => `/${parts.join('/')}`);

/** The three common layouts: 1-D pairs, a 2-D [N, 2] dataset, a compound dataset. */
const arbHdf5DataEntry: fc.Arbitrary<Hdf5DataEntry> = fc.oneof(
  fc.record({
    timeDataset: arbDatasetPath,
    valueDataset: arbDatasetPath,
    channelConfig: arbChannelConfig,
  }),
  fc
    .record({ dataset: arbDatasetPath, timeIndex: arbUint64String, valueIndex: arbUint64String })
    .chain(({ dataset, timeIndex, valueIndex }) =>
      arbChannelConfig.map((channelConfig) => ({
        timeDataset: dataset,
        timeIndex,
        valueDataset: dataset,
        valueIndex,
        channelConfig,
      })),
    ),
  fc
    .record(
      {
        dataset: arbDatasetPath,
        timeField: arbIdent,
        valueField: arbIdent,
        channelConfig: arbChannelConfig,
      },
      { requiredKeys: ['dataset', 'valueField', 'channelConfig'] },
    )
    .map(({ dataset, ...rest }) => ({ timeDataset: dataset, valueDataset: dataset, ...rest })),
);

function hdf5ConfigArb(placement: Placement): fc.Arbitrary<Hdf5Config> {
  const body = fc
    .record({
      data: fc.array(arbHdf5DataEntry, { minLength: 1, maxLength: 3 }),
      time: arbTimeSpec,
    })
    .map(({ data, time }): Hdf5Config => {
      const { format, ...start } = time;
      return { data, timeFormat: format, ...start };
    });
  return withRun(body, placement).map(uniqueChannelNames);
}

export const arbHdf5Config: fc.Arbitrary<Hdf5Config> = hdf5ConfigArb(TOP);

// ---------------------------------------------------------------------------------------
// ULog

const arbUlogDataEntry: fc.Arbitrary<UlogDataEntry> = fc.oneof(
  fc.record(
    {
      messageName: arbIdent,
      instance: arbInt64String,
      fieldName: fc.oneof(
        arbIdent,
        arbIdent.map((f) => `${f}[0].v`),
      ),
      channelConfig: arbChannelConfig,
    },
    { requiredKeys: ['messageName', 'fieldName', 'channelConfig'] },
  ),
  // The log-message channels have no field.
  fc.record({
    messageName: fc.oneof(
      fc.constant('log_messages'),
      arbIdent.map((t) => `log_messages_${t}`),
    ),
    fieldName: fc.constant(''),
    channelConfig: arbChannelConfig,
  }),
);

function ulogConfigArb(placement: Placement): fc.Arbitrary<UlogConfig> {
  const body = fc.record(
    {
      data: fc.array(arbUlogDataEntry, { maxLength: 3 }),
      relativeStartTime: arbTimestamp,
      infoKeys: fc.uniqueArray(arbIdent, { maxLength: 3 }),
      paramKeys: fc.uniqueArray(
        arbIdent.map((k) => k.toUpperCase()),
        { maxLength: 3 },
      ),
      parseErrorPolicy: specified(ULOG_PARSE_ERROR_POLICY_VALUES),
    },
    { requiredKeys: [] },
  );
  return withRun(body, placement).map(uniqueChannelNames);
}

export const arbUlogConfig: fc.Arbitrary<UlogConfig> = ulogConfigArb(TOP);

// ---------------------------------------------------------------------------------------
// Batch

const IN_BATCH: Placement = { inBatch: true };

type FileKind = 'csv' | 'tdms' | 'parquet' | 'hdf5' | 'ulog';
const FILE_KINDS: readonly FileKind[] = ['csv', 'tdms', 'parquet', 'hdf5', 'ulog'];

const DEFAULT_KEY = {
  csv: 'defaultCsvConfig',
  tdms: 'defaultTdmsConfig',
  parquet: 'defaultParquetConfig',
  hdf5: 'defaultHdf5Config',
  ulog: 'defaultUlogConfig',
} as const;

const EXTENSION: Record<FileKind, string> = {
  csv: 'csv',
  tdms: 'tdms',
  parquet: 'parquet',
  hdf5: 'h5',
  ulog: 'ulg',
};

/** One archive entry with its own config, its type matching the config (and Parquet layout). */
const arbBatchFileWithConfig: fc.Arbitrary<BatchFileConfig> = fc.oneof(
  csvConfigArb(IN_BATCH).map((csvConfig) => ({
    type: 'DATA_TYPE_KEY_CSV' as DataTypeKey,
    csvConfig,
  })),
  tdmsConfigArb(IN_BATCH).map((tdmsConfig) => ({
    type: 'DATA_TYPE_KEY_TDMS' as DataTypeKey,
    tdmsConfig,
  })),
  parquetConfigArb(IN_BATCH, 'flat').map((parquetConfig) => ({
    type: 'DATA_TYPE_KEY_PARQUET_FLATDATASET' as DataTypeKey,
    parquetConfig,
  })),
  fc
    .constantFrom('single' as const, 'multi' as const)
    .chain((mode) => parquetConfigArb(IN_BATCH, mode))
    .map((parquetConfig) => ({
      type: 'DATA_TYPE_KEY_PARQUET_SINGLE_CHANNEL_PER_ROW' as DataTypeKey,
      parquetConfig,
    })),
  hdf5ConfigArb(IN_BATCH).map((hdf5Config) => ({
    type: 'DATA_TYPE_KEY_HDF5' as DataTypeKey,
    hdf5Config,
  })),
  ulogConfigArb(IN_BATCH).map((ulogConfig) => ({
    type: 'DATA_TYPE_KEY_ULOG' as DataTypeKey,
    ulogConfig,
  })),
);

const TYPE_OF_KIND: Record<Exclude<FileKind, 'parquet'>, DataTypeKey> = {
  csv: 'DATA_TYPE_KEY_CSV',
  tdms: 'DATA_TYPE_KEY_TDMS',
  hdf5: 'DATA_TYPE_KEY_HDF5',
  ulog: 'DATA_TYPE_KEY_ULOG',
};

export const arbBatchConfig: fc.Arbitrary<BatchConfig> = fc
  .record({
    run: arbRunFields,
    defaults: fc.record(
      {
        csv: csvConfigArb(IN_BATCH),
        tdms: tdmsConfigArb(IN_BATCH),
        parquet: parquetConfigArb(IN_BATCH, 'flat'),
        hdf5: hdf5ConfigArb(IN_BATCH),
        ulog: ulogConfigArb(IN_BATCH),
      },
      { requiredKeys: [] },
    ),
    withConfig: fc.array(arbBatchFileWithConfig, { maxLength: 2 }),
    /** Entries that rely on a default: only kinds that have one (Parquet entries carry their own). */
    bare: fc.array(fc.constantFrom<Exclude<FileKind, 'parquet'>>('csv', 'tdms', 'hdf5', 'ulog'), {
      maxLength: 3,
    }),
    names: fc.uniqueArray(arbIdent, { minLength: 5, maxLength: 5 }),
  })
  .filter(
    ({ withConfig, bare, defaults }) =>
      withConfig.length + bare.filter((k) => defaults[k]).length > 0,
  )
  .map(({ run, defaults, withConfig, bare, names }): BatchConfig => {
    const out: BatchConfig = { ...run };
    for (const kind of FILE_KINDS) {
      const d = defaults[kind];
      if (d) Object.assign(out, { [DEFAULT_KEY[kind]]: d });
    }
    const fileConfigs: Record<string, BatchFileConfig> = {};
    let n = 0;
    const path = (kind: string) => `data/${names[n % names.length]}_${n++}.${kind}`;
    for (const entry of withConfig) {
      const kind = (Object.keys(entry).find((k) => k !== 'type') ?? 'csvConfig').replace(
        'Config',
        '',
      );
      fileConfigs[path(EXTENSION[kind as FileKind] ?? kind)] = entry;
    }
    for (const kind of bare) {
      if (defaults[kind]) fileConfigs[path(EXTENSION[kind])] = { type: TYPE_OF_KIND[kind] };
    }
    out.fileConfigs = fileConfigs;
    return out;
  })
  .map(uniqueChannelNames);

// ---------------------------------------------------------------------------------------
// Documents

const ARB_BY_KIND = {
  csv: arbCsvConfig,
  ch10: arbCh10Config,
  tdms: arbTdmsConfig,
  parquet: arbParquetConfig,
  hdf5: arbHdf5Config,
  ulog: arbUlogConfig,
  batch: arbBatchConfig,
} as const;

type ConfigOf = {
  csv: CsvConfig;
  ch10: Ch10Config;
  tdms: TdmsConfig;
  parquet: ParquetConfig;
  hdf5: Hdf5Config;
  ulog: UlogConfig;
  batch: BatchConfig;
};

/** A valid canonical config of one kind (the value under its document key). */
export function arbConfigOf<K extends ConfigKind>(kind: K): fc.Arbitrary<ConfigOf[K]> {
  return ARB_BY_KIND[kind] as fc.Arbitrary<ConfigOf[K]>;
}

/** A valid document holding a config of one kind: `{ csvConfig: {...} }`. */
export function arbDocumentOf(kind: ConfigKind): fc.Arbitrary<ImportDocument> {
  const key = CONFIG_KINDS[kind].key;
  return arbConfigOf(kind).map((config) => ({ [key]: config }) as ImportDocument);
}

/** A URL the platform can fetch from (CreateDataImportFromUrl). */
export const arbUrl: fc.Arbitrary<string> = fc
  .record({ scheme: fc.constantFrom('https', 'http', 's3'), host: arbIdent, file: arbIdent })
  .map(({ scheme, host, file }) => `${scheme}://${host}.example.com/data/${file}.bin`);

/** A valid document of any kind; about one in four carries a `url`. */
export const arbDocument: fc.Arbitrary<ImportDocument> = fc
  .record({
    kind: fc.constantFrom(...(Object.keys(ARB_BY_KIND) as ConfigKind[])),
    url: fc.oneof(
      { arbitrary: fc.constant(undefined), weight: 3 },
      { arbitrary: arbUrl, weight: 1 },
    ),
  })
  .chain(({ kind, url }) =>
    arbDocumentOf(kind).map((doc) => (url === undefined ? doc : { url, ...doc })),
  );
