import { describe, expectTypeOf, test } from 'vitest';
import {
  batchConfig,
  type CsvColumnsDocument,
  type CsvDocument,
  channel,
  csvConfig,
  type DataTypeName,
  hdf5Config,
  parquetConfig,
  type TimeFormatName,
} from '../../src/build/index.js';
import type {
  ChannelConfig,
  CsvTimeColumn,
  ImportDocument,
  TimeFormat,
} from '../../src/model/index.js';

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
    const time = { column: 1, format: 'absolute_rfc3339' } as const;
    const built = csvConfig({ time, columns: { 2: { name: 'a', type: 'double' } } });
    expectTypeOf(built).toEqualTypeOf<CsvColumnsDocument>();
    expectTypeOf(built).toExtend<CsvDocument>();
    expectTypeOf(csvConfig({ useEmbeddedConfig: true })).toEqualTypeOf<CsvDocument>();
    expectTypeOf<CsvColumnsDocument>().toExtend<ImportDocument>();
    expectTypeOf<CsvDocument>().toExtend<ImportDocument>();
    expectTypeOf(channel).returns.toEqualTypeOf<ChannelConfig>();
  });

  test('given time and columns, the built config has them (no undefined to rule out)', () => {
    const built = csvConfig({
      time: { column: 1, format: 'absolute_rfc3339' },
      columns: { 2: { name: 'a', type: 'double' } },
    });
    expectTypeOf(built.csvConfig.timeColumn).toExtend<CsvTimeColumn>();
    expectTypeOf(built.csvConfig.timeColumn.columnNumber).toEqualTypeOf<number>();
    expectTypeOf(built.csvConfig.timeColumn.format).toEqualTypeOf<TimeFormat>();
    expectTypeOf(built.csvConfig.dataColumns).toEqualTypeOf<Record<string, ChannelConfig>>();
    // From the embedded config, the file names them: they may be absent.
    const embedded = csvConfig({ useEmbeddedConfig: true });
    expectTypeOf(embedded.csvConfig.timeColumn).toEqualTypeOf<CsvTimeColumn | undefined>();
  });

  test('a misspelled key is reported on that key, not on another one', () => {
    csvConfig({
      time: { column: 1, format: 'absolute_rfc3339' },
      // @ts-expect-error `colums` is not a key (the error is on this line, not on `format`)
      colums: { 2: { name: 'a', type: 'double' } },
    });
    csvConfig({
      time: { column: 1, format: 'absolute_rfc3339' },
      columns: { 2: { name: 'a', type: 'double' } },
      // @ts-expect-error `firstDataRows` is not a key
      firstDataRows: 2,
    });
    // @ts-expect-error `useEmbeddedConfig: true` takes no columns
    csvConfig({ useEmbeddedConfig: true, columns: { 2: { name: 'a', type: 'double' } } });
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
