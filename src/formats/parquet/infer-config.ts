/**
 * The parts of a Parquet draft config, each with its evidence: the asset and run, the
 * layout's block (flatDataset or singleChannelPerRow) with a channel per value column, the
 * footer and the complex-types mode.
 */

import type { InferOptions } from '../../infer/shared.js';
import {
  type ChannelConfig,
  PARQUET_COMPLEX_TYPES_IMPORT_MODE_VALUES,
  type ParquetColumn,
  type ParquetComplexTypesImportMode,
  type ParquetConfig,
  type ParquetTimeColumn,
} from '../../model/index.js';
import { enumName } from '../../model/plain.js';
import { parquetChannelTypeOf } from './channel-types.js';
import { type Findings, P } from './infer-findings.js';
import {
  type ChannelNames,
  type LayoutChoice,
  multiChannelReason,
  VALUE_COLUMN,
} from './infer-layout.js';
import type { ParquetFieldProfile, ParquetProfile } from './profile.js';

function channelOf(f: ParquetFieldProfile, name = f.name): ChannelConfig {
  const { dataType } = parquetChannelTypeOf(f);
  return {
    name,
    ...(f.units ? { units: f.units } : {}),
    ...(f.description ? { description: f.description } : {}),
    dataType,
  };
}

/** The complex-types mode: the one given, else BOTH when the file has nested columns. */
export function chooseComplexMode(
  options: InferOptions,
  complex: ParquetFieldProfile[],
  out: Findings,
): ParquetComplexTypesImportMode | undefined {
  let mode: ParquetComplexTypesImportMode | undefined;
  if (options.complexTypes !== undefined) {
    mode = enumName(
      options.complexTypes,
      'PARQUET_COMPLEX_TYPES_IMPORT_MODE_',
      PARQUET_COMPLEX_TYPES_IMPORT_MODE_VALUES,
    );
    if (!mode) {
      out.issue(
        'parquet_option_invalid',
        P,
        `\`complexTypes\` ${options.complexTypes}: not one of IGNORE, BOTH, STRING, BYTES`,
      );
    }
  }
  if (!mode && complex.length > 0) mode = 'PARQUET_COMPLEX_TYPES_IMPORT_MODE_BOTH';
  return mode;
}

/** The asset (given, else the file's base name) and the run, when given. */
export function assetAndRun(options: InferOptions, base: string, out: Findings): ParquetConfig {
  const config: ParquetConfig = {
    assetName: options.assetName ?? base,
    ...(options.runName ? { runName: options.runName } : {}),
  };
  out.evidence.push({
    path: `${P}/assetName`,
    choice: config.assetName ?? '',
    reason: options.assetName ? 'given as an option' : "default: the file's base name",
    confidence: options.assetName ? 'high' : 'low',
  });
  return config;
}

/** A value column's type, with its evidence, and what the mapping loses. */
function channelFor(f: ParquetFieldProfile, typePath: string, columnPath: string, out: Findings) {
  out.evidence.push({
    path: typePath,
    choice: parquetChannelTypeOf(f).dataType,
    reason: `Parquet ${f.physicalType}${f.logicalType ? ` ${f.logicalType}` : ''}${f.units ? `; units ${f.units} from Arrow field metadata` : ''}`,
    confidence: 'high',
  });
  if (columnPath !== '') dataColumnIssues(f, columnPath, out);
}

function dataColumnIssues(f: ParquetFieldProfile, path: string, out: Findings) {
  const { note } = parquetChannelTypeOf(f);
  if (note === 'decimal') {
    out.issue(
      'parquet_decimal_as_double',
      path,
      `${f.name} is ${f.logicalType ?? 'DECIMAL'}: imported as DOUBLE, exact only to 15-16 significant digits`,
    );
  } else if (note === 'temporal') {
    out.issue(
      'parquet_temporal_as_int64',
      path,
      `${f.name} is ${f.logicalType ?? f.physicalType} and not the time column: imported as INT_64 of its stored value`,
    );
  }
}

/** flatDataset: the time and one data column per channel. Returns the layout's path. */
export function buildFlat(
  config: ParquetConfig,
  data: ParquetFieldProfile[],
  timeColumn: ParquetTimeColumn | undefined,
  embedded: ParquetFieldProfile[],
  out: Findings,
): string {
  const layoutPath = `${P}/flatDataset`;
  const useEmbedded = embedded.length > 0;
  config.flatDataset = {
    ...(timeColumn ? { timeColumn } : {}),
    dataColumns: data.map((f) => ({ path: f.name, channelConfig: channelOf(f) })),
    ...(useEmbedded ? { useEmbeddedConfig: true } : {}),
  };
  data.forEach((f, i) => {
    const path = `${layoutPath}/dataColumns/${i}`;
    channelFor(f, `${path}/channelConfig/dataType`, path, out);
  });
  if (data.length === 0) {
    out.issue(
      'parquet_no_data_columns',
      `${layoutPath}/dataColumns`,
      'no column besides the time can be a channel',
    );
  }
  if (useEmbedded) {
    const names = embedded.map((f) => f.name).join(', ');
    out.issue(
      'parquet_embedded_config',
      `${layoutPath}/useEmbeddedConfig`,
      `Arrow field metadata of ${names} carries channel configs: useEmbeddedConfig is set`,
    );
    out.evidence.push({
      path: `${layoutPath}/useEmbeddedConfig`,
      choice: 'true',
      reason: `channel configs in the Arrow field metadata of ${names}`,
      confidence: 'medium',
    });
  }
  return layoutPath;
}

