import type { UlogConfig, UlogDataEntry } from '../model/index.js';
import {
  finish,
  type Int64Input,
  int64,
  knownKeys,
  put,
  RUN_KEYS,
  type RunInput,
  runFields,
  type TimeInput,
  timestamp,
} from './_common.js';
import { parseErrorPolicy, type UlogParseErrorPolicyName } from './_names.js';
import { type ColumnChannelInput, channelOf } from './channel.js';

/** One ULog field to import. */
export interface UlogDataInput {
  /** The message, e.g. `sensor_accel`, or `log_messages` / `log_messages_<tag>`. */
  messageName: string;
  /** The message's multi-instance index. */
  instance?: Int64Input;
  /** The field, e.g. `x` or `esc[0].v`; empty for the log-message channels. */
  fieldName?: string;
  channel?: ColumnChannelInput;
}

export type UlogConfigInput = RunInput & {
  /** Channels to import; leave out to import every channel with defaults. */
  data?: readonly UlogDataInput[];
  /** Anchors the log's timeline (else the log's GPS fix is used). */
  relativeStartTime?: TimeInput;
  /** Info keys imported as run metadata `info.<key>`. */
  infoKeys?: readonly string[];
  /** Parameters imported as run metadata `param.<name>`. */
  paramKeys?: readonly string[];
  parseErrorPolicy?: UlogParseErrorPolicyName;
};

export type UlogDocument = { ulogConfig: UlogConfig };

/**
 * A ULog (PX4) import config: `ulogConfig({ asset: 'drone', relativeStartTime:
 * '2024-05-01T12:00:00Z', data: [{ messageName: 'sensor_accel', fieldName: 'x' }] })`.
 */
export function ulogConfig(input: UlogConfigInput): UlogDocument {
  const b = 'ulogConfig()';
  knownKeys(b, input, [
    ...RUN_KEYS,
    'data',
    'relativeStartTime',
    'infoKeys',
    'paramKeys',
    'parseErrorPolicy',
  ]);
  const out: UlogConfig = runFields(input);
  if (input.data !== undefined) {
    out.data = input.data.map((d, i): UlogDataEntry => {
      knownKeys(b, d, ['messageName', 'instance', 'fieldName', 'channel'], `/data/${i}`);
      const entry: UlogDataEntry = { messageName: d.messageName };
      if (d.instance !== undefined) {
        entry.instance = int64('ulogConfig()', `/ulogConfig/data/${i}/instance`, d.instance);
      }
      put(entry, 'fieldName', d.fieldName);
      if (d.channel !== undefined) {
        entry.channelConfig = channelOf(b, d.channel, `/data/${i}/channel`);
      }
      return entry;
    });
  }
  if (input.relativeStartTime !== undefined) {
    out.relativeStartTime = timestamp(input.relativeStartTime);
  }
  if (input.infoKeys !== undefined) out.infoKeys = [...input.infoKeys];
  if (input.paramKeys !== undefined) out.paramKeys = [...input.paramKeys];
  if (input.parseErrorPolicy !== undefined) {
    out.parseErrorPolicy = parseErrorPolicy(input.parseErrorPolicy);
  }
  return finish('ulog', { ulogConfig: out });
}
