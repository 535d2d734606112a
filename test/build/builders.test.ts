import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  batchConfig,
  ConfigBuildError,
  ch10Config,
  channel,
  csvConfig,
  fromUrl,
  hdf5Config,
  parquetConfig,
  tdmsConfig,
  ulogConfig,
} from '../../src/build/index.js';
import { inferBatch } from '../../src/infer/index.js';
import { validateConfig } from '../../src/validate/index.js';
import { platformExamples as corpus, repoRoot } from '../helpers/paths.js';

/** The error a builder throws, for inspection. */
function buildError(build: () => unknown): ConfigBuildError {
  try {
    build();
  } catch (e) {
    if (e instanceof ConfigBuildError) return e;
    throw e;
  }
  throw new Error('the builder did not throw');
}

function codesAt(e: ConfigBuildError): Array<[string, string]> {
  return e.issues.filter((i) => i.severity === 'error').map((i) => [i.code, i.path]);
}

describe('csvConfig', () => {
  test('writes the canonical config the platform expects', () => {
    const doc = csvConfig({
      asset: 'car',
      run: 'lap-1',
      firstDataRow: 2,
      time: { column: 1, format: 'absolute_datetime' },
      columns: {
        2: { name: 'speed', type: 'double', units: 'm/s' },
        3: { name: 'gear', type: 'ENUM', values: { 0: 'park', 1: 'drive' } },
      },
      numRows: 50n,
    });
    expect(doc).toEqual({
      csvConfig: {
        assetName: 'car',
        runName: 'lap-1',
        firstDataRow: 2,
        timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_DATETIME' },
        dataColumns: {
          '2': { name: 'speed', units: 'm/s', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
          '3': {
            name: 'gear',
            dataType: 'CHANNEL_DATA_TYPE_ENUM',
            enumTypes: [
              { name: 'park', key: 0 },
              { name: 'drive', key: 1 },
            ],
          },
        },
        numRows: '50',
      },
    });
    expect(validateConfig(doc).issues).toEqual([]);
  });

  test('relative formats carry their start time, from a Date or a string', () => {
    const start = new Date(Date.UTC(2024, 4, 1, 12, 0, 0));
    const a = csvConfig({
      time: { column: 1, format: 'relative_seconds', start },
      columns: { 2: { name: 'v', type: 'float' } },
    });
    const b = csvConfig({
      time: { column: 1, format: 'RELATIVE_SECONDS', start: '2024-05-01T12:00:00.000Z' },
      columns: { 2: { name: 'v', type: 'CHANNEL_DATA_TYPE_FLOAT' } },
    });
    expect(a).toEqual(b);
    expect(a.csvConfig.timeColumn).toEqual({
      columnNumber: 1,
      format: 'TIME_FORMAT_RELATIVE_SECONDS',
      relativeStartTime: '2024-05-01T12:00:00.000Z',
    });
  });

  test('a column number below 1 is refused with the validation issue', () => {
    const e = buildError(() =>
      csvConfig({
        time: { column: 1, format: 'absolute_rfc3339' },
        columns: { 0: { name: 'v', type: 'double' } },
      }),
    );
    expect(e.name).toBe('ConfigBuildError');
    expect(e.message).toContain('/csvConfig/dataColumns/0');
    expect(codesAt(e)).toEqual([['data_column_key_invalid', '/csvConfig/dataColumns/0']]);
  });

  test('the time column listed as a data column is refused', () => {
    const e = buildError(() =>
      csvConfig({
        time: { column: 2, format: 'absolute_rfc3339' },
        columns: { 2: { name: 'v', type: 'double' } },
      }),
    );
    expect(codesAt(e)).toEqual([['time_column_is_data_column', '/csvConfig/dataColumns/2']]);
  });

  test('duplicate channel names are refused', () => {
    const e = buildError(() =>
      csvConfig({
        time: { column: 1, format: 'absolute_rfc3339' },
        columns: { 2: { name: 'v', type: 'double' }, 3: { name: 'v', type: 'double' } },
      }),
    );
    expect(codesAt(e).map(([code]) => code)).toEqual(['duplicate_channel_name']);
  });

  test('an embedded config needs no columns', () => {
    expect(csvConfig({ asset: 'car', useEmbeddedConfig: true })).toEqual({
      csvConfig: { assetName: 'car', useEmbeddedConfig: true },
    });
  });
});

describe('input the types cannot see', () => {
  test('a platform field name gets the builder name suggested', () => {
    const input: Record<string, unknown> = { assetName: 'car', useEmbeddedConfig: true };
    const e = buildError(() => csvConfig(input as never));
    expect(codesAt(e)).toEqual([['unknown_key', '/assetName']]);
    expect(e.issues[0]?.message).toBe('csvConfig() does not take `assetName`');
    expect(e.issues[0]?.hint).toBe('Did you mean `asset`?');
    expect(e.message).toBe(
      'csvConfig(): /assetName: csvConfig() does not take `assetName` [unknown_key] Did you mean `asset`?',
    );
  });

  test('a misspelled channel field is refused, not dropped', () => {
    const columns = { 2: { name: 'speed', type: 'double', unit: 'm/s' } };
    const e = buildError(() =>
      csvConfig({ time: { column: 1, format: 'absolute_rfc3339' }, columns } as never),
    );
    expect(codesAt(e)).toEqual([['unknown_key', '/columns/2/unit']]);
    expect(e.issues[0]?.hint).toBe('Did you mean `units`?');
  });

  test('an unknown short name reaches validation, which names the nearest value', () => {
    const e = buildError(() =>
      csvConfig({
        time: { column: 1, format: 'absolute_rfc3339' },
        columns: { 2: { name: 'speed', type: 'doubel' as 'double' } },
      }),
    );
    expect(codesAt(e)).toEqual([['invalid_enum_value', '/csvConfig/dataColumns/2/dataType']]);
    expect(JSON.stringify(e.issues)).toContain('CHANNEL_DATA_TYPE_DOUBLE');
  });
});

describe('channel', () => {
  test('every spelling of a type gives the full platform name', () => {
    for (const type of ['int_32', 'INT_32', 'CHANNEL_DATA_TYPE_INT_32'] as const) {
      expect(channel({ name: 'n', type })).toEqual({
        name: 'n',
        dataType: 'CHANNEL_DATA_TYPE_INT_32',
      });
    }
  });

  test('bit fields are packed in order from bit 0 unless an index is given', () => {
    expect(channel({ name: 's', type: 'bit_field', bits: { ready: 1, mode: 3, code: 4 } })).toEqual(
      {
        name: 's',
        dataType: 'CHANNEL_DATA_TYPE_BIT_FIELD',
        bitFieldElements: [
          { name: 'ready', index: 0, bitCount: 1 },
          { name: 'mode', index: 1, bitCount: 3 },
          { name: 'code', index: 4, bitCount: 4 },
        ],
      },
    );
    expect(
      channel({
        name: 's',
        type: 'bit_field',
        bits: [
          { name: 'a', bitCount: 2, index: 8 },
          { name: 'b', bitCount: 2 },
        ],
      }).bitFieldElements,
    ).toEqual([
      { name: 'a', index: 8, bitCount: 2 },
      { name: 'b', index: 10, bitCount: 2 },
    ]);
  });

  test('metadata from a plain object gets the key type of each value', () => {
    expect(
      channel({ name: 'm', type: 'double', metadata: { car: 'c7', lap: 3, wet: false } }).metadata,
    ).toEqual([
      { key: { name: 'car', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'c7' },
      { key: { name: 'lap', type: 'METADATA_KEY_TYPE_NUMBER' }, numberValue: 3 },
      { key: { name: 'wet', type: 'METADATA_KEY_TYPE_BOOLEAN' }, booleanValue: false },
    ]);
  });

  test('overlapping bit fields are refused when the config is built', () => {
    const e = buildError(() =>
      csvConfig({
        time: { column: 1, format: 'absolute_rfc3339' },
        columns: {
          2: {
            name: 's',
            type: 'bit_field',
            bits: [
              { name: 'a', index: 0, bitCount: 4 },
              { name: 'b', index: 2, bitCount: 4 },
            ],
          },
        },
      }),
    );
    expect(codesAt(e).map(([code]) => code)).toEqual(['bit_field_elements_overlap']);
  });
});

describe('64-bit values', () => {
  test('bigint, number and string give the same decimal string', () => {
    const at = (numRows: bigint | number | string) =>
      csvConfig({ useEmbeddedConfig: true, numRows }).csvConfig.numRows;
    expect(at(12_345n)).toBe('12345');
    expect(at(12_345)).toBe('12345');
    expect(at('12345')).toBe('12345');
    expect(at(18_446_744_073_709_551_615n)).toBe('18446744073709551615');
  });

  test('a number past 2^53 is refused, it has already lost precision', () => {
    const e = buildError(() => csvConfig({ useEmbeddedConfig: true, numRows: 2 ** 60 }));
    expect(codesAt(e)).toEqual([['value_out_of_range', '/csvConfig/numRows']]);
    expect(e.issues[0]?.message).toContain('bigint');
  });

  test('values out of range are refused', () => {
    const e = buildError(() =>
      ulogConfig({ data: [{ messageName: 'm', fieldName: 'x', instance: 2n ** 63n }] }),
    );
    expect(codesAt(e)).toEqual([['value_out_of_range', '/ulogConfig/data/0/instance']]);
  });
});

describe('parquetConfig', () => {
  test('the footer offset comes from the file size and the footer length in the tail', async () => {
    const file = join(corpus, 'parquet-flat.parquet');
    const { size } = await stat(file);
    const handle = await open(file);
    const tail = Buffer.alloc(8);
    await handle.read(tail, 0, 8, size - 8);
    await handle.close();
    expect(tail.subarray(4).toString('latin1')).toBe('PAR1');
    const footerLength = tail.readUInt32LE(0);
    const doc = parquetConfig({
      asset: 'car',
      flat: {
        time: { path: 'timestamp', format: 'absolute_unix_microseconds' },
        columns: { speed: { type: 'double' }, rpm: { type: 'double' } },
      },
      footer: { fileSize: size, footerLength },
    });
    // The platform's own example gives this file footer 10798 / 2523.
    expect(doc.parquetConfig.footerOffset).toBe('10798');
    expect(doc.parquetConfig.footerLength).toBe(2523);
    expect(doc.parquetConfig.flatDataset?.dataColumns).toEqual([
      { path: 'speed', channelConfig: { name: 'speed', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' } },
      { path: 'rpm', channelConfig: { name: 'rpm', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' } },
    ]);
  });

  test('a file too small for its footer is refused', () => {
    const e = buildError(() =>
      parquetConfig({
        flat: { time: { path: 'ts', format: 'absolute_unix_nanoseconds' } },
        footer: { fileSize: 100n, footerLength: 95 },
      }),
    );
    expect(codesAt(e)).toEqual([['value_out_of_range', '/parquetConfig/footerOffset']]);
  });

  test('single-channel and multi-channel layouts', () => {
    expect(
      parquetConfig({
        singleChannel: {
          time: { path: 'timestamp', format: 'absolute_unix_nanoseconds' },
          dataPath: 'value',
          channel: { name: 'pressure', type: 'float', units: 'bar' },
        },
        complexTypesImportMode: 'string',
      }),
    ).toEqual({
      parquetConfig: {
        singleChannelPerRow: {
          timeColumn: { path: 'timestamp', format: 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS' },
          singleChannel: {
            dataPath: 'value',
            channel: { name: 'pressure', units: 'bar', dataType: 'CHANNEL_DATA_TYPE_FLOAT' },
          },
        },
        complexTypesImportMode: 'PARQUET_COMPLEX_TYPES_IMPORT_MODE_STRING',
      },
    });
    expect(
      parquetConfig({
        multiChannel: {
          time: { path: 'timestamp', format: 'absolute_unix_nanoseconds' },
          namePath: 'channel',
          dataPath: 'value',
        },
        footer: { footerOffset: '11496', footerLength: 2041 },
      }).parquetConfig,
    ).toEqual({
      singleChannelPerRow: {
        timeColumn: { path: 'timestamp', format: 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS' },
        multiChannel: { namePath: 'channel', dataPath: 'value' },
      },
      footerOffset: '11496',
      footerLength: 2041,
    });
  });

  test('a data column on the time path is refused', () => {
    const e = buildError(() =>
      parquetConfig({
        flat: {
          time: { path: 'ts', format: 'absolute_unix_nanoseconds' },
          columns: { ts: { type: 'int_64' } },
        },
      }),
    );
    expect(codesAt(e)).toEqual([
      ['data_column_is_time_column', '/parquetConfig/flatDataset/dataColumns/0/path'],
    ]);
  });
});

describe('the other kinds', () => {
  test('hdf5Config: the three layouts', () => {
    const doc = hdf5Config({
      asset: 'rig',
      time: { format: 'absolute_unix_nanoseconds' },
      data: [
        { timeDataset: '/timestamp', valueDataset: '/channel_0', channel: { type: 'double' } },
        { dataset: '/sensor_0', timeIndex: 0, valueIndex: 1n, channel: { type: 'double' } },
        {
          dataset: '/sensors',
          timeField: 'timestamp',
          valueField: 'voltage',
          channel: { type: 'double', units: 'V' },
        },
      ],
    });
    expect(doc.hdf5Config.data).toEqual([
      {
        timeDataset: '/timestamp',
        valueDataset: '/channel_0',
        channelConfig: { name: '/channel_0', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
      },
      {
        timeDataset: '/sensor_0',
        valueDataset: '/sensor_0',
        timeIndex: '0',
        valueIndex: '1',
        channelConfig: { name: '/sensor_0', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
      },
      {
        timeDataset: '/sensors',
        valueDataset: '/sensors',
        timeField: 'timestamp',
        valueField: 'voltage',
        channelConfig: {
          name: '/sensors.voltage',
          units: 'V',
          dataType: 'CHANNEL_DATA_TYPE_DOUBLE',
        },
      },
    ]);
    expect(doc.hdf5Config.timeFormat).toBe('TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS');
  });

  test('tdmsConfig and ch10Config', () => {
    expect(
      tdmsConfig({
        asset: 'rig',
        runId: 'run-42',
        importFileProperties: true,
        fallbackMethod: 'ignore_error',
        data: [
          {
            groupName: 'Measurements',
            channelName: 'current',
            timeChannelName: 'Timestamp',
            complexComponent: 'real',
            channel: { type: 'double', units: 'A' },
          },
        ],
      }),
    ).toEqual({
      tdmsConfig: {
        assetName: 'rig',
        runId: 'run-42',
        data: [
          {
            groupName: 'Measurements',
            channelName: 'current',
            channelConfig: { units: 'A', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' },
            timeChannelName: 'Timestamp',
            complexComponent: 'TDMS_COMPLEX_COMPONENT_REAL',
          },
        ],
        fallbackMethod: 'TDMS_FALLBACK_METHOD_IGNORE_ERROR',
        importFileProperties: true,
      },
    });
    expect(ch10Config({ asset: 'jet', run: 'sortie-4', scaleValues: true })).toEqual({
      ch10Config: { assetName: 'jet', runName: 'sortie-4', scaleValues: true },
    });
  });

  test('tdmsConfig: importFileProperties without a run is refused', () => {
    const e = buildError(() => tdmsConfig({ asset: 'rig', importFileProperties: true }));
    expect(codesAt(e).map(([code]) => code)).toEqual(['import_file_properties_without_run']);
  });

  test('batchConfig takes each file type from its config, and defaults by kind', () => {
    const doc = batchConfig({
      asset: 'car',
      run: 'day-2',
      defaults: [
        csvConfig({
          time: { column: 1, format: 'absolute_rfc3339' },
          columns: { 2: { name: 'speed', type: 'double' } },
        }),
      ],
      files: {
        'logs/a.csv': 'csv',
        'logs/b.parquet': parquetConfig({
          multiChannel: {
            time: { path: 't', format: 'absolute_unix_nanoseconds' },
            namePath: 'name',
            dataPath: 'value',
          },
        }),
        'logs/c.ulg': ulogConfig({ relativeStartTime: '2024-05-01T12:00:00Z' }),
      },
    });
    expect(doc).toEqual({
      batchConfig: {
        assetName: 'car',
        runName: 'day-2',
        defaultCsvConfig: {
          timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_RFC3339' },
          dataColumns: { '2': { name: 'speed', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' } },
        },
        fileConfigs: {
          'logs/a.csv': { type: 'DATA_TYPE_KEY_CSV' },
          'logs/b.parquet': {
            type: 'DATA_TYPE_KEY_PARQUET_SINGLE_CHANNEL_PER_ROW',
            parquetConfig: {
              singleChannelPerRow: {
                timeColumn: { path: 't', format: 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS' },
                multiChannel: { namePath: 'name', dataPath: 'value' },
              },
            },
          },
          'logs/c.ulg': {
            type: 'DATA_TYPE_KEY_ULOG',
            ulogConfig: { relativeStartTime: '2024-05-01T12:00:00Z' },
          },
        },
      },
    });
  });

  test('batchConfig: a file relying on a default that is missing is refused', () => {
    const e = buildError(() => batchConfig({ asset: 'car', files: { 'a.h5': 'hdf5' } }));
    expect(codesAt(e)).toEqual([['batch_config_missing', '/batchConfig/fileConfigs/a.h5']]);
  });

  test('batchConfig takes the parts of an inferred batch: defaults and fileConfigs', async () => {
    const draft = await inferBatch(join(repoRoot, 'fixtures', 'batch', 'campaign'));
    const inferred = draft.document.batchConfig ?? {};
    const { fileConfigs = {}, assetName: _asset, runName, runId, ...defaults } = inferred;
    expect(Object.keys(defaults)).toEqual(['defaultCsvConfig']);
    const doc = batchConfig({
      asset: 'car',
      run: 'day-2',
      defaults,
      files: { ...fileConfigs, 'more/extra.csv': 'csv' },
    });
    expect(doc).toEqual({
      batchConfig: {
        ...inferred,
        assetName: 'car',
        runName: 'day-2',
        fileConfigs: { ...fileConfigs, 'more/extra.csv': { type: 'DATA_TYPE_KEY_CSV' } },
      },
    });
    expect(runName).toBeUndefined();
    expect(runId).toBeUndefined();
  });

  test('batchConfig: defaults given as fields take only default*Config keys', () => {
    const e = buildError(() =>
      batchConfig({ defaults: { defaultCsvConfg: {} } as never, files: { 'a.csv': 'csv' } }),
    );
    expect(codesAt(e)).toEqual([['unknown_key', '/defaults/defaultCsvConfg']]);
    expect(e.message).toContain('Did you mean `defaultCsvConfig`?');
  });

  test('fromUrl puts the address beside the config', () => {
    const doc = fromUrl('s3://bucket/run.ulg', ulogConfig({ asset: 'drone' }));
    expect(doc).toEqual({ url: 's3://bucket/run.ulg', ulogConfig: { assetName: 'drone' } });
  });
});
