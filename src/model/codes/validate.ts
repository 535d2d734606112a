import type { CodeDoc } from './_types.js';

/** Issue codes of the validate stage: reading a config file, its shape, and the semantic rules. */
export const validateCodes = {
  // Reading the text
  yaml_syntax_error: {
    severity: 'error',
    summary: 'The file is not valid YAML.',
    fix: 'Fix the syntax at the position shown (indentation, a missing colon, an unclosed quote or bracket).',
  },
  json_syntax_error: {
    severity: 'error',
    summary:
      'A `.json` file is not valid JSON (YAML-only syntax such as comments or trailing commas is not allowed in JSON).',
    fix: 'Fix the syntax at the position shown, or rename the file to `.yaml` to write YAML.',
  },
  text_not_utf8: {
    severity: 'error',
    summary:
      'The file is not UTF-8 text (UTF-16, Latin-1 or binary data): read as UTF-8 it would mean something else, so it is neither checked nor rewritten.',
    fix: 'Save the file as UTF-8 (without a byte-order mark or with one).',
  },
  format_alias_before_anchor: {
    severity: 'error',
    summary:
      '`importkit fmt` would reorder keys so that an alias (`*name`) comes before its anchor (`&name`), which YAML does not allow; the file is left as it is.',
    fix: 'Put the anchored value first in the reference order, or write the value out instead of the alias.',
  },
  duplicate_key: {
    severity: 'error',
    summary: 'The same key appears twice in one object; only one value can win.',
    fix: 'Remove one of the two entries.',
  },
  key_given_twice: {
    severity: 'error',
    summary:
      'A field is given twice, once in snake_case and once in camelCase (`first_data_row` and `firstDataRow`).',
    fix: 'Keep one spelling; camelCase is the canonical form.',
  },
  too_many_aliases: {
    severity: 'error',
    summary:
      'The YAML uses more alias references (`*name`) than a config needs; expanding them could exhaust memory.',
    fix: 'Write the values out or use fewer aliases (at most 100 per document).',
  },
  input_too_large: {
    severity: 'error',
    summary:
      'The config text is larger than importkit reads (16 MiB, room for a draft of about 60,000 channels).',
    fix: 'Check that this is a config file and not a data file.',
  },
  nesting_too_deep: {
    severity: 'error',
    summary: 'The document nests objects or lists deeper than any config does (64 levels).',
    fix: 'Check that this is a config file; remove the runaway nesting.',
  },
  document_empty: {
    severity: 'error',
    summary: 'The file, or one of its `---` documents, holds no config.',
    fix: 'Write a config (for example `csvConfig: ...`) or remove the empty document.',
  },
  document_not_object: {
    severity: 'error',
    summary: 'The top level of the document is not an object (a list or a plain value).',
    fix: 'Start the document with the config key, for example `csvConfig:`.',
  },

  // Shape (JSON Schema)
  unknown_key: {
    severity: 'error',
    summary:
      'A key that the config does not have (often a misspelling); the platform would reject it.',
    fix: 'Use the suggested name, or remove the key. Key names are case-sensitive.',
  },
  missing_key: {
    severity: 'error',
    summary:
      'A required field is missing (for example `name` or `key` of an enum type, `type` of a batch file entry).',
    fix: 'Add the field.',
  },
  wrong_type: {
    severity: 'error',
    summary:
      'A value has the wrong type (for example a list where an object belongs, or a number where text belongs).',
    fix: 'Write a value of the type named in the message.',
  },
  invalid_enum_value: {
    severity: 'error',
    summary: 'A value that is not a name (or number) of the enumeration the field takes.',
    fix: 'Use one of the names listed in the message; the nearest one is suggested.',
  },
  enum_short_name: {
    severity: 'error',
    summary:
      'An enumeration value written short or in other case (`DOUBLE`, `double`); the platform only accepts the full name (`CHANNEL_DATA_TYPE_DOUBLE`).',
    fix: 'Write the full name given in the hint; `importkit fmt` rewrites these for you.',
  },
  unspecified_value: {
    severity: 'error',
    summary:
      'An `..._UNSPECIFIED` enumeration value where the platform needs a real one (a channel data type, a time format, a batch file type).',
    fix: 'Choose the actual value (for example `CHANNEL_DATA_TYPE_DOUBLE` or `TIME_FORMAT_ABSOLUTE_RFC3339`).',
  },
  value_out_of_range: {
    severity: 'error',
    summary:
      'A number outside the range of its field (uint32: 0 to 4294967295; int32; int64; uint64).',
    fix: 'Use a value within the range named in the message.',
  },
  not_an_integer: {
    severity: 'error',
    summary: 'A fraction or exponent where the field holds a whole number.',
    fix: 'Write a whole number (64-bit fields as a decimal string, for example "1024").',
  },
  negative_unsigned: {
    severity: 'error',
    summary:
      'A negative number in an unsigned field (a column number, a row, a count, a key, a size).',
    fix: 'Use zero or a positive number.',
  },
  invalid_timestamp: {
    severity: 'error',
    summary: 'A timestamp that is not RFC 3339 with a zone, such as `2024-05-01T12:00:00Z`.',
    fix: 'Write the date, `T`, the time with seconds, and `Z` or an offset like `+02:00`.',
  },
  invalid_url: {
    severity: 'error',
    summary: 'The document’s `url` is not an http, https or s3 address.',
    fix: 'Give the address the platform should fetch the file from, for example `s3://bucket/key.csv`.',
  },

  // Document
  config_kind_missing: {
    severity: 'error',
    summary:
      'The document has none of the config keys (`csvConfig`, `ch10Config`, `tdmsConfig`, `parquetConfig`, `hdf5Config`, `ulogConfig`, `batchConfig`).',
    fix: 'Put the config under the key of the file’s format.',
  },
  config_kind_multiple: {
    severity: 'error',
    summary: 'The document has more than one config key; an import takes exactly one.',
    fix: 'Keep the config of the file’s format; put others in their own documents (separate with `---`).',
  },

  // Time
  relative_start_time_missing: {
    severity: 'error',
    summary:
      'A relative time format (`TIME_FORMAT_RELATIVE_*`) without `relativeStartTime`: the times have nothing to count from.',
    fix: 'Add `relativeStartTime` (RFC 3339, for example `2024-05-01T12:00:00Z`) beside the format.',
  },
  relative_start_time_unexpected: {
    severity: 'error',
    summary: '`relativeStartTime` given with an absolute time format, which does not use it.',
    fix: 'Remove `relativeStartTime`, or choose the relative format the time values are written in.',
  },
  time_format_missing: {
    severity: 'error',
    summary:
      'An HDF5 config without `timeFormat`, or a CSV or Parquet time column without `format`: the platform cannot read the times.',
    fix: 'Add the format the times are written in (for example `TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS`).',
  },
  time_column_missing: {
    severity: 'error',
    summary:
      'A CSV config without `timeColumn` (and without `useEmbeddedConfig: true`), or a Parquet `flatDataset` / `singleChannelPerRow` without `timeColumn`: the rows have no time.',
    fix: 'Add `timeColumn` with the column that holds the time and its `format`.',
  },
  time_column_number_missing: {
    severity: 'error',
    summary:
      'A CSV `timeColumn` without `columnNumber`: the platform does not know which column is the time.',
    fix: 'Add `columnNumber`, the 1-based number of the time column (the first column is 1).',
  },
  time_column_path_missing: {
    severity: 'error',
    summary:
      'A Parquet `timeColumn` without `path` (or with an empty one): the platform does not know which column is the time.',
    fix: 'Add `path`, the name (or dotted path) of the time column in the file.',
  },
  first_data_row_missing: {
    severity: 'warning',
    summary:
      'A CSV config without `firstDataRow`: the platform receives 0, which is no row (rows count from 1), and its behaviour for it is not documented; a header row may be read as data.',
    fix: 'Write `firstDataRow` out: 2 after one header row, 1 when the file has no header.',
  },
  deprecated_enum_value: {
    severity: 'warning',
    summary:
      'A deprecated `..._UNSPECIFIED` value (`TDMS_FALLBACK_METHOD_UNSPECIFIED`, `PARQUET_COMPLEX_TYPES_IMPORT_MODE_UNSPECIFIED`): what the platform does with it is not defined.',
    fix: 'Write the value you mean, as named in the hint (for example `TDMS_FALLBACK_METHOD_FAIL_ON_ERROR`), or remove the field.',
  },
  unspecified_means_default: {
    severity: 'warning',
    summary:
      'An `..._UNSPECIFIED` value that the platform reads as a default (`ULOG_PARSE_ERROR_POLICY_UNSPECIFIED` is FAIL_ON_ERROR, `TDMS_COMPLEX_COMPONENT_UNSPECIFIED` is the real part).',
    fix: 'Write the explicit value named in the hint (`ULOG_PARSE_ERROR_POLICY_FAIL_ON_ERROR`, `TDMS_COMPLEX_COMPONENT_REAL`), so the config says what it does.',
  },

  // Runs
  run_name_and_run_id: {
    severity: 'warning',
    summary: 'Both `runName` and `runId` are set; `runId` wins and `runName` is ignored.',
    fix: 'Keep `runId` to add to an existing run, or `runName` to create a new one.',
  },
  import_file_properties_without_run: {
    severity: 'error',
    summary: '`importFileProperties` is only valid when the import goes into a run.',
    fix: 'Set `runName` or `runId`, or remove `importFileProperties`.',
  },

  // Channels
  enum_types_missing: {
    severity: 'error',
    summary: 'An ENUM channel without `enumTypes`: its values would have no names.',
    fix: 'Add `enumTypes: [{ name, key }, ...]` for every value the channel takes.',
  },
  enum_types_duplicate_key: {
    severity: 'error',
    summary: 'Two enum types of one channel share a `key`.',
    fix: 'Give every enum type its own key.',
  },
  enum_types_duplicate_name: {
    severity: 'error',
    summary: 'Two enum types of one channel share a `name`.',
    fix: 'Give every enum type its own name.',
  },
  enum_types_unexpected: {
    severity: 'error',
    summary: '`enumTypes` on a channel whose data type is not `CHANNEL_DATA_TYPE_ENUM`.',
    fix: 'Set `dataType: CHANNEL_DATA_TYPE_ENUM`, or remove `enumTypes`.',
  },
  bit_field_elements_missing: {
    severity: 'error',
    summary: 'A BIT_FIELD channel without `bitFieldElements`.',
    fix: 'Add `bitFieldElements: [{ name, index, bitCount }, ...]`.',
  },
  bit_field_elements_overlap: {
    severity: 'error',
    summary: 'Two bit-field elements of one channel cover the same bit.',
    fix: 'Fix `index` and `bitCount` so that the elements do not overlap.',
  },
  bit_field_element_past_64_bits: {
    severity: 'error',
    summary:
      'A bit-field element reaches past bit 63 (`index + bitCount > 64`) or starts before bit 0.',
    fix: 'Keep every element within bits 0 to 63.',
  },
  bit_field_count_zero: {
    severity: 'error',
    summary: 'A bit-field element with `bitCount: 0` covers no bits.',
    fix: 'Give the number of bits the element spans (1 or more).',
  },
  bit_field_elements_unexpected: {
    severity: 'error',
    summary:
      '`bitFieldElements` on a channel whose data type is not `CHANNEL_DATA_TYPE_BIT_FIELD`.',
    fix: 'Set `dataType: CHANNEL_DATA_TYPE_BIT_FIELD`, or remove `bitFieldElements`.',
  },
  duplicate_channel_name: {
    severity: 'error',
    summary: 'Two channels of one config have the same name.',
    fix: 'Rename one of them; channel names must be unique within an import.',
  },
  metadata_value_missing: {
    severity: 'error',
    summary:
      'A metadata entry with none of `stringValue`, `numberValue`, `booleanValue`, `relationValue`.',
    fix: 'Give the entry exactly one value field.',
  },
  metadata_value_multiple: {
    severity: 'error',
    summary:
      'A metadata entry with more than one of `stringValue`, `numberValue`, `booleanValue`, `relationValue`.',
    fix: 'Keep exactly one value field.',
  },

  // CSV
  first_data_row_below_one: {
    severity: 'error',
    summary: 'CSV `firstDataRow` is 0; rows are counted from 1 (the file’s first row is 1).',
    fix: 'Give the 1-based number of the first row that holds data (2 after one header row).',
  },
  column_number_below_one: {
    severity: 'error',
    summary: 'CSV `timeColumn.columnNumber` is 0; columns are counted from 1.',
    fix: 'Give the 1-based column number (the first column is 1).',
  },
  data_column_key_invalid: {
    severity: 'error',
    summary:
      'A CSV `dataColumns` key that is not a positive whole number (keys are 1-based column numbers).',
    fix: 'Use the column’s 1-based number as the key, for example `"2":`.',
  },
  time_column_is_data_column: {
    severity: 'error',
    summary: 'The CSV time column is also listed in `dataColumns`.',
    fix: 'Remove the time column’s number from `dataColumns`, or fix `timeColumn.columnNumber`.',
  },
  data_columns_missing: {
    severity: 'error',
    summary:
      'A CSV config with no `dataColumns` and without `useEmbeddedConfig`: nothing would be imported.',
    fix: 'List the data columns, or set `useEmbeddedConfig: true` for a file that carries its config.',
  },

  // Parquet
  parquet_layout_missing: {
    severity: 'error',
    summary: 'A Parquet config with neither `flatDataset` nor `singleChannelPerRow`.',
    fix: 'Add `flatDataset` (one column per channel) or `singleChannelPerRow`.',
  },
  parquet_layout_conflict: {
    severity: 'error',
    summary: 'A Parquet config with both `flatDataset` and `singleChannelPerRow`.',
    fix: 'Keep the one that describes the file.',
  },
  channel_mode_missing: {
    severity: 'error',
    summary: '`singleChannelPerRow` with neither `singleChannel` nor `multiChannel`.',
    fix: 'Add `singleChannel` (the whole file is one channel) or `multiChannel` (a column names the channel).',
  },
  channel_mode_conflict: {
    severity: 'error',
    summary: '`singleChannelPerRow` with both `singleChannel` and `multiChannel`.',
    fix: 'Keep the one that describes the file.',
  },
  footer_fields_unpaired: {
    severity: 'error',
    summary: 'Only one of Parquet `footerOffset` and `footerLength` is set; they go together.',
    fix: 'Set both (footerOffset = file size - footerLength - 8) or neither.',
  },
  data_column_is_time_column: {
    severity: 'error',
    summary: 'A Parquet data column has the time column’s path.',
    fix: 'Remove that data column, or fix the time column’s path.',
  },
  data_column_repeated: {
    severity: 'error',
    summary: 'Two Parquet data columns have the same path.',
    fix: 'List each column once.',
  },

  // HDF5
  dataset_path_empty: {
    severity: 'error',
    summary: 'An HDF5 data entry without `timeDataset` or `valueDataset` (or with an empty one).',
    fix: 'Give the full path of the dataset, for example `/sensors/time`.',
  },
  value_field_missing: {
    severity: 'error',
    summary:
      'An HDF5 data entry with `timeField` but no `valueField`: a compound dataset needs both members named.',
    fix: 'Add `valueField` (the member that holds the values), or remove `timeField`.',
  },

  // Batch
  batch_config_type_mismatch: {
    severity: 'error',
    summary:
      'A batch file entry carries a config of another kind than its `type` (a `parquetConfig` for `DATA_TYPE_KEY_CSV`).',
    fix: 'Fix `type`, or move the config under the key that matches it.',
  },
  batch_config_multiple: {
    severity: 'error',
    summary: 'A batch file entry carries more than one config; it takes at most one.',
    fix: 'Keep the config that matches the entry’s `type`.',
  },
  batch_config_missing: {
    severity: 'error',
    summary: 'A batch file entry with no config of its own and no default config for its type.',
    fix: 'Give the entry a config, or add the default (for example `defaultCsvConfig`).',
  },
  batch_empty: {
    severity: 'error',
    summary: 'The BatchConfig lists no file in `fileConfigs`: the import would import nothing.',
    fix: 'List the data files of the archive in `fileConfigs` (`importkit infer <folder or archive>` writes them).',
  },
  batch_channel_type_conflict: {
    severity: 'error',
    summary:
      'Two files of one batch write a channel of the same name into the batch’s asset with different data types: a channel of an asset has one type.',
    fix: 'Give the channel one `dataType` in every file’s config, or rename it in one of them.',
  },
  batch_channel_units_conflict: {
    severity: 'warning',
    summary:
      'Two files of one batch write a channel of the same name into the batch’s asset with different units.',
    fix: 'Give the channel the same `units` in every file’s config, or rename it in one of them.',
  },
  run_field_in_file_config: {
    severity: 'error',
    summary:
      '`runName`, `runId` or `assetName` inside a batch’s per-file or default config; a batch sets them once for every file.',
    fix: 'Move the field to the top of `batchConfig`.',
  },
} as const satisfies Record<string, CodeDoc>;
