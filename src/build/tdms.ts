import type { TdmsConfig, TdmsDataEntry } from '../model/index.js';
import {
  finish,
  type Int64Input,
  int64,
  knownKeys,
  put,
  RUN_KEYS,
  type RunInput,
  runFields,
  TIME_KEYS,
  type TimeInput,
  type TimeSpec,
  timeFields,
  timestamp,
} from './_common.js';
import {
  complexComponent,
  fallbackMethod,
  type TdmsComplexComponentName,
  type TdmsFallbackMethodName,
} from './_names.js';
import { type ColumnChannelInput, channelOf } from './channel.js';

/** One TDMS channel to import. */
export interface TdmsDataInput {
  groupName: string;
  channelName: string;
  /** How the channel is created (its name defaults to the TDMS channel name). */
  channel?: ColumnChannelInput;
  /** The channel holding its times; leave out for a waveform channel (wf_* properties). */
  timeChannelName?: string;
  /** Apply the channel's scaling (the platform's default is true). */
  scaled?: boolean;
  complexComponent?: TdmsComplexComponentName;
}

export type TdmsConfigInput = RunInput & {
  /** Overrides the waveform start time of every channel. */
  startTimeOverride?: TimeInput;
  /** Deprecated: only for files with truncated chunks. */
  fileSize?: Int64Input;
  /** Channels to import; leave out to import everything. */
  data?: readonly TdmsDataInput[];
  fallbackMethod?: TdmsFallbackMethodName;
  /** The format of time channels that are not of the TDMS timestamp type. */
  time?: TimeSpec;
  /** Import the file's properties as run metadata (needs `run` or `runId`). */
  importFileProperties?: boolean;
};

export type TdmsDocument = { tdmsConfig: TdmsConfig };

const B = 'tdmsConfig()';
const ENTRY_KEYS = [
  'groupName',
  'channelName',
  'channel',
  'timeChannelName',
  'scaled',
  'complexComponent',
];

function entry(d: TdmsDataInput, i: number): TdmsDataEntry {
  knownKeys(B, d, ENTRY_KEYS, `/data/${i}`);
  const out: TdmsDataEntry = { groupName: d.groupName, channelName: d.channelName };
  if (d.channel !== undefined) out.channelConfig = channelOf(B, d.channel, `/data/${i}/channel`);
  put(out, 'timeChannelName', d.timeChannelName);
  put(out, 'scaled', d.scaled);
  if (d.complexComponent !== undefined) {
    out.complexComponent = complexComponent(d.complexComponent);
  }
  return out;
}

/**
 * A TDMS import config: `tdmsConfig({ asset: 'rig', run: 'test-3', data: [{ groupName:
 * 'Measurements', channelName: 'current', channel: { type: 'double', units: 'A' } }] })`.
 */
export function tdmsConfig(input: TdmsConfigInput): TdmsDocument {
  knownKeys(B, input, [
    ...RUN_KEYS,
    'startTimeOverride',
    'fileSize',
    'data',
    'fallbackMethod',
    'time',
    'importFileProperties',
  ]);
  const out: TdmsConfig = runFields(input);
  if (input.startTimeOverride !== undefined) {
    out.startTimeOverride = timestamp(input.startTimeOverride);
  }
  if (input.fileSize !== undefined) {
    out.fileSize = int64('tdmsConfig()', '/tdmsConfig/fileSize', input.fileSize);
  }
  if (input.data !== undefined) out.data = input.data.map(entry);
  if (input.fallbackMethod !== undefined) out.fallbackMethod = fallbackMethod(input.fallbackMethod);
  if (input.time !== undefined) {
    knownKeys(B, input.time, TIME_KEYS, '/time');
    const { format, relativeStartTime } = timeFields(input.time);
    out.timeFormat = format;
    put(out, 'relativeStartTime', relativeStartTime);
  }
  put(out, 'importFileProperties', input.importFileProperties);
  return finish('tdms', { tdmsConfig: out });
}
