/**
 * Builders on arbitrary inputs: each valid canonical config from the arbitraries is
 * written back as builder input (enum names spelled in any accepted way, 64-bit values as
 * bigint, number or string, Parquet footers from a file size), and building it must give
 * the same canonical config, which validates with no issue.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  type BatchConfigInput,
  batchConfig,
  type CsvConfigInput,
  ch10Config,
  channel,
  csvConfig,
  type Hdf5ConfigInput,
  hdf5Config,
  type ParquetConfigInput,
  parquetConfig,
  type TdmsConfigInput,
  tdmsConfig,
  type UlogConfigInput,
  ulogConfig,
} from '../../src/build/index.js';
import type {
  BatchConfig,
  ChannelConfig,
  CsvConfig,
  Hdf5Config,
  ParquetConfig,
  ParquetSingleChannelPerRow,
  ParquetTimeColumn,
  TdmsConfig,
  TimeFormat,
  UlogConfig,
} from '../../src/model/index.js';
import { validateConfig } from '../../src/validate/index.js';
import {
  arbBatchConfig,
  arbCh10Config,
  arbChannelConfig,
  arbCsvConfig,
  arbHdf5Config,
  arbParquetConfig,
  arbTdmsConfig,
  arbUlogConfig,
} from '../helpers/arbitraries.js';

type Spelling = 'full' | 'short' | 'lower';
const arbSpelling = fc.constantFrom<Spelling>('full', 'short', 'lower');
type Int64Form = 'bigint' | 'number' | 'string';
const arbInt64Form = fc.constantFrom<Int64Form>('bigint', 'number', 'string');

interface Style {
  spelling: Spelling;
  int64: Int64Form;
  fromFileSize: boolean;
}
const arbStyle: fc.Arbitrary<Style> = fc.record({
  spelling: arbSpelling,
  int64: arbInt64Form,
  fromFileSize: fc.boolean(),
});

/** An enum value spelled the way the style says (`CHANNEL_DATA_TYPE_INT_32`, `INT_32`, `int_32`). */
function spell<T extends string>(full: string, prefix: string, s: Style): T {
  const short = full.slice(prefix.length);
  return (s.spelling === 'full' ? full : s.spelling === 'short' ? short : short.toLowerCase()) as T;
}

/** A decimal string as a bigint, a number (when exact) or a string. */
function int64(value: string, s: Style): bigint | number | string {
  if (s.int64 === 'bigint') return BigInt(value);
  if (s.int64 === 'number' && Number.isSafeInteger(Number(value))) return Number(value);
  return value;
}

function run(c: {
  assetName?: string | undefined;
  runName?: string | undefined;
  runId?: string | undefined;
}) {
  const out: { asset?: string; run?: string; runId?: string } = {};
  if (c.assetName !== undefined) out.asset = c.assetName;
  if (c.runName !== undefined) out.run = c.runName;
  if (c.runId !== undefined) out.runId = c.runId;
  return out;
}

function time(
  t: { format?: TimeFormat | undefined; relativeStartTime?: string | undefined },
  s: Style,
) {
  const out: { format: string; start?: string } = {
    format: spell(t.format ?? 'TIME_FORMAT_ABSOLUTE_RFC3339', 'TIME_FORMAT_', s),
  };
  if (t.relativeStartTime !== undefined) out.start = t.relativeStartTime;
  return out;
}

function channelInput(c: ChannelConfig, s: Style) {
  const out: Record<string, unknown> = {
    type: spell(c.dataType ?? 'CHANNEL_DATA_TYPE_DOUBLE', 'CHANNEL_DATA_TYPE_', s),
  };
  if (c.name !== undefined) out.name = c.name;
  if (c.units !== undefined) out.units = c.units;
  if (c.description !== undefined) out.description = c.description;
  if (c.enumTypes !== undefined) out.values = c.enumTypes;
  if (c.bitFieldElements !== undefined) out.bits = c.bitFieldElements;
  if (c.metadata !== undefined) out.metadata = c.metadata;
  return out;
}

function csvInput(c: CsvConfig, s: Style): CsvConfigInput {
  const out: Record<string, unknown> = run(c);
  if (c.firstDataRow !== undefined) out.firstDataRow = c.firstDataRow;
  if (c.timeColumn !== undefined) {
    out.time = { column: c.timeColumn.columnNumber, ...time(c.timeColumn, s) };
  }
  if (c.dataColumns !== undefined) {
    out.columns = Object.fromEntries(
      Object.entries(c.dataColumns).map(([k, ch]) => [Number(k), channelInput(ch, s)]),
    );
  }
  if (c.numRows !== undefined) out.numRows = int64(c.numRows, s);
  if (c.useEmbeddedConfig !== undefined) out.useEmbeddedConfig = c.useEmbeddedConfig;
  return out as unknown as CsvConfigInput;
}

