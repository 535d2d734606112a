import { describe, expectTypeOf, test } from 'vitest';
import {
  batchConfig,
  type CsvDocument,
  channel,
  csvConfig,
  type DataTypeName,
  hdf5Config,
  parquetConfig,
  type TimeFormatName,
} from '../../src/build/index.js';
import type { ChannelConfig, ImportDocument } from '../../src/model/index.js';

describe('builder types', () => {
  test('short names are closed unions', () => {
    expectTypeOf<'double'>().toExtend<DataTypeName>();
    expectTypeOf<'DOUBLE'>().toExtend<DataTypeName>();
    expectTypeOf<'CHANNEL_DATA_TYPE_DOUBLE'>().toExtend<DataTypeName>();
    expectTypeOf<'doubel'>().not.toExtend<DataTypeName>();
    expectTypeOf<'unspecified'>().not.toExtend<DataTypeName>();
    expectTypeOf<'absolute_unix_nanoseconds'>().toExtend<TimeFormatName>();
  });

  test('builders return documents', () => {
    expectTypeOf(csvConfig).returns.toEqualTypeOf<CsvDocument>();
    expectTypeOf<CsvDocument>().toExtend<ImportDocument>();
    expectTypeOf(channel).returns.toEqualTypeOf<ChannelConfig>();
  });

  test('mistakes fail to compile', () => {
    // @ts-expect-error a misspelled type
    channel({ name: 'a', type: 'doubel' });
    // @ts-expect-error an ENUM channel needs its values
    channel({ name: 'a', type: 'enum' });
    // @ts-expect-error values belong to ENUM channels only
    channel({ name: 'a', type: 'double', values: { 0: 'off' } });
    // @ts-expect-error bits belong to BIT_FIELD channels only
    channel({ name: 'a', type: 'int_32', bits: { a: 1 } });
    const columns = { 2: { name: 'a', type: 'double' } } as const;
    const time = { column: 1, format: 'absolute_rfc3339' } as const;
    // @ts-expect-error a run name and a run id together
    csvConfig({ time, columns, run: 'r', runId: 'id' });
    csvConfig({
      // @ts-expect-error a relative format needs its start
      time: { column: 1, format: 'relative_seconds' },
      columns: { 2: { name: 'a', type: 'double' } },
    });
    csvConfig({
      // @ts-expect-error an absolute format has no start
      time: { column: 1, format: 'absolute_rfc3339', start: '2024-01-01T00:00:00Z' },
      columns: { 2: { name: 'a', type: 'double' } },
    });
    // @ts-expect-error columns are needed unless the file's embedded config is used
    csvConfig({ time: { column: 1, format: 'absolute_rfc3339' } });
    // @ts-expect-error exactly one Parquet layout
    parquetConfig({
      flat: { time: { path: 't', format: 'absolute_unix_seconds' } },
      multiChannel: {
        time: { path: 't', format: 'absolute_unix_seconds' },
        namePath: 'n',
        dataPath: 'v',
      },
    });
    const flat = { time: { path: 't', format: 'absolute_unix_seconds' } } as const;
    // @ts-expect-error a footer from an offset or from a file size, not both
    parquetConfig({ flat, footer: { footerOffset: 1, fileSize: 9, footerLength: 2 } });
    // @ts-expect-error a misspelled file type
    batchConfig({ files: { 'a.csv': 'cvs' } });
    batchConfig({ files: { 'a.csv': 'csv', 'b.parquet': parquetConfig({ flat }) } });
    // @ts-expect-error HDF5 needs the time format
    hdf5Config({ data: [{ timeDataset: '/t', valueDataset: '/v' }] });
  });
});
