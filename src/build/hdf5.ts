import type { Hdf5Config, Hdf5DataEntry } from '../model/index.js';
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
  type TimeSpec,
  timeFields,
} from './_common.js';
import { type ColumnChannelInput, channelOf } from './channel.js';

interface Hdf5EntryCommon {
  /** 0-based column of the time in a 2-D [N, 2] dataset. */
  timeIndex?: Int64Input;
  /** 0-based column of the value in a 2-D [N, 2] dataset. */
  valueIndex?: Int64Input;
  /** Member name of the time inside a compound dataset (needs `valueField`). */
  timeField?: string;
  /** Member name of the value inside a compound dataset. */
  valueField?: string;
  /** How the channel is created (its name defaults to the value dataset's path). */
  channel?: ColumnChannelInput;
}

/**
 * One channel: a time dataset and a value dataset, or `dataset` when both are the same
 * (a 2-D dataset with indexes, or a compound dataset with fields).
 */
export type Hdf5DataInput = Hdf5EntryCommon &
  (
    | { timeDataset: string; valueDataset: string; dataset?: never }
    | { dataset: string; timeDataset?: never; valueDataset?: never }
  );

export type Hdf5ConfigInput = RunInput & {
  /** The format of every time dataset, and the start of a relative format. */
  time: TimeSpec;
  data: readonly Hdf5DataInput[];
};

export type Hdf5Document = { hdf5Config: Hdf5Config };

const ENTRY_KEYS = [
  'timeDataset',
  'valueDataset',
  'dataset',
  'timeIndex',
  'valueIndex',
  'timeField',
  'valueField',
  'channel',
];

/**
 * An HDF5 import config: `hdf5Config({ asset: 'rig', time: { format:
 * 'absolute_unix_nanoseconds' }, data: [{ timeDataset: '/timestamp', valueDataset:
 * '/channel_0', channel: { type: 'double', units: 'V' } }] })`.
 */
export function hdf5Config(input: Hdf5ConfigInput): Hdf5Document {
  const b = 'hdf5Config()';
  knownKeys(b, input, [...RUN_KEYS, 'time', 'data']);
  knownKeys(b, input.time, TIME_KEYS, '/time');
  const out: Hdf5Config = runFields(input);
  out.data = input.data.map((d, i): Hdf5DataEntry => {
    knownKeys(b, d, ENTRY_KEYS, `/data/${i}`);
    const timeDataset = d.dataset ?? d.timeDataset;
    const valueDataset = d.dataset ?? d.valueDataset;
    const entry: Hdf5DataEntry = { timeDataset, valueDataset };
    const at = (field: string) => `/hdf5Config/data/${i}/${field}`;
    if (d.timeIndex !== undefined) {
      entry.timeIndex = int64('hdf5Config()', at('timeIndex'), d.timeIndex);
    }
    if (d.valueIndex !== undefined) {
      entry.valueIndex = int64('hdf5Config()', at('valueIndex'), d.valueIndex);
    }
    put(entry, 'timeField', d.timeField);
    put(entry, 'valueField', d.valueField);
    if (d.channel !== undefined) {
      const fallback = d.valueField ? `${valueDataset}.${d.valueField}` : valueDataset;
      entry.channelConfig = channelOf(
        b,
        { ...d.channel, name: d.channel.name ?? fallback },
        `/data/${i}/channel`,
      );
    }
    return entry;
  });
  const { format, relativeStartTime } = timeFields(input.time);
  out.timeFormat = format;
  put(out, 'relativeStartTime', relativeStartTime);
  return finish('hdf5', { hdf5Config: out });
}