function parquetTime(t: ParquetTimeColumn | undefined, s: Style) {
  return { path: t?.path, ...time(t ?? {}, s) };
}

function perRowColumns(r: ParquetSingleChannelPerRow, s: Style) {
  return r.columns?.map((c) => ({ path: c.path, ...channelInput(c.columnConfig ?? {}, s) }));
}

function parquetInput(c: ParquetConfig, s: Style): ParquetConfigInput {
  const out: Record<string, unknown> = run(c);
  const flat = c.flatDataset;
  if (flat !== undefined) {
    const f: Record<string, unknown> = { time: parquetTime(flat.timeColumn, s) };
    if (flat.dataColumns !== undefined) {
      f.columns = flat.dataColumns.map((d) => ({
        path: d.path,
        ...channelInput(d.channelConfig ?? {}, s),
      }));
    }
    if (flat.useEmbeddedConfig !== undefined) f.useEmbeddedConfig = flat.useEmbeddedConfig;
    out.flat = f;
  }
  const row = c.singleChannelPerRow;
  if (row?.singleChannel !== undefined) {
    const r: Record<string, unknown> = {
      time: parquetTime(row.timeColumn, s),
      dataPath: row.singleChannel.dataPath,
      channel: channelInput(row.singleChannel.channel ?? {}, s),
    };
    if (row.columns !== undefined) r.columns = perRowColumns(row, s);
    out.singleChannel = r;
  }
  if (row?.multiChannel !== undefined) {
    const r: Record<string, unknown> = {
      time: parquetTime(row.timeColumn, s),
      namePath: row.multiChannel.namePath,
      dataPath: row.multiChannel.dataPath,
    };
    if (row.columns !== undefined) r.columns = perRowColumns(row, s);
    out.multiChannel = r;
  }
  if (c.footerOffset !== undefined && c.footerLength !== undefined) {
    const size = BigInt(c.footerOffset) + BigInt(c.footerLength) + 8n;
    out.footer = s.fromFileSize
      ? { fileSize: int64(size.toString(), s), footerLength: c.footerLength }
      : { footerOffset: int64(c.footerOffset, s), footerLength: c.footerLength };
  }
  if (c.complexTypesImportMode !== undefined) {
    out.complexTypesImportMode = spell(
      c.complexTypesImportMode,
      'PARQUET_COMPLEX_TYPES_IMPORT_MODE_',
      s,
    );
  }
  return out as unknown as ParquetConfigInput;
}

function hdf5Input(c: Hdf5Config, s: Style): Hdf5ConfigInput {
  const out: Record<string, unknown> = run(c);
  out.time = time({ format: c.timeFormat, ...pick(c, 'relativeStartTime') }, s);
  out.data = (c.data ?? []).map((d) => {
    const e: Record<string, unknown> = { timeDataset: d.timeDataset, valueDataset: d.valueDataset };
    if (d.timeIndex !== undefined) e.timeIndex = int64(d.timeIndex, s);
    if (d.valueIndex !== undefined) e.valueIndex = int64(d.valueIndex, s);
    if (d.timeField !== undefined) e.timeField = d.timeField;
    if (d.valueField !== undefined) e.valueField = d.valueField;
    if (d.channelConfig !== undefined) e.channel = channelInput(d.channelConfig, s);
    return e;
  });
  return out as unknown as Hdf5ConfigInput;
}

function pick<T extends object, K extends keyof T>(o: T, k: K): Partial<Pick<T, K>> {
  return o[k] === undefined ? {} : ({ [k]: o[k] } as Pick<T, K>);
}

function tdmsInput(c: TdmsConfig, s: Style): TdmsConfigInput {
  const out: Record<string, unknown> = run(c);
  if (c.startTimeOverride !== undefined) out.startTimeOverride = c.startTimeOverride;
  if (c.fileSize !== undefined) out.fileSize = int64(c.fileSize, s);
  if (c.data !== undefined) {
    out.data = c.data.map((d) => {
      const e: Record<string, unknown> = { groupName: d.groupName, channelName: d.channelName };
      if (d.channelConfig !== undefined) e.channel = channelInput(d.channelConfig, s);
      if (d.timeChannelName !== undefined) e.timeChannelName = d.timeChannelName;
      if (d.scaled !== undefined) e.scaled = d.scaled;
      if (d.complexComponent !== undefined) {
        e.complexComponent = spell(d.complexComponent, 'TDMS_COMPLEX_COMPONENT_', s);
      }
      return e;
    });
  }
  if (c.fallbackMethod !== undefined) {
    out.fallbackMethod = spell(c.fallbackMethod, 'TDMS_FALLBACK_METHOD_', s);
  }
  if (c.timeFormat !== undefined) {
    out.time = time({ format: c.timeFormat, ...pick(c, 'relativeStartTime') }, s);
  }
  if (c.importFileProperties !== undefined) out.importFileProperties = c.importFileProperties;
  return out as unknown as TdmsConfigInput;
}

