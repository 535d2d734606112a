/**
 * What the walk over a CH10 file's packet headers says, as issues and as the profile's
 * fields: damage, a cut last packet, time packets, and how the channels the TMATS record
 * lists match the channels that carry packets.
 */

import type { FieldProfile } from '../../inspect/shared.js';
import { type Issue, issue } from '../../model/plain.js';
import { listSome } from '../../validate/index.js';
import { isComputerGenerated } from './header.js';
import type { Ch10Channel, Ch10ChannelPackets, Ch10Packets } from './types.js';

const seconds = (s: number) => `${s.toFixed(3)} s`;
const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** The walk's own findings: damaged headers, a cut last packet, time packets. */
export function walkIssues(file: string, p: Ch10Packets): Issue[] {
  const source = { file };
  const out: Issue[] = [];
  const first = p.damage[0];
  if (first) {
    const more =
      p.damaged > 1
        ? `; ${p.damaged - 1} more damaged place(s) (${listSome(
            p.damage.slice(1).map((d) => `byte ${d.offset}`),
            3,
            p.damaged - 1,
          )})`
        : '';
    out.push(
      issue(
        'ch10_packet_damaged',
        '',
        `${file}: damaged packet at byte ${first.offset}: ${first.what}${more}; the walk went on at the next whole packet header`,
        {
          hint: 'The file is damaged: copy it from the recorder again.',
          source: { ...source, offset: first.offset },
        },
      ),
    );
  }
  if (p.cut) {
    const on = p.cut.channelId === undefined ? '' : ` (channel ${p.cut.channelId})`;
    out.push(
      issue(
        'ch10_last_packet_incomplete',
        '',
        `${file}: the last packet${on}, at byte ${p.cut.offset}, needs ${p.cut.needs} bytes and the file has ${p.cut.has}: the file may still be being written, or was cut`,
        {
          hint: 'Wait for the recording to be copied whole (or copy it again), then check it once more.',
          source: { ...source, offset: p.cut.offset },
        },
      ),
    );
  }
  if (p.timePackets === 0) out.push(noTimePackets(file, p));
  return out;
}

function noTimePackets(file: string, p: Ch10Packets): Issue {
  if (p.read === 'all') {
    return issue(
      'ch10_no_time_packets',
      '',
      `${file}: none of the ${p.headers} packets is a time packet (data type 0x11): nothing places the recording in time`,
      { hint: 'IRIG 106 requires time packets; check the recorder setup.', source: { file } },
    );
  }
  return issue(
    'ch10_time_packets_not_seen',
    '',
    `${file}: none of the ${p.headers} packet headers read (the first and last part of the file) is a time packet (data type 0x11); \`full\` reads every header`,
    { source: { file } },
  );
}

/** The data channels of an inventory: those with packets that are not the recorder's own (computer-generated). */
export function dataChannels(inventory: readonly Ch10ChannelPackets[]): Ch10ChannelPackets[] {
  return inventory.filter((c) => c.dataTypes.some((t) => !isComputerGenerated(t.dataType)));
}

/**
 * Channels the TMATS record lists that carry no packet (only when every header was read),
 * and data packets on channel IDs the record does not list.
 */
export function inventoryIssues(
  file: string,
  p: Ch10Packets,
  channels: readonly Ch10Channel[],
  inventory: readonly Ch10ChannelPackets[],
): Issue[] {
  const out: Issue[] = [];
  const carrying = new Set(inventory.map((c) => c.channelId));
  const listed = new Set(channels.flatMap((c) => (c.channelId === undefined ? [] : [c.channelId])));
  const idle = channels.filter((c) => c.channelId === undefined || !carrying.has(c.channelId));
  if (p.read === 'all' && idle.length > 0 && channels.length > 0) {
    const disabled = idle.filter((c) => c.enabled === false).length;
    const names = idle.map((c) =>
      c.channelId === undefined ? `'${c.name}' (no channel ID)` : `${c.channelId} '${c.name}'`,
    );
    out.push(
      issue(
        'ch10_channel_without_packets',
        '',
        `${file}: ${idle.length} of the ${count(channels.length, 'channel')} the TMATS record lists carry no packets${disabled > 0 ? ` (${disabled} of them disabled)` : ''}: ${listSome(names, 5)}`,
        { source: { file } },
      ),
    );
  }
  const unlisted = dataChannels(inventory).filter((c) => !listed.has(c.channelId));
  if (unlisted.length > 0) {
    const names = unlisted.map(
      (c) =>
        `${c.channelId} (${count(c.packets, 'packet')} of ${c.dataTypes.map((t) => t.name).join(', ')})`,
    );
    out.push(
      issue(
        'ch10_channel_not_in_tmats',
        '',
        `${file}: packets on ${count(unlisted.length, 'channel ID')} the TMATS record does not list: ${listSome(names, 5)}`,
        {
          hint: 'The platform reads a channel as its TMATS record describes it: packets on a channel it does not list may not be imported.',
          source: { file },
        },
      ),
    );
  }
  return out;
}

/**
 * One field per channel the TMATS record lists, then one per data channel it does not
 * list: the TMATS type, the data types of its packets, and their count, bytes and time
 * span as samples (`no packets` when every header was read and none is on it).
 */
export function ch10Fields(
  channels: readonly Ch10Channel[],
  inventory: readonly Ch10ChannelPackets[],
  complete: boolean,
): FieldProfile[] {
  const byId = new Map(inventory.map((c) => [c.channelId, c]));
  const listed = new Set<number>();
  const fields = channels.map((c): FieldProfile => {
    if (c.channelId !== undefined) listed.add(c.channelId);
    const packets = c.channelId === undefined ? undefined : byId.get(c.channelId);
    return {
      name: c.name,
      path: c.channelId === undefined ? c.recorder : `${c.recorder}/${c.channelId}`,
      physicalType: c.dataType,
      ...packetFacts(packets, complete),
    };
  });
  for (const c of dataChannels(inventory)) {
    if (listed.has(c.channelId)) continue;
    fields.push({
      name: `channel ${c.channelId} (not in TMATS)`,
      path: String(c.channelId),
      physicalType: '',
      ...packetFacts(c, complete),
    });
  }
  return fields;
}

function packetFacts(
  c: Ch10ChannelPackets | undefined,
  complete: boolean,
): Pick<FieldProfile, 'logicalType' | 'samples'> {
  if (!c) return { samples: complete ? ['no packets'] : [] };
  return {
    logicalType: c.dataTypes.map((t) => t.name).join(', '),
    samples: [
      count(c.packets, 'packet'),
      count(c.bytes, 'byte'),
      `${seconds(c.first)} to ${seconds(c.last)}`,
    ],
  };
}
