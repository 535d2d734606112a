/**
 * The layout of a Parquet draft: flat (one column per channel), long form (a name column
 * and a value column, the names listed from its first page) or one channel per file, and
 * the evidence for it.
 */

import type { Confidence, Evidence, Layout } from '../../infer/shared.js';
import { listSome } from '../../validate/index.js';
import { parquetChannelTypeOf } from './channel-types.js';
import { type Findings, type HeadReader, P } from './infer-findings.js';
import { isNumeric } from './infer-time.js';
import type { ParquetFieldProfile, ParquetProfile } from './profile.js';

/** Column names that say a long-form file's name column and value column. */
const NAME_COLUMN =
  /^(channel|channel_?name|channel_?id|name|signal|signal_?name|sensor|sensor_?name|tag|key|variable|measurement|metric|parameter|param|series)$/i;

export const VALUE_COLUMN = /^(value|values|val|data|reading|measurement|y|v)$/i;

export interface LayoutChoice {
  layout: Layout;
  reason: string;
  confidence: Confidence;
  alternatives: string[];
  /** The long form's name and value columns, when the file has them. */
  nameCol: ParquetFieldProfile | undefined;
  valueCol: ParquetFieldProfile | undefined;
  /** The single channel's value column, when long form without names. */
  single: ParquetFieldProfile | undefined;
}

/** Flat (wide), long form (a name column and a value column), or one channel per file. */
export function chooseLayout(
  profile: ParquetProfile,
  data: ParquetFieldProfile[],
  given: Layout | undefined,
  out: Findings,
): LayoutChoice {
  const texts = data.filter((f) => parquetChannelTypeOf(f).dataType === 'CHANNEL_DATA_TYPE_STRING');
  const values = data.filter(isNumeric);
  const namedName = texts.find((f) => NAME_COLUMN.test(f.name));
  const namedValue = values.find((f) => VALUE_COLUMN.test(f.name));
  // Without telling names, a lone text column beside a lone number is a name column only
  // when it is dictionary-encoded (few distinct values) and not all null.
  const onlyPair =
    data.length === 2 &&
    texts.length === 1 &&
    values.length === 1 &&
    texts[0]?.dictionary === true &&
    texts[0].nullCount !== profile.rowCount;
  // Asked for long form, take the first text and the first number when no name tells.
  const asked = given === 'multi-channel';
  const nameCol = namedName ?? (onlyPair || asked ? texts[0] : undefined);
  const valueCol =
    namedValue ?? (onlyPair || asked || (nameCol && values.length === 1) ? values[0] : undefined);
  const columns = { nameCol, valueCol, single: namedValue ?? values[0] ?? data[0] };
  checkLayoutOption(given, data, nameCol, valueCol, out);
  const byOption = { reason: 'given as an option (`layout`)', confidence: 'high' as const };
  if (given === 'multi-channel' && nameCol && valueCol) {
    return { layout: 'multi-channel', ...byOption, alternatives: [], ...columns };
  }
  if (given === 'single-channel' && data.length > 0) {
    return { layout: 'single-channel', ...byOption, alternatives: [], ...columns };
  }
  if (given === 'flat') return { layout: 'flat', ...byOption, alternatives: [], ...columns };
  if (nameCol && valueCol) {
    return {
      layout: 'multi-channel',
      reason: `${nameCol.name} is a text column ${NAME_COLUMN.test(nameCol.name) ? 'named like channel names' : 'beside a single value column'} and ${valueCol.name} ${VALUE_COLUMN.test(valueCol.name) ? 'is named like the value' : 'is the only numeric column'}: one row per sample of the channel it names (long form)`,
      confidence:
        NAME_COLUMN.test(nameCol.name) && VALUE_COLUMN.test(valueCol.name) ? 'high' : 'medium',
      alternatives: ['flatDataset: one channel per column (`layout`: flat)'],
      ...columns,
    };
  }
  if (data.length === 1 && data[0]) {
    return {
      layout: 'flat',
      reason: `time plus the single value column ${data[0].name}: a flat dataset of one channel`,
      confidence: 'medium',
      alternatives: [
        `singleChannelPerRow singleChannel {dataPath: ${data[0].name}}: the whole file is one channel (\`layout\`: single-channel)`,
      ],
      ...columns,
    };
  }
  return {
    layout: 'flat',
    reason: 'time plus one column per channel (wide form)',
    confidence: 'high',
    alternatives: [],
    ...columns,
  };
}

/** A layout option the file cannot follow is an error (inference then chooses). */
function checkLayoutOption(
  given: Layout | undefined,
  data: ParquetFieldProfile[],
  nameCol: ParquetFieldProfile | undefined,
  valueCol: ParquetFieldProfile | undefined,
  out: Findings,
) {
  if (given === 'multi-channel' && !(nameCol && valueCol)) {
    out.issue(
      'parquet_option_invalid',
      P,
      `\`layout\` multi-channel: the file has no ${nameCol ? 'numeric value column' : 'text column of channel names'} beside the time`,
    );
  }
  if (given === 'single-channel' && data.length === 0) {
    out.issue(
      'parquet_option_invalid',
      P,
      '`layout` single-channel: no value column beside the time',
    );
  }
}

export interface ChannelNames {
  names: string[];
  from: 'dictionary' | 'first page';
}

/** Channel names of a long-form file, from the name column's dictionary or first page. */
export async function channelNamesOf(
  nameCol: ParquetFieldProfile,
  readHead: HeadReader,
  out: Findings,
): Promise<ChannelNames | undefined> {
  const head = await readHead(nameCol.name);
  if (!('values' in head)) {
    out.issue(
      'parquet_page_unread',
      P,
      `channel names not listed: ${nameCol.name}: ${head.reason}`,
    );
    return undefined;
  }
  const names = [...new Set(head.values)].slice(0, 1000);
  nameCol.samples = names.slice(0, 20);
  return { names, from: head.from === 'dictionary' ? 'dictionary' : 'first page' };
}

export function multiChannelReason(
  profile: ParquetProfile,
  nameCol: ParquetFieldProfile,
  valueCol: ParquetFieldProfile,
  names: ChannelNames | undefined,
): string {
  if (!names) return `${nameCol.name} holds the channel names, ${valueCol.name} the values`;
  const n = names.names.length;
  const groups = profile.rowGroups > 1 ? `, of ${profile.rowGroups}` : '';
  return `${n} channel name${n === 1 ? '' : 's'} in ${nameCol.name} (${names.from} of the first row group${groups}): ${listSome(names.names, 20)}`;
}

export function layoutEvidence(layout: LayoutChoice, layoutPath: string): Evidence {
  return {
    path: layoutPath,
    choice:
      layout.layout === 'flat'
        ? 'flatDataset'
        : layout.layout === 'multi-channel'
          ? 'singleChannelPerRow multiChannel'
          : 'singleChannelPerRow singleChannel',
    reason: layout.reason,
    confidence: layout.confidence,
    ...(layout.alternatives.length > 0 ? { alternatives: layout.alternatives } : {}),
  };
}
