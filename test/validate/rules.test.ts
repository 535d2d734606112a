/**
 * Every validation code on a small hand-written config: the whole issue list, with the
 * pointer, line and column each issue must carry (counted by hand from the text).
 */
import { describe, expect, test } from 'vitest';
import { validateConfigText } from '../../src/validate/index.js';

type Row = [code: string, path: string, line: number, column: number];

function issuesOf(text: string, filename = 'config.yaml'): Row[] {
  return validateConfigText(text, { filename }).issues.map((i) => [
    i.code,
    i.path,
    i.line ?? -1,
    i.column ?? -1,
  ]);
}

const CSV_OK = `csvConfig:
  timeColumn:
    columnNumber: 1
    format: TIME_FORMAT_ABSOLUTE_RFC3339
  dataColumns:
    "2":
      name: speed
      dataType: CHANNEL_DATA_TYPE_DOUBLE
  firstDataRow: 2
`;

const cases: Array<{ name: string; text: string; want: Row[]; filename?: string }> = [
  { name: 'a valid CSV config', text: CSV_OK, want: [] },
  {
    name: 'unknown key near a known one',
    text: CSV_OK.replace('  timeColumn:', '  timeColum:'),
    want: [['unknown_key', '/csvConfig/timeColum', 2, 3]],
  },
  {
    name: 'wrong type',
    text: CSV_OK.replace('columnNumber: 1', 'columnNumber: [1]'),
    want: [['wrong_type', '/csvConfig/timeColumn/columnNumber', 3, 5]],
  },
  {
    name: 'enum value that does not exist',
    text: CSV_OK.replace('CHANNEL_DATA_TYPE_DOUBLE', 'CHANNEL_DATA_TYPE_DUBLE'),
    want: [['invalid_enum_value', '/csvConfig/dataColumns/2/dataType', 8, 17]],
  },
  {
    name: 'short enum name',
    text: CSV_OK.replace('CHANNEL_DATA_TYPE_DOUBLE', 'DOUBLE'),
    want: [['enum_short_name', '/csvConfig/dataColumns/2/dataType', 8, 17]],
  },
  {
    name: 'UNSPECIFIED data type',
    text: CSV_OK.replace('CHANNEL_DATA_TYPE_DOUBLE', 'CHANNEL_DATA_TYPE_UNSPECIFIED'),
    want: [['unspecified_value', '/csvConfig/dataColumns/2/dataType', 8, 17]],
  },
  {
    name: 'UNSPECIFIED time format',
    text: CSV_OK.replace('TIME_FORMAT_ABSOLUTE_RFC3339', 'TIME_FORMAT_UNSPECIFIED'),
    want: [['unspecified_value', '/csvConfig/timeColumn/format', 4, 13]],
  },
  {
    name: 'no config kind',
    text: 'url: s3://bucket/a.csv\n',
    want: [['config_kind_missing', '', 1, 1]],
  },
  {
    name: 'two config kinds',
    text: `${CSV_OK}ch10Config:\n  scaleValues: true\n`,
    want: [['config_kind_multiple', '/ch10Config', 10, 1]],
  },
  {
    name: 'url that is not http, https or s3',
    text: `url: ftp://host/a.csv\n${CSV_OK}`,
    want: [['invalid_url', '/url', 1, 6]],
  },
  {
    name: 'relative format without relativeStartTime',
    text: CSV_OK.replace('TIME_FORMAT_ABSOLUTE_RFC3339', 'TIME_FORMAT_RELATIVE_SECONDS'),
    want: [['relative_start_time_missing', '/csvConfig/timeColumn/format', 4, 13]],
  },
  {
    name: 'absolute format with relativeStartTime',
    text: CSV_OK.replace('RFC3339\n', 'RFC3339\n    relativeStartTime: 2024-05-01T12:00:00Z\n'),
    want: [['relative_start_time_unexpected', '/csvConfig/timeColumn/relativeStartTime', 5, 24]],
  },
  {
    name: 'timestamp without a zone',
    text: CSV_OK.replace(
      'TIME_FORMAT_ABSOLUTE_RFC3339\n',
      'TIME_FORMAT_RELATIVE_SECONDS\n    relativeStartTime: "2024-05-01 12:00"\n',
    ),
    want: [['invalid_timestamp', '/csvConfig/timeColumn/relativeStartTime', 5, 24]],
  },
  {
    name: 'runName with runId',
    text: CSV_OK.replace('csvConfig:\n', 'csvConfig:\n  runName: test\n  runId: abc\n'),
    want: [['run_name_and_run_id', '/csvConfig/runName', 2, 12]],
  },
  {
    name: 'importFileProperties without a run',
    text: 'tdmsConfig:\n  assetName: rig\n  importFileProperties: true\n',
    want: [['import_file_properties_without_run', '/tdmsConfig/importFileProperties', 3, 25]],
  },
  {
    name: 'ENUM channel without enumTypes',
    text: CSV_OK.replace('CHANNEL_DATA_TYPE_DOUBLE', 'CHANNEL_DATA_TYPE_ENUM'),
    want: [['enum_types_missing', '/csvConfig/dataColumns/2/dataType', 8, 17]],
  },
  {
    name: 'enum types with a repeated key and a repeated name',
    text: CSV_OK.replace(
      'CHANNEL_DATA_TYPE_DOUBLE\n',
      `CHANNEL_DATA_TYPE_ENUM
      enumTypes:
        - { name: off, key: 0 }
        - { name: on, key: 0 }
        - { name: off, key: 2 }
`,
    ),
    want: [
      ['enum_types_duplicate_key', '/csvConfig/dataColumns/2/enumTypes/1/key', 11, 28],
      ['enum_types_duplicate_name', '/csvConfig/dataColumns/2/enumTypes/2/name', 12, 19],
    ],
  },
  {
    name: 'enumTypes on a DOUBLE channel',
    text: CSV_OK.replace('DOUBLE\n', 'DOUBLE\n      enumTypes: [{ name: on, key: 1 }]\n'),
    want: [['enum_types_unexpected', '/csvConfig/dataColumns/2/enumTypes', 9, 7]],
  },
  {
    name: 'BIT_FIELD channel without elements',
    text: CSV_OK.replace('CHANNEL_DATA_TYPE_DOUBLE', 'CHANNEL_DATA_TYPE_BIT_FIELD'),
    want: [['bit_field_elements_missing', '/csvConfig/dataColumns/2/dataType', 8, 17]],
  },
  {
    name: 'bit-field elements: zero count, overlap, past 64 bits',
    text: CSV_OK.replace(
      'CHANNEL_DATA_TYPE_DOUBLE\n',
      `CHANNEL_DATA_TYPE_BIT_FIELD
      bitFieldElements:
        - { name: a, index: 0, bitCount: 4 }
        - { name: b, index: 4, bitCount: 0 }
        - { name: c, index: 2, bitCount: 4 }
        - { name: d, index: 60, bitCount: 8 }
`,
    ),
    want: [
      ['bit_field_count_zero', '/csvConfig/dataColumns/2/bitFieldElements/1/bitCount', 11, 42],
      ['bit_field_elements_overlap', '/csvConfig/dataColumns/2/bitFieldElements/2', 12, 11],
      ['bit_field_element_past_64_bits', '/csvConfig/dataColumns/2/bitFieldElements/3', 13, 11],
    ],
  },
  {
    name: 'bitFieldElements on a STRING channel',
    text: CSV_OK.replace(
      'CHANNEL_DATA_TYPE_DOUBLE\n',
      'CHANNEL_DATA_TYPE_STRING\n      bitFieldElements: [{ name: a, bitCount: 1 }]\n',
    ),
    want: [['bit_field_elements_unexpected', '/csvConfig/dataColumns/2/bitFieldElements', 9, 7]],
  },
  {
    name: 'CSV: first data row 0, time column 0',
    text: CSV_OK.replace('  firstDataRow: 2\n', '')
      .replace('columnNumber: 1', 'columnNumber: 0')
      .replace('csvConfig:\n', 'csvConfig:\n  firstDataRow: 0\n'),
    want: [
      ['first_data_row_below_one', '/csvConfig/firstDataRow', 2, 17],
      ['column_number_below_one', '/csvConfig/timeColumn/columnNumber', 4, 19],
    ],
  },
  {
    name: 'CSV: data column keys that are not column numbers',
    text: CSV_OK.replace('"2":', '"0":').replace(
      '      dataType: CHANNEL_DATA_TYPE_DOUBLE\n',
      '      dataType: CHANNEL_DATA_TYPE_DOUBLE\n    speed:\n      name: other\n',
    ),
    want: [
      ['data_column_key_invalid', '/csvConfig/dataColumns/0', 6, 5],
      ['data_column_key_invalid', '/csvConfig/dataColumns/speed', 9, 5],
    ],
  },
  {
    name: 'CSV: the time column is a data column',
    text: CSV_OK.replace('"2":', '"1":'),
    want: [['time_column_is_data_column', '/csvConfig/dataColumns/1', 6, 5]],
  },
  {
    name: 'CSV: no data columns and no embedded config',
    text: 'csvConfig:\n  assetName: rig\n',
    want: [
      ['first_data_row_missing', '/csvConfig', 1, 1],
      ['time_column_missing', '/csvConfig', 1, 1],
      ['data_columns_missing', '/csvConfig', 1, 1],
    ],
  },
  {
    name: 'CSV: the embedded config needs no data columns',
    text: 'csvConfig:\n  useEmbeddedConfig: true\n',
    want: [],
  },
  {
    name: 'duplicate channel names',
    text: CSV_OK.replace(
      '      dataType: CHANNEL_DATA_TYPE_DOUBLE\n',
      '      dataType: CHANNEL_DATA_TYPE_DOUBLE\n    "3":\n      name: speed\n',
    ),
    want: [['duplicate_channel_name', '/csvConfig/dataColumns/3/name', 10, 13]],
  },
  {
    name: 'metadata without a value and with two',
    text: CSV_OK.replace(
      'DOUBLE\n',
      `DOUBLE
      metadata:
        - key: { name: site }
        - key: { name: shift }
          stringValue: night
          numberValue: 2
`,
    ),
    want: [
      ['metadata_value_missing', '/csvConfig/dataColumns/2/metadata/0', 10, 11],
      ['metadata_value_multiple', '/csvConfig/dataColumns/2/metadata/1/numberValue', 13, 24],
    ],
  },
  {
    name: 'uint32 out of range, negative unsigned, not an integer',
    text: CSV_OK.replace('  firstDataRow: 2\n', '')
      .replace('columnNumber: 1', 'columnNumber: 4294967296')
      .replace('csvConfig:\n', 'csvConfig:\n  firstDataRow: -1\n  numRows: 1.5\n'),
    want: [
      ['negative_unsigned', '/csvConfig/firstDataRow', 2, 17],
      ['not_an_integer', '/csvConfig/numRows', 3, 12],
      ['value_out_of_range', '/csvConfig/timeColumn/columnNumber', 5, 19],
    ],
  },
  {
    name: 'int64 and uint64 out of range',
    text: `ulogConfig:
  relativeStartTime: 2024-05-01T12:00:00Z
  data:
    - messageName: sensor_accel
      instance: "9223372036854775808"
tdmsConfig:
  fileSize: 18446744073709551616
`,
    want: [
      ['config_kind_multiple', '/ulogConfig', 1, 1],
      ['value_out_of_range', '/ulogConfig/data/0/instance', 5, 17],
      ['value_out_of_range', '/tdmsConfig/fileSize', 7, 13],
    ].sort((a, b) => (a[2] as number) - (b[2] as number)) as Row[],
  },
  {
    name: 'Parquet: no layout, footer offset without length',
    text: 'parquetConfig:\n  footerOffset: "1024"\n',
    want: [
      ['parquet_layout_missing', '/parquetConfig', 1, 1],
      ['footer_fields_unpaired', '/parquetConfig/footerOffset', 2, 17],
    ],
  },
  {
    name: 'Parquet: both layouts',
    text: 'parquetConfig:\n  flatDataset:\n    useEmbeddedConfig: true\n  singleChannelPerRow:\n    singleChannel: { dataPath: v }\n',
    want: [
      ['time_column_missing', '/parquetConfig/flatDataset', 2, 3],
      ['parquet_layout_conflict', '/parquetConfig/singleChannelPerRow', 4, 3],
      ['time_column_missing', '/parquetConfig/singleChannelPerRow', 4, 3],
    ],
  },
  {
    name: 'Parquet: no channel mode, and both',
    text: `parquetConfig:
  singleChannelPerRow:
    timeColumn: { path: t, format: TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS }
batchConfig:
  defaultParquetConfig:
    singleChannelPerRow:
      singleChannel: { dataPath: v }
      multiChannel: { namePath: n, dataPath: v }
  fileConfigs:
    x.parquet: { type: DATA_TYPE_KEY_PARQUET_SINGLE_CHANNEL_PER_ROW }
`,
    want: [
      ['channel_mode_missing', '/parquetConfig/singleChannelPerRow', 2, 3],
      ['config_kind_multiple', '/batchConfig', 4, 1],
      ['time_column_missing', '/batchConfig/defaultParquetConfig/singleChannelPerRow', 6, 5],
      [
        'channel_mode_conflict',
        '/batchConfig/defaultParquetConfig/singleChannelPerRow/multiChannel',
        8,
        7,
      ],
    ],
  },
  {
    name: 'Parquet: a data column that is the time column, and one repeated',
    text: `parquetConfig:
  flatDataset:
    timeColumn: { path: ts, format: TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS }
    dataColumns:
      - { path: ts }
      - { path: a }
      - { path: a }
`,
    want: [
      ['data_column_is_time_column', '/parquetConfig/flatDataset/dataColumns/0/path', 5, 17],
      ['data_column_repeated', '/parquetConfig/flatDataset/dataColumns/2/path', 7, 17],
    ],
  },
  {
    name: 'HDF5: no time format, empty dataset paths, timeField without valueField',
    text: `hdf5Config:
  data:
    - timeDataset: ""
      valueDataset: /v
    - valueDataset: /v
      timeField: t
`,
    want: [
      ['time_format_missing', '/hdf5Config', 1, 1],
      ['dataset_path_empty', '/hdf5Config/data/0/timeDataset', 3, 20],
      ['dataset_path_empty', '/hdf5Config/data/1', 5, 7],
      ['value_field_missing', '/hdf5Config/data/1/timeField', 6, 18],
    ],
  },
  {
    name: 'Batch: type mismatch, two configs, no config and no default, run fields per file',
    text: `batchConfig:
  runName: nightly
  fileConfigs:
    a.csv:
      type: DATA_TYPE_KEY_CSV
      parquetConfig: { flatDataset: { useEmbeddedConfig: true } }
    b.csv:
      type: DATA_TYPE_KEY_CSV
      csvConfig: { useEmbeddedConfig: true, runId: x }
      ulogConfig: {}
    c.h5:
      type: DATA_TYPE_KEY_HDF5
    d.bin:
      type: DATA_TYPE_KEY_UNSPECIFIED
`,
    want: [
      ['batch_config_type_mismatch', '/batchConfig/fileConfigs/a.csv/parquetConfig', 6, 7],
      ['time_column_missing', '/batchConfig/fileConfigs/a.csv/parquetConfig/flatDataset', 6, 24],
      ['run_field_in_file_config', '/batchConfig/fileConfigs/b.csv/csvConfig/runId', 9, 52],
      ['batch_config_multiple', '/batchConfig/fileConfigs/b.csv/ulogConfig', 10, 7],
      ['batch_config_missing', '/batchConfig/fileConfigs/c.h5', 11, 5],
      ['unspecified_value', '/batchConfig/fileConfigs/d.bin/type', 14, 13],
    ],
  },
  {
    name: 'CSV: time column without number or format',
    text: CSV_OK.replace(
      '    columnNumber: 1\n    format: TIME_FORMAT_ABSOLUTE_RFC3339\n',
      '    {}\n',
    ),
    want: [
      ['time_format_missing', '/csvConfig/timeColumn', 2, 3],
      ['time_column_number_missing', '/csvConfig/timeColumn', 2, 3],
    ],
  },
  {
    name: 'CSV: a misspelled time column is reported once, as unknown_key',
    text: CSV_OK.replace('  timeColumn:', '  timeColum:'),
    want: [['unknown_key', '/csvConfig/timeColum', 2, 3]],
  },
  {
    name: 'Parquet: no time column; a time column without path or format',
    text: `parquetConfig:
  flatDataset:
    dataColumns: [{ path: a }]
batchConfig:
  defaultParquetConfig:
    flatDataset:
      timeColumn: { path: "" , format: TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS }
  fileConfigs:
    b.parquet:
      type: DATA_TYPE_KEY_PARQUET_FLATDATASET
      parquetConfig:
        singleChannelPerRow:
          timeColumn:
            relativeStartTime: 2024-05-01T12:00:00Z
          multiChannel: { namePath: n, dataPath: v }
`,
    want: [
      ['time_column_missing', '/parquetConfig/flatDataset', 2, 3],
      ['config_kind_multiple', '/batchConfig', 4, 1],
      [
        'time_column_path_missing',
        '/batchConfig/defaultParquetConfig/flatDataset/timeColumn/path',
        7,
        27,
      ],
      [
        'time_format_missing',
        '/batchConfig/fileConfigs/b.parquet/parquetConfig/singleChannelPerRow/timeColumn',
        13,
        11,
      ],
      [
        'time_column_path_missing',
        '/batchConfig/fileConfigs/b.parquet/parquetConfig/singleChannelPerRow/timeColumn',
        13,
        11,
      ],
    ],
  },
  {
    name: 'UNSPECIFIED values that are deprecated or mean a default (warnings)',
    text: `tdmsConfig:
  fallbackMethod: TDMS_FALLBACK_METHOD_UNSPECIFIED
  data:
    - groupName: g
      channelName: c
      complexComponent: 0
---
parquetConfig:
  complexTypesImportMode: PARQUET_COMPLEX_TYPES_IMPORT_MODE_UNSPECIFIED
  flatDataset:
    timeColumn: { path: t, format: TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS }
    dataColumns: [{ path: a }]
---
ulogConfig:
  relativeStartTime: 2024-05-01T12:00:00Z
  parseErrorPolicy: ULOG_PARSE_ERROR_POLICY_UNSPECIFIED
`,
    want: [
      ['deprecated_enum_value', '/tdmsConfig/fallbackMethod', 2, 19],
      ['unspecified_means_default', '/tdmsConfig/data/0/complexComponent', 6, 25],
      ['deprecated_enum_value', '/parquetConfig/complexTypesImportMode', 9, 27],
      ['unspecified_means_default', '/ulogConfig/parseErrorPolicy', 16, 21],
    ],
  },
  {
    name: 'missing required key',
    text: CSV_OK.replace(
      'DOUBLE\n',
      'DOUBLE\n      bitFieldElements: []\n      enumTypes: []\n      metadata: [{ stringValue: x }]\n',
    ),
    want: [['missing_key', '/csvConfig/dataColumns/2/metadata/0/key', 11, 18]],
  },
  {
    name: 'snake_case key given twice',
    text: CSV_OK.replace('  firstDataRow: 2\n', '').replace(
      'csvConfig:\n',
      'csvConfig:\n  first_data_row: 2\n  firstDataRow: 2\n',
    ),
    want: [['key_given_twice', '/csvConfig/firstDataRow', 3, 17]],
  },
];

describe('every code at its place', () => {
  for (const c of cases) {
    test(c.name, () => {
      expect(issuesOf(c.text, c.filename)).toEqual(c.want);
    });
  }
});
