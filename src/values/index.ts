export { arrayChunk, type Chunk, type TypedNumbers } from './chunk.js';
export { isoMillis, startMillis, textTimeMs, zonedMillis } from './iso-time.js';
export {
  eachTwoAtATime,
  examineMemberRuns,
  type MemberRuns,
  MIN_MEMBERS_FOR_WORKERS,
} from './member-runs.js';
export {
  blockingFileSource,
  jobsOf,
  readThroughTurns,
  runOrdered,
  serveParts,
  shareOf,
  startWorkers,
  throughTurns,
  type WorkerPool,
} from './ordered-pool.js';
export { PayingStart, WORKER_START_MS, workersPay } from './paying-start.js';
export {
  type ChannelTally,
  channelJudge,
  channelValueIssues,
  type Judge,
  type JudgedChannel,
  nonFiniteCounts,
  quoteValue,
  shortName,
  timeValueIssues,
  type ValuePlace,
  withoutRestatedTypeIssues,
} from './tally.js';
export {
  HeadWatch,
  headOf,
  joinChannelPart,
  joinTimePart,
  type TimePart,
} from './tally-merge.js';
export {
  newTimeState,
  type TimeState,
  type TimeTally,
  tallyTime,
  timeTallyOf,
} from './tally-time.js';
export {
  absoluteRangeIssue,
  describeDate,
  isKnownZone,
  MAX_PLAUSIBLE_MS,
  MIN_PLAUSIBLE_MS,
  PLAUSIBLE_WORDS,
  plausibleUnix,
  readsText,
  readsUnits,
  sampledTimeOrderIssue,
  statsTimeRange,
  storedUnitIssue,
  type TimeJudged,
  type TimeKind,
  type TimesRead,
  textTimeRangeIssue,
  timeKindIssue,
  timeScaleIssue,
  timeValueToIso,
  unitThatFits,
  unixUnitIssue,
  unixUnitOfLarge,
} from './time.js';