interface RowsPlan {
  profile: ParquetProfile;
  data: ParquetFieldProfile[];
  timeColumn: ParquetTimeColumn | undefined;
  layout: LayoutChoice;
  names: ChannelNames | undefined;
  base: string;
}

/** singleChannelPerRow: long form (multiChannel) or one channel, the rest as columns. */
export function buildSingleChannelPerRow(
  config: ParquetConfig,
  plan: RowsPlan,
  out: Findings,
): string {
  const layoutPath = `${P}/singleChannelPerRow`;
  const { data, timeColumn, layout } = plan;
  const used = new Set<ParquetFieldProfile>();
  const scpr: NonNullable<ParquetConfig['singleChannelPerRow']> = {
    ...(timeColumn ? { timeColumn } : {}),
  };
  const { nameCol, valueCol, single } = layout;
  if (layout.layout === 'multi-channel' && nameCol && valueCol) {
    used.add(nameCol).add(valueCol);
    scpr.multiChannel = { namePath: nameCol.name, dataPath: valueCol.name };
    out.evidence.push({
      path: `${layoutPath}/multiChannel`,
      choice: `namePath ${nameCol.name}, dataPath ${valueCol.name}`,
      reason: multiChannelReason(plan.profile, nameCol, valueCol, plan.names),
      confidence: layout.confidence,
    });
    channelFor(valueCol, `${layoutPath}/multiChannel/dataPath`, '', out);
  } else if (single) {
    used.add(single);
    const generic = VALUE_COLUMN.test(single.name);
    const name = generic ? plan.base : single.name;
    scpr.singleChannel = { dataPath: single.name, channel: channelOf(single, name) };
    out.evidence.push({
      path: `${layoutPath}/singleChannel/channel/name`,
      choice: name,
      reason: generic
        ? `the value column's name (${single.name}) names no channel: the file's base name`
        : 'the value column name',
      confidence: 'low',
    });
    channelFor(
      single,
      `${layoutPath}/singleChannel/channel/dataType`,
      `${layoutPath}/singleChannel`,
      out,
    );
  }
  const others = data.filter((f) => !used.has(f));
  if (others.length > 0) {
    scpr.columns = others.map((f): ParquetColumn => ({ path: f.name, columnConfig: channelOf(f) }));
    others.forEach((f, i) => {
      const path = `${layoutPath}/columns/${i}`;
      channelFor(f, `${path}/columnConfig/dataType`, path, out);
    });
  }
  // Keys in the model's order (the order `fmt` writes): timeColumn, columns, then the channel.
  const { singleChannel, multiChannel, ...head } = scpr;
  config.singleChannelPerRow = {
    ...head,
    ...(singleChannel ? { singleChannel } : {}),
    ...(multiChannel ? { multiChannel } : {}),
  };
  return layoutPath;
}

export function footerOf(config: ParquetConfig, profile: ParquetProfile, out: Findings) {
  config.footerOffset = profile.footerOffset;
  config.footerLength = profile.footerLength;
  out.evidence.push({
    path: `${P}/footerOffset`,
    choice: `${profile.footerOffset} (length ${profile.footerLength})`,
    reason: `file size ${profile.file.size} - footer length ${profile.footerLength} - 8`,
    confidence: 'high',
  });
}

export function complexTypesOf(
  config: ParquetConfig,
  mode: ParquetComplexTypesImportMode | undefined,
  complex: ParquetFieldProfile[],
  options: InferOptions,
  out: Findings,
) {
  if (mode) {
    config.complexTypesImportMode = mode;
    out.evidence.push({
      path: `${P}/complexTypesImportMode`,
      choice: mode,
      reason:
        options.complexTypes !== undefined
          ? 'given as an option (`complexTypes`)'
          : 'default for nested columns: both the Arrow bytes and the JSON text',
      confidence: options.complexTypes !== undefined ? 'high' : 'medium',
      alternatives: ['IGNORE', 'BOTH', 'STRING', 'BYTES']
        .map((m) => `PARQUET_COMPLEX_TYPES_IMPORT_MODE_${m}`)
        .filter((m) => m !== mode),
    });
  }
  if (complex.length > 0) {
    out.issue(
      'parquet_complex_columns',
      `${P}/complexTypesImportMode`,
      `nested columns imported as complex types, not data columns: ${complex.map((f) => `${f.name} (${f.nested})`).join(', ')}`,
      'Choose how with the `complexTypes` option (IGNORE, STRING, BYTES or BOTH).',
    );
  }
}

/** A field metadata value that is one of the platform's channel configs (JSON). */
export function hasEmbeddedConfig(meta: Record<string, string> | undefined): boolean {
  if (!meta) return false;
  return Object.entries(meta).some(([k, v]) => {
    if (!/^\s*\{/.test(v)) return false;
    try {
      const o: unknown = JSON.parse(v);
      if (typeof o !== 'object' || o === null) return false;
      const dt = (o as Record<string, unknown>).dataType;
      return (
        (typeof dt === 'string' && dt.startsWith('CHANNEL_DATA_TYPE_')) ||
        /channel.?config/i.test(k)
      );
    } catch {
      return false;
    }
  });
}
