/**
 * Checks a Ch10Config against its CH10 file: the file must be one inspection accepts (a
 * packet header, a TMATS setup record first, a record that lists no more channels than a
 * recording has), then its packet headers are walked (`formats/ch10/walk.ts`): sync
 * patterns, header and secondary-header checksums, packet lengths inside the file (a cut
 * last packet is a warning, as a cut CSV row is), time packets present, and the channels
 * the TMATS record lists against those that carry packets. `scaleValues` is checked
 * against the data conversions the TMATS record defines.
 *
 * Sampled (the default): the TMATS record, the headers of the packets that start in the
 * first MiB and those from the first whole header in the last MiB to the end, and the time
 * words of the first time packet; `full` walks every packet header. No packet data is read.
 */

import type { Timeline, TimelineReader } from '../../check/shared.js';
import type { ByteSource } from '../../inspect/shared.js';
import type { Ch10Config } from '../../model/index.js';
import { type Issue, issue, pointer } from '../../model/plain.js';
import { throughTurns } from '../../values/index.js';
import { type Ch10Profile, ch10DataChannels, inspectCh10, inspectCh10Source } from './inspect.js';

/** What a sampled check walks at each end of the file. */
export const SAMPLE_BYTES = 1 << 20;

export interface Ch10CheckOptions {
  /** Walk every packet header instead of those at the two ends. */
  full?: boolean;
  onProgress?: (done: number, total: number) => void;
  key?: string;
  /** Sampled: bytes walked at each end (default 1 MiB). */
  sampleBytes?: number;
}

/**
 * Checks a Ch10Config against a CH10 file (its path) or source (issues name the source);
 * throws InspectError when inspection refuses the file.
 */
export async function checkCh10(
  config: Ch10Config,
  data: string | ByteSource,
  options: Ch10CheckOptions = {},
): Promise<Issue[]> {
  const key = options.key ?? 'ch10Config';
  // The walk holds one window at a time: a file on disk is read into two buffers that take
  // turns (as inspectCh10 reads it).
  const profile = await throughTurns(data, (source) =>
    inspectCh10Source(source, {
      ...(options.full ? {} : { sampleBytes: options.sampleBytes ?? SAMPLE_BYTES }),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    }),
  );
  const file = typeof data === 'string' ? data : data.name;
  const issues: Issue[] = profile.issues.map((i) => ({ ...i, path: pointer(key) }));
  for (const i of scaleIssues(config, profile, key, file)) issues.push(i);
  return issues;
}

/** `scaleValues` against the data conversions (`C-x\DCN`) the TMATS record defines. */
function scaleIssues(config: Ch10Config, profile: Ch10Profile, key: string, file: string): Issue[] {
  const conversions = profile.tmats.conversions;
  if (config.scaleValues === true && conversions === 0) {
    return [
      issue(
        'ch10_scale_without_conversions',
        pointer(key, 'scaleValues'),
        'scaleValues is true, but the TMATS record defines no data conversions (C-x\\DCN): there is nothing to scale the values by',
        { hint: 'Set scaleValues: false.', source: { file } },
      ),
    ];
  }
  if (config.scaleValues !== true && conversions > 0) {
    return [
      issue(
        'ch10_conversions_not_applied',
        config.scaleValues === undefined ? pointer(key) : pointer(key, 'scaleValues'),
        `the TMATS record defines ${conversions} data conversion${conversions === 1 ? '' : 's'} (C-x\\DCN) and scaleValues is not true: the values are imported unscaled`,
        { hint: 'Set scaleValues: true for values in engineering units.', source: { file } },
      ),
    ];
  }
  return [];
}

/**
 * The timeline of a CH10 file: per data channel (a channel ID whose packets are not only
 * the recorder's own), its packets, bytes and first and last relative time, from every
 * packet header.
 */
export const ch10Timeline: TimelineReader = async (_config, dataPath): Promise<Timeline> => {
  const profile = await inspectCh10(dataPath);
  const types = new Map(profile.channels.map((c) => [c.channelId, c.dataType]));
  const channels = ch10DataChannels(profile.inventory).map((c) => ({
    name: c.name ?? `channel ${c.channelId}`,
    detail: [`channel ${c.channelId}`, types.get(c.channelId), ...c.dataTypes.map((t) => t.name)]
      .filter((x) => x)
      .join(' · '),
    packets: c.packets,
    bytes: c.bytes,
    first: c.first,
    last: c.last,
  }));
  const start = profile.packets.start;
  return {
    channels,
    origin: 'the earliest relative time counter of the data and time packets',
    ...(start ? { start } : {}),
    complete: profile.packets.read === 'all',
  };
};
