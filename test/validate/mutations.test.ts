/**
 * Each semantic rule has a mutation that, applied to any valid generated config, triggers
 * exactly its code at the expected pointer (and no other new issue).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CONFIG_KEYS, CONFIG_KINDS, type ConfigKind } from '../../src/model/document.js';
import { pointer } from '../../src/model/issue.js';
import { validateConfig } from '../../src/validate/index.js';
import { arbDocumentOf } from '../helpers/arbitraries.js';

type Doc = Record<string, Record<string, unknown>>;
type Mutation = (doc: Doc) => { code: string; path: string } | undefined;

/** Adds a channel to a CSV config under a fresh column number. */
function addCsvChannel(doc: Doc, channel: Record<string, unknown>, sub: string[], code: string) {
  const csv = doc.csvConfig as Record<string, unknown>;
  const cols = (csv.dataColumns ?? {}) as Record<string, unknown>;
  const time = (csv.timeColumn as { columnNumber?: number } | undefined)?.columnNumber ?? 0;
  const used = [time, ...Object.keys(cols).map(Number)];
  const key = String(Math.max(...used) + 1);
  csv.dataColumns = { ...cols, [key]: channel };
  return { code, path: pointer('csvConfig', 'dataColumns', key, ...sub) };
}

const channelMutations: Record<string, [Record<string, unknown>, string[]]> = {
  enum_types_missing: [{ dataType: 'CHANNEL_DATA_TYPE_ENUM' }, ['dataType']],
  enum_types_duplicate_key: [
    {
      dataType: 'CHANNEL_DATA_TYPE_ENUM',
      enumTypes: [
        { name: 'a', key: 1 },
        { name: 'b', key: 1 },
      ],
    },
    ['enumTypes', '1', 'key'],
  ],
  enum_types_duplicate_name: [
    {
      dataType: 'CHANNEL_DATA_TYPE_ENUM',
      enumTypes: [
        { name: 'a', key: 1 },
        { name: 'a', key: 2 },
      ],
    },
    ['enumTypes', '1', 'name'],
  ],
  enum_types_unexpected: [
    { dataType: 'CHANNEL_DATA_TYPE_INT_32', enumTypes: [{ name: 'a', key: 1 }] },
    ['enumTypes'],
  ],
  bit_field_elements_missing: [{ dataType: 'CHANNEL_DATA_TYPE_BIT_FIELD' }, ['dataType']],
  bit_field_count_zero: [
    { dataType: 'CHANNEL_DATA_TYPE_BIT_FIELD', bitFieldElements: [{ name: 'a', bitCount: 0 }] },
    ['bitFieldElements', '0', 'bitCount'],
  ],
  bit_field_elements_overlap: [
    {
      dataType: 'CHANNEL_DATA_TYPE_BIT_FIELD',
      bitFieldElements: [
        { name: 'a', index: 0, bitCount: 8 },
        { name: 'b', index: 7, bitCount: 2 },
      ],
    },
    ['bitFieldElements', '1'],
  ],
  bit_field_element_past_64_bits: [
    {
      dataType: 'CHANNEL_DATA_TYPE_BIT_FIELD',
      bitFieldElements: [{ name: 'a', index: 63, bitCount: 2 }],
    },
    ['bitFieldElements', '0'],
  ],
  bit_field_elements_unexpected: [
    { dataType: 'CHANNEL_DATA_TYPE_BOOL', bitFieldElements: [{ name: 'a', bitCount: 1 }] },
    ['bitFieldElements'],
  ],
  unspecified_value: [{ dataType: 'CHANNEL_DATA_TYPE_UNSPECIFIED' }, ['dataType']],
  metadata_value_missing: [{ metadata: [{ key: { name: 'k' } }] }, ['metadata', '0']],
  metadata_value_multiple: [
    { metadata: [{ key: { name: 'k' }, stringValue: 'a', booleanValue: true }] },
    ['metadata', '0', 'booleanValue'],
  ],
};

