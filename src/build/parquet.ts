import type {
  ChannelConfig,
  ParquetColumn,
  ParquetConfig,
  ParquetDataColumn,
  ParquetFlatDataset,
  ParquetSingleChannelPerRow,
  ParquetTimeColumn,
} from '../model/index.js';
import {
  fail,
  finish,
  type Int64Input,
  int64,
  knownKeys,
  put,
  RUN_KEYS,
  type RunInput,
  runFields,
  TIME_KEYS,
  type TimeSpec,
  timeFields,
} from './_common.js';
import { type ComplexTypesImportModeName, complexTypesImportMode } from './_names.js';
import { type ChannelInput, type ColumnChannelInput, channelOf } from './channel.js';

/** The time column: its path, its format, and the start of a relative format. */
export type ParquetTimeInput = { path: string } & TimeSpec;

/**
 * Columns by path, `{ speed: { type: 'double', units: 'm/s' } }` (the channel name
 * defaults to the path), or a list of `{ path, ...channel }`.
 */
export type ParquetColumnsInput =
  | Readonly<Record<string, ColumnChannelInput>>
  | ReadonlyArray<{ path: string } & ColumnChannelInput>;

/** One row per time, one column per channel. */
export interface FlatInput {
  time: ParquetTimeInput;
  columns?: ParquetColumnsInput;
  /** Take channel configs from the file's Arrow field metadata. */
  useEmbeddedConfig?: boolean;
}

/** One channel per row, the whole file being one channel. */
export interface SingleChannelInput {
  time: ParquetTimeInput;
  dataPath: string;
  channel: ChannelInput;
  columns?: ParquetColumnsInput;
}

/** One channel per row: one column holds the channel's name, another its value. */
export interface MultiChannelInput {
  time: ParquetTimeInput;
  namePath: string;
  dataPath: string;
  columns?: ParquetColumnsInput;
}

/**
 * Where the file's footer metadata is: as the platform wants it, or from the file's size
 * and the footer length read from the 4 bytes before the trailing `PAR1`
 * (footerOffset = fileSize - footerLength - 8).
 */
export type FooterInput =
  | { footerOffset: Int64Input; footerLength: number; fileSize?: never }
  | { fileSize: Int64Input; footerLength: number; footerOffset?: never };

type LayoutInput =
  | { flat: FlatInput; singleChannel?: never; multiChannel?: never }
  | { singleChannel: SingleChannelInput; flat?: never; multiChannel?: never }
  | { multiChannel: MultiChannelInput; flat?: never; singleChannel?: never };

export type ParquetConfigInput = RunInput &
  LayoutInput & {
    footer?: FooterInput;
    complexTypesImportMode?: ComplexTypesImportModeName;
  };

export type ParquetDocument = { parquetConfig: ParquetConfig };

const BUILDER = 'parquetConfig()';

function channelAt(path: string, spec: ColumnChannelInput, at: string): ChannelConfig {
  return channelOf(BUILDER, { ...spec, name: spec.name ?? path }, at);
}

function columnList(columns: ParquetColumnsInput, at: string): Array<[string, ChannelConfig]> {
  if (Array.isArray(columns)) {
    return columns.map((c: { path: string } & ColumnChannelInput, i) => {
      const { path, ...spec } = c;
      return [path, channelAt(path, spec as ColumnChannelInput, `${at}/columns/${i}`)];
    });
  }
  return Object.entries(columns as Record<string, ColumnChannelInput>).map(([path, spec]) => [
    path,
    channelAt(path, spec, `${at}/columns/${path.replace(/~/g, '~0').replace(/\//g, '~1')}`),
  ]);
}

function timeColumn(t: ParquetTimeInput, at: string): ParquetTimeColumn {
  knownKeys(BUILDER, t, ['path', ...TIME_KEYS], `${at}/time`);
  return { path: t.path, ...timeFields(t) };
}

function flatDataset(f: FlatInput): ParquetFlatDataset {
  knownKeys(BUILDER, f, ['time', 'columns', 'useEmbeddedConfig'], '/flat');
  const out: ParquetFlatDataset = { timeColumn: timeColumn(f.time, '/flat') };
  if (f.columns !== undefined) {
    out.dataColumns = columnList(f.columns, '/flat').map(
      ([path, channelConfig]): ParquetDataColumn => ({ path, channelConfig }),
    );
  }
  put(out, 'useEmbeddedConfig', f.useEmbeddedConfig);
  return out;
}

function perRow(
  r: { time: ParquetTimeInput; columns?: ParquetColumnsInput },
  at: string,
  keys: readonly string[],
): ParquetSingleChannelPerRow {
  knownKeys(BUILDER, r, ['time', 'columns', ...keys], at);
  const out: ParquetSingleChannelPerRow = { timeColumn: timeColumn(r.time, at) };
  if (r.columns !== undefined) {
    out.columns = columnList(r.columns, at).map(
      ([path, columnConfig]): ParquetColumn => ({ path, columnConfig }),
    );
  }
  return out;
}

function footerFields(f: FooterInput): { footerOffset: string; footerLength: number } {
  knownKeys(BUILDER, f, ['footerOffset', 'footerLength', 'fileSize'], '/footer');
  if (f.fileSize !== undefined) {
    const size = BigInt(int64(BUILDER, '/parquetConfig/footerOffset', f.fileSize));
    const offset = size - BigInt(f.footerLength) - 8n;
    if (offset < 0n) {
      fail(
        BUILDER,
        'value_out_of_range',
        '/parquetConfig/footerOffset',
        `a file of ${size} bytes cannot hold a footer of ${f.footerLength} bytes and its 8-byte tail`,
      );
    }
    return { footerOffset: offset.toString(), footerLength: f.footerLength };
  }
  return {
    footerOffset: int64(BUILDER, '/parquetConfig/footerOffset', f.footerOffset),
    footerLength: f.footerLength,
  };
}

/**
 * A Parquet import config with exactly one layout: `flat`, `singleChannel` or
 * `multiChannel`. `parquetConfig({ asset: 'car', flat: { time: { path: 'timestamp', format:
 * 'absolute_unix_microseconds' }, columns: { speed: { type: 'double' } } } })`.
 */
export function parquetConfig(input: ParquetConfigInput): ParquetDocument {
  knownKeys(BUILDER, input, [
    ...RUN_KEYS,
    'flat',
    'singleChannel',
    'multiChannel',
    'footer',
    'complexTypesImportMode',
  ]);
  const out: ParquetConfig = runFields(input);
  if (input.flat !== undefined) out.flatDataset = flatDataset(input.flat);
  if (input.singleChannel !== undefined) {
    const s = input.singleChannel;
    out.singleChannelPerRow = {
      ...perRow(s, '/singleChannel', ['dataPath', 'channel']),
      singleChannel: {
        dataPath: s.dataPath,
        channel: channelOf(BUILDER, s.channel, '/singleChannel/channel'),
      },
    };
  }
  if (input.multiChannel !== undefined) {
    const m = input.multiChannel;
    out.singleChannelPerRow = {
      ...perRow(m, '/multiChannel', ['namePath', 'dataPath']),
      multiChannel: { namePath: m.namePath, dataPath: m.dataPath },
    };
  }
  if (input.footer !== undefined) Object.assign(out, footerFields(input.footer));
  if (input.complexTypesImportMode !== undefined) {
    out.complexTypesImportMode = complexTypesImportMode(input.complexTypesImportMode);
  }
  return finish('parquet', { parquetConfig: out });
}