function ulogInput(c: UlogConfig, s: Style): UlogConfigInput {
  const out: Record<string, unknown> = run(c);
  if (c.data !== undefined) {
    out.data = c.data.map((d) => {
      const e: Record<string, unknown> = { messageName: d.messageName };
      if (d.instance !== undefined) e.instance = int64(d.instance, s);
      if (d.fieldName !== undefined) e.fieldName = d.fieldName;
      if (d.channelConfig !== undefined) e.channel = channelInput(d.channelConfig, s);
      return e;
    });
  }
  if (c.relativeStartTime !== undefined) out.relativeStartTime = c.relativeStartTime;
  if (c.infoKeys !== undefined) out.infoKeys = c.infoKeys;
  if (c.paramKeys !== undefined) out.paramKeys = c.paramKeys;
  if (c.parseErrorPolicy !== undefined) {
    out.parseErrorPolicy = spell(c.parseErrorPolicy, 'ULOG_PARSE_ERROR_POLICY_', s);
  }
  return out as unknown as UlogConfigInput;
}

function batchInput(c: BatchConfig, s: Style): BatchConfigInput {
  const out: Record<string, unknown> = run(c);
  const defaults: unknown[] = [];
  for (const [key, doc] of [
    ['csvConfig', c.defaultCsvConfig],
    ['tdmsConfig', c.defaultTdmsConfig],
    ['parquetConfig', c.defaultParquetConfig],
    ['hdf5Config', c.defaultHdf5Config],
    ['ulogConfig', c.defaultUlogConfig],
  ] as const) {
    if (doc !== undefined) defaults.push({ [key]: doc });
  }
  if (defaults.length > 0) out.defaults = defaults;
  out.files = Object.fromEntries(
    Object.entries(c.fileConfigs ?? {}).map(([path, { type, ...config }]) => [
      path,
      Object.keys(config).length > 0 ? config : spell(type, 'DATA_TYPE_KEY_', s),
    ]),
  );
  return out as unknown as BatchConfigInput;
}

const RUNS = 40;

describe('builders on arbitrary input give back the canonical config', () => {
  test('channel', () => {
    fc.assert(
      fc.property(arbChannelConfig, arbStyle, (c, s) => {
        expect(channel(channelInput(c, s) as unknown as Parameters<typeof channel>[0])).toEqual(c);
      }),
      { numRuns: 100 },
    );
  });

  const cases = [
    ['csvConfig', arbCsvConfig, (c: CsvConfig, s: Style) => csvConfig(csvInput(c, s))],
    [
      'parquetConfig',
      arbParquetConfig,
      (c: ParquetConfig, s: Style) => parquetConfig(parquetInput(c, s)),
    ],
    ['hdf5Config', arbHdf5Config, (c: Hdf5Config, s: Style) => hdf5Config(hdf5Input(c, s))],
    ['tdmsConfig', arbTdmsConfig, (c: TdmsConfig, s: Style) => tdmsConfig(tdmsInput(c, s))],
    ['ulogConfig', arbUlogConfig, (c: UlogConfig, s: Style) => ulogConfig(ulogInput(c, s))],
    ['batchConfig', arbBatchConfig, (c: BatchConfig, s: Style) => batchConfig(batchInput(c, s))],
    [
      'ch10Config',
      arbCh10Config,
      (c: { assetName?: string; runName?: string; scaleValues?: boolean }) =>
        ch10Config({
          ...run(c),
          ...(c.scaleValues === undefined ? {} : { scaleValues: c.scaleValues }),
        }),
    ],
  ] as const;

  for (const [key, arb, build] of cases) {
    test(key, () => {
      fc.assert(
        fc.property(arb as fc.Arbitrary<never>, arbStyle, (config, style) => {
          const doc = (build as (c: never, s: Style) => Record<string, unknown>)(config, style);
          expect(doc).toEqual({ [key]: config });
          expect(validateConfig(doc).issues).toEqual([]);
        }),
        { numRuns: RUNS },
      );
    });
  }
});