const MUTATIONS: Array<{ name: string; kind: ConfigKind; mutate: Mutation }> = [
  ...Object.entries(channelMutations).map(([code, [channel, sub]]) => ({
    name: code,
    kind: 'csv' as const,
    mutate: (d: Doc) => addCsvChannel(d, channel, sub, code),
  })),
  {
    name: 'unknown_key',
    kind: 'hdf5',
    mutate: (d) => {
      d.hdf5Config!.zzUnknown = 1;
      return { code: 'unknown_key', path: '/hdf5Config/zzUnknown' };
    },
  },
  {
    name: 'config_kind_missing',
    kind: 'ulog',
    mutate: (d) => {
      delete d.ulogConfig;
      return { code: 'config_kind_missing', path: '' };
    },
  },
  {
    name: 'config_kind_multiple',
    kind: 'tdms',
    mutate: (d) => {
      (d as Record<string, unknown>).ch10Config = {};
      // The later key in the table is the one reported.
      const later = CONFIG_KEYS.indexOf('ch10Config') > CONFIG_KEYS.indexOf('tdmsConfig');
      return { code: 'config_kind_multiple', path: later ? '/ch10Config' : '/tdmsConfig' };
    },
  },
  {
    name: 'run_name_and_run_id',
    kind: 'parquet',
    mutate: (d) => {
      Object.assign(d.parquetConfig!, { runName: 'r', runId: 'id' });
      return { code: 'run_name_and_run_id', path: '/parquetConfig/runName' };
    },
  },
  {
    name: 'import_file_properties_without_run',
    kind: 'tdms',
    mutate: (d) => {
      const c = d.tdmsConfig!;
      delete c.runName;
      delete c.runId;
      c.importFileProperties = true;
      return {
        code: 'import_file_properties_without_run',
        path: '/tdmsConfig/importFileProperties',
      };
    },
  },
  {
    name: 'relative_start_time_missing',
    kind: 'hdf5',
    mutate: (d) => {
      d.hdf5Config!.timeFormat = 'TIME_FORMAT_RELATIVE_SECONDS';
      delete d.hdf5Config!.relativeStartTime;
      return { code: 'relative_start_time_missing', path: '/hdf5Config/timeFormat' };
    },
  },
  {
    name: 'relative_start_time_unexpected',
    kind: 'hdf5',
    mutate: (d) => {
      d.hdf5Config!.timeFormat = 'TIME_FORMAT_ABSOLUTE_RFC3339';
      d.hdf5Config!.relativeStartTime = '2024-01-01T00:00:00Z';
      return { code: 'relative_start_time_unexpected', path: '/hdf5Config/relativeStartTime' };
    },
  },
  {
    name: 'time_format_missing',
    kind: 'hdf5',
    mutate: (d) => {
      delete d.hdf5Config!.timeFormat;
      delete d.hdf5Config!.relativeStartTime;
      return { code: 'time_format_missing', path: '/hdf5Config' };
    },
  },
  {
    name: 'first_data_row_below_one',
    kind: 'csv',
    mutate: (d) => {
      d.csvConfig!.firstDataRow = 0;
      return { code: 'first_data_row_below_one', path: '/csvConfig/firstDataRow' };
    },
  },
  {
    name: 'data_column_key_invalid',
    kind: 'csv',
    mutate: (d) => {
      d.csvConfig!.dataColumns = { ...(d.csvConfig!.dataColumns as object), x: {} };
      return { code: 'data_column_key_invalid', path: '/csvConfig/dataColumns/x' };
    },
  },
  {
    name: 'time_column_is_data_column',
    kind: 'csv',
    mutate: (d) => {
      const n = (d.csvConfig!.timeColumn as { columnNumber?: number } | undefined)?.columnNumber;
      if (n === undefined || n < 1) return undefined;
      const cols = (d.csvConfig!.dataColumns ?? {}) as Record<string, unknown>;
      d.csvConfig!.dataColumns = { ...cols, [String(n)]: {} };
      return { code: 'time_column_is_data_column', path: `/csvConfig/dataColumns/${n}` };
    },
  },
  {
    name: 'data_columns_missing',
    kind: 'csv',
    mutate: (d) => {
      // An embedded config without its flag would also lack a time column and firstDataRow.
      if (d.csvConfig!.useEmbeddedConfig === true) return undefined;
      delete d.csvConfig!.dataColumns;
      delete d.csvConfig!.useEmbeddedConfig;
      return { code: 'data_columns_missing', path: '/csvConfig' };
    },
  },
  {
    name: 'time_column_missing',
    kind: 'csv',
    mutate: (d) => {
      if (d.csvConfig!.useEmbeddedConfig === true) return undefined;
      delete d.csvConfig!.timeColumn;
      return { code: 'time_column_missing', path: '/csvConfig' };
    },
  },
  {
    name: 'time_column_number_missing',
    kind: 'csv',
    mutate: (d) => {
      const tc = d.csvConfig!.timeColumn as Record<string, unknown> | undefined;
      if (!tc || d.csvConfig!.useEmbeddedConfig === true) return undefined;
      delete tc.columnNumber;
      return { code: 'time_column_number_missing', path: '/csvConfig/timeColumn' };
    },
  },
  {
    name: 'time_format_missing (CSV time column)',
    kind: 'csv',
    mutate: (d) => {
      const tc = d.csvConfig!.timeColumn as Record<string, unknown> | undefined;
      if (!tc || d.csvConfig!.useEmbeddedConfig === true) return undefined;
      delete tc.format;
      delete tc.relativeStartTime;
      return { code: 'time_format_missing', path: '/csvConfig/timeColumn' };
    },
  },
  {
    name: 'first_data_row_missing',
    kind: 'csv',
    mutate: (d) => {
      if (d.csvConfig!.useEmbeddedConfig === true) return undefined;
      delete d.csvConfig!.firstDataRow;
      return { code: 'first_data_row_missing', path: '/csvConfig' };
    },
  },
  {
    name: 'time_column_missing (Parquet)',
    kind: 'parquet',
    mutate: (d) => {
      const layout = d.parquetConfig!.flatDataset ? 'flatDataset' : 'singleChannelPerRow';
      const l = d.parquetConfig![layout] as Record<string, unknown> | undefined;
      if (!l) return undefined;
      delete l.timeColumn;
      return { code: 'time_column_missing', path: `/parquetConfig/${layout}` };
    },
  },
  {
    name: 'time_column_path_missing',
    kind: 'parquet',
    mutate: (d) => {
      const layout = d.parquetConfig!.flatDataset ? 'flatDataset' : 'singleChannelPerRow';
      const tc = (d.parquetConfig![layout] as { timeColumn?: Record<string, unknown> } | undefined)
        ?.timeColumn;
      if (!tc) return undefined;
      tc.path = '';
      return { code: 'time_column_path_missing', path: `/parquetConfig/${layout}/timeColumn/path` };
    },
  },
  {
    name: 'time_format_missing (Parquet time column)',
    kind: 'parquet',
    mutate: (d) => {
      const layout = d.parquetConfig!.flatDataset ? 'flatDataset' : 'singleChannelPerRow';
      const tc = (d.parquetConfig![layout] as { timeColumn?: Record<string, unknown> } | undefined)
        ?.timeColumn;
      if (!tc) return undefined;
      delete tc.format;
      delete tc.relativeStartTime;
      return { code: 'time_format_missing', path: `/parquetConfig/${layout}/timeColumn` };
    },
  },
  {
    name: 'deprecated_enum_value (TDMS)',
    kind: 'tdms',
    mutate: (d) => {
      d.tdmsConfig!.fallbackMethod = 'TDMS_FALLBACK_METHOD_UNSPECIFIED';
      return { code: 'deprecated_enum_value', path: '/tdmsConfig/fallbackMethod' };
    },
  },
  {
    name: 'deprecated_enum_value (Parquet)',
    kind: 'parquet',
    mutate: (d) => {
      d.parquetConfig!.complexTypesImportMode = 0;
      return { code: 'deprecated_enum_value', path: '/parquetConfig/complexTypesImportMode' };
    },
  },
  {
    name: 'unspecified_means_default (ULog)',
    kind: 'ulog',
    mutate: (d) => {
      d.ulogConfig!.parseErrorPolicy = 'ULOG_PARSE_ERROR_POLICY_UNSPECIFIED';
      return { code: 'unspecified_means_default', path: '/ulogConfig/parseErrorPolicy' };
    },
  },
  {
    name: 'unspecified_means_default (TDMS)',
    kind: 'tdms',
    mutate: (d) => {
      const data = (d.tdmsConfig!.data ?? []) as Array<Record<string, unknown>>;
      if (data.length === 0) return undefined;
      data[0]!.complexComponent = 'TDMS_COMPLEX_COMPONENT_UNSPECIFIED';
      return { code: 'unspecified_means_default', path: '/tdmsConfig/data/0/complexComponent' };
    },
  },
  {
    name: 'time_column_missing (batch file config)',
    kind: 'batch',
    mutate: (d) => {
      const files = (d.batchConfig!.fileConfigs ?? {}) as Record<string, unknown>;
      d.batchConfig!.fileConfigs = {
        ...files,
        'zz.csv': {
          type: 'DATA_TYPE_KEY_CSV',
          // A name the documents' channels (arbIdent: no hyphen) never take: the same name
          // with other units in another file would add batch_channel_units_conflict.
          csvConfig: { firstDataRow: 2, dataColumns: { '2': { name: 'zz-added' } } },
        },
      };
      return {
        code: 'time_column_missing',
        path: '/batchConfig/fileConfigs/zz.csv/csvConfig',
      };
    },
  },
  {
    name: 'duplicate_channel_name (HDF5)',
    kind: 'hdf5',
    mutate: (d) => {
      const data = (d.hdf5Config!.data ?? []) as Array<Record<string, unknown>>;
      const i = data.findIndex(
        (e) =>
          typeof (e.channelConfig as { name?: string })?.name === 'string' &&
          (e.channelConfig as { name: string }).name !== '',
      );
      if (i < 0) return undefined;
      data.push(structuredClone(data[i]!));
      return {
        code: 'duplicate_channel_name',
        path: `/hdf5Config/data/${data.length - 1}/channelConfig/name`,
      };
    },
  },
  {
    name: 'parquet_layout_missing',
    kind: 'parquet',
    mutate: (d) => {
      delete d.parquetConfig!.flatDataset;
      delete d.parquetConfig!.singleChannelPerRow;
      return { code: 'parquet_layout_missing', path: '/parquetConfig' };
    },
  },
  {
    name: 'footer_fields_unpaired',
    kind: 'parquet',
    mutate: (d) => {
      delete d.parquetConfig!.footerLength;
      d.parquetConfig!.footerOffset = '16';
      return { code: 'footer_fields_unpaired', path: '/parquetConfig/footerOffset' };
    },
  },
  {
    name: 'batch_config_type_mismatch',
    kind: 'batch',
    mutate: (d) => {
      const files = (d.batchConfig!.fileConfigs ?? {}) as Record<string, unknown>;
      d.batchConfig!.fileConfigs = {
        ...files,
        'zz.csv': { type: 'DATA_TYPE_KEY_CSV', ulogConfig: {} },
      };
      return {
        code: 'batch_config_type_mismatch',
        path: '/batchConfig/fileConfigs/zz.csv/ulogConfig',
      };
    },
  },
  {
    name: 'batch_config_missing',
    kind: 'batch',
    mutate: (d) => {
      const files = (d.batchConfig!.fileConfigs ?? {}) as Record<string, Record<string, unknown>>;
      if (Object.values(files).some((f) => f.type === 'DATA_TYPE_KEY_HDF5' && !f.hdf5Config))
        return undefined;
      delete d.batchConfig!.defaultHdf5Config;
      d.batchConfig!.fileConfigs = { ...files, 'zz.h5': { type: 'DATA_TYPE_KEY_HDF5' } };
      return { code: 'batch_config_missing', path: '/batchConfig/fileConfigs/zz.h5' };
    },
  },
  {
    name: 'run_field_in_file_config',
    kind: 'batch',
    mutate: (d) => {
      const files = (d.batchConfig!.fileConfigs ?? {}) as Record<string, unknown>;
      d.batchConfig!.fileConfigs = {
        ...files,
        'zz.ulg': { type: 'DATA_TYPE_KEY_ULOG', ulogConfig: { runId: 'x' } },
      };
      return {
        code: 'run_field_in_file_config',
        path: '/batchConfig/fileConfigs/zz.ulg/ulogConfig/runId',
      };
    },
  },
];

const key = (i: { code: string; path: string }) => `${i.code} ${i.path}`;

describe('each rule’s mutation triggers exactly its code', () => {
  for (const m of MUTATIONS) {
    test(`${m.name} (${CONFIG_KINDS[m.kind].key})`, () => {
      let applied = 0;
      fc.assert(
        fc.property(arbDocumentOf(m.kind), (doc) => {
          const before = validateConfig(doc);
          expect(before.ok).toBe(true);
          const copy = structuredClone(doc) as unknown as Doc;
          const want = m.mutate(copy);
          if (!want) return;
          applied++;
          const seen = new Set(before.issues.map(key));
          const added = validateConfig(copy).issues.filter((i) => !seen.has(key(i)));
          expect(added.map((i) => ({ code: i.code, path: i.path }))).toEqual([want]);
        }),
        { numRuns: 15 },
      );
      expect(applied).toBeGreaterThan(0);
    });
  }
});
