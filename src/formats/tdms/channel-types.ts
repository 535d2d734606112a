/**
 * The channel type a TDMS channel's values have, by the platform's table: what infer
 * declares in a draft, and what the value tallies judge a channel by when its config
 * declares none.
 */

import type { ChannelDataType } from '../../model/index.js';
import { type TdmsChannelProfile, tdmsProperty } from './inspect.js';

export type TdmsTypeChoice =
  | { dataType: ChannelDataType; reason: string; complex?: boolean }
  | { skip: string };

const PLAIN_TYPES: Record<string, ChannelDataType> = {
  i8: 'CHANNEL_DATA_TYPE_INT_32',
  i16: 'CHANNEL_DATA_TYPE_INT_32',
  i32: 'CHANNEL_DATA_TYPE_INT_32',
  i64: 'CHANNEL_DATA_TYPE_INT_64',
  u8: 'CHANNEL_DATA_TYPE_UINT_32',
  u16: 'CHANNEL_DATA_TYPE_UINT_32',
  u32: 'CHANNEL_DATA_TYPE_UINT_32',
  u64: 'CHANNEL_DATA_TYPE_UINT_64',
  f32: 'CHANNEL_DATA_TYPE_FLOAT',
  'f32-unit': 'CHANNEL_DATA_TYPE_FLOAT',
  f64: 'CHANNEL_DATA_TYPE_DOUBLE',
  'f64-unit': 'CHANNEL_DATA_TYPE_DOUBLE',
  extended: 'CHANNEL_DATA_TYPE_DOUBLE',
  'extended-unit': 'CHANNEL_DATA_TYPE_DOUBLE',
  'fixed-point': 'CHANNEL_DATA_TYPE_DOUBLE',
  bool: 'CHANNEL_DATA_TYPE_BOOL',
  string: 'CHANNEL_DATA_TYPE_STRING',
  timestamp: 'CHANNEL_DATA_TYPE_INT_64',
  'complex-f32': 'CHANNEL_DATA_TYPE_FLOAT',
  'complex-f64': 'CHANNEL_DATA_TYPE_DOUBLE',
};

/** True when the channel's raw values are scaled (NI_Scale…) into doubles on import. */
function scaledByProperties(c: TdmsChannelProfile): boolean {
  const n = tdmsProperty(c.properties, 'NI_Number_Of_Scales');
  const status = tdmsProperty(c.properties, 'NI_Scaling_Status');
  return typeof n === 'number' && n > 0 && status !== 'scaled';
}

/**
 * The channel type of a TDMS channel, by the platform's table: f64, extended and fixed
 * point → DOUBLE, f32 → FLOAT, i8-i32 → INT_32, i64 → INT_64, u8-u32 → UINT_32, u64 →
 * UINT_64, bool → BOOL, string → STRING, timestamp → INT_64, complex → FLOAT/DOUBLE per
 * component; DAQmx raw data and scaled channels → DOUBLE (the scaled type).
 */
export function tdmsChannelTypeOf(c: TdmsChannelProfile): TdmsTypeChoice {
  if (c.dataType === 'none') return { skip: 'it holds no data' };
  if (c.dataType === 'daqmx') {
    const scalers = c.daqmx?.scalers ?? [];
    if (scalers.length === 0) return { skip: 'DAQmx raw data without scalers' };
    const raw = [...new Set(scalers.map((s) => s.type))].join(', ');
    return {
      dataType: 'CHANNEL_DATA_TYPE_DOUBLE',
      reason: `DAQmx raw data (${raw} scaler${scalers.length === 1 ? '' : 's'}): scaled values are doubles`,
    };
  }
  const dataType = PLAIN_TYPES[c.dataType];
  if (!dataType) return { skip: `TDMS ${c.dataType} has no channel type` };
  if (scaledByProperties(c) && dataType !== 'CHANNEL_DATA_TYPE_STRING') {
    return {
      dataType: 'CHANNEL_DATA_TYPE_DOUBLE',
      reason: `TDMS ${c.dataType} with NI_Scale properties: scaled values are doubles`,
    };
  }
  const complex = c.dataType.startsWith('complex');
  return {
    dataType,
    reason: complex ? `TDMS ${c.dataType}: one channel per component` : `TDMS ${c.dataType}`,
    ...(complex ? { complex } : {}),
  };
}
