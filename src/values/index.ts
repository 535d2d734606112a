/**
 * The values a config imports, read and judged: the tallies of a time column and of a
 * channel, fed one decoded piece at a time, and the issues they make (tally.ts), and the
 * readers of HDF5 and TDMS values that feed them. Below infer and check, which both report
 * these findings: check reads what a config names, infer what its draft imports.
 */

export {
  type Hdf5TypeChoice,
  hdf5ChannelTypeOf,
  isParquetText,
  parquetChannelTypeOf,
  ulogChannelTypeOf,
} from './channel-types.js';
export {
  type ChannelRead,
  hdf5ChannelRead,
  hdf5ValueIssues,
  type PartRead,
  type ReadGroup,
  type ValueReadOptions,
} from './hdf5.js';
export { blockingFileSource, jobsOf, runOrdered, serveParts } from './ordered-pool.js';
export {
  arrayChunk,
  type ChannelTally,
  type Chunk,
  channelJudge,
  channelValueIssues,
  type Judge,
  type JudgedChannel,
  newTimeState,
  quoteValue,
  shortName,
  type TimeState,
  type TimeTally,
  tallyTime,
  timeTallyOf,
  timeValueIssues,
  type ValuePlace,
  withoutRestatedTypeIssues,
} from './tally.js';
export { HeadWatch, joinChannelPart, joinTimePart, type TimePart } from './tally-merge.js';
export { tdmsValueIssues } from './tdms.js';
export { type TdmsTypeChoice, tdmsChannelTypeOf } from './tdms-types.js';
export {
  MAX_PLAUSIBLE_MS,
  MIN_PLAUSIBLE_MS,
  PLAUSIBLE_WORDS,
  plausibleUnix,
  unitThatFits,
  unixUnitIssue,
} from './time.js';
