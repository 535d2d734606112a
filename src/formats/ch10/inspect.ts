/**
 * CH10 (IRIG 106 Chapter 10) inspection: finds the first packet header (sync `0xEB25` and
 * a header checksum that matches), reads its TMATS setup record (computer-generated data,
 * format 1) and lists the recorder's channels: ID, name and data type. Then it walks the
 * packet headers (`ch10/walk.ts`: headers only, positioned reads) and says what the
 * recording holds: per channel ID its packets, data types, bytes and first and last
 * relative time; the time packets, and the absolute time one of them gives. No npm package
 * reads Chapter 10 files.
 */

import type { BaseProfile } from '../../inspect/shared.js';
import { type ByteSource, InspectError, refuseEmptyFile } from '../../inspect/shared.js';
import { type Issue, issue } from '../../model/plain.js';
import { throughTurns } from '../../values/index.js';
import { ch10Fields, inventoryIssues, walkIssues } from './findings.js';
import { type Ch10Header, DATA_TYPE, HEADER, hasSecondary, headerAt, SECONDARY } from './header.js';
import { channelsOf, MAX_CHANNELS, parseTmats, type TmatsSummary, tmatsSummary } from './tmats.js';
import type { Ch10Channel, Ch10ChannelPackets, Ch10Packets } from './types.js';
import { walkPackets } from './walk.js';

export { dataChannels as ch10DataChannels } from './findings.js';
export type { Ch10Time } from './time.js';
export { parseTmats } from './tmats.js';
export type { Ch10Channel, Ch10ChannelPackets, Ch10Damage, Ch10Packets } from './types.js';

export interface Ch10Profile extends BaseProfile {
  format: 'ch10';
  /** Byte offset of the first packet's sync pattern. */
  syncOffset: number;
  firstPacket: {
    channelId: number;
    packetLength: number;
    dataLength: number;
    dataType: number;
    dataTypeVersion: number;
    secondaryHeader: boolean;
  };
  tmats: TmatsSummary;
  /** The channels the TMATS record lists. */
  channels: Ch10Channel[];
  /** What the walk over the packet headers read and found. */
  packets: Ch10Packets;
  /** Per channel ID that has packets (the recorder's own channel 0 too), in ID order. */
  inventory: Ch10ChannelPackets[];
}

export interface Ch10InspectOptions {
  /**
   * Walk only the packet headers in the first and last `sampleBytes` of the file (check
   * without `full`); by default every packet header is read.
   */
  sampleBytes?: number;
  onProgress?: (done: number, total: number) => void;
}

/** How far the first packet header is looked for. */
const SEARCH = 1024 * 1024;
/** A TMATS record larger than this is refused (memory stays bounded). */
const MAX_TMATS = 16 * 1024 * 1024;

/** Inspects a CH10 file. Throws InspectError for non-CH10, truncated or TMATS-less files. */
export async function inspectCh10(
  path: string,
  options: Ch10InspectOptions = {},
): Promise<Ch10Profile> {
  // The walk holds one window at a time (its bytes are read before the next read): the
  // file is read into two buffers that take turns. With a new 1 MiB buffer a read, the walk
  // waited on the kernel's mapping of each: bench/ch10's 512 MB of 1 KiB packets was
  // inspected in 1.26 to 1.34 s, and 0.32 to 0.35 s so (its full check: 0.61 to 0.87 s, and
  // 0.24 to 0.31 s).
  const profile = await throughTurns(path, (s) => inspectCh10Source(s, options));
  return { ...profile, file: { path, size: profile.file.size } };
}

/** The first header whose checksum matches, else the one at byte 0 (the walk reports it). */
function findSync(head: Uint8Array): { at: number; header: Ch10Header } | undefined {
  for (let at = head.indexOf(0x25); at >= 0; at = head.indexOf(0x25, at + 1)) {
    if (head[at + 1] !== 0xeb) continue;
    const header = headerAt(head, at);
    if (header?.checksumOk && header.packetLength >= HEADER) return { at, header };
  }
  const first = headerAt(head, 0);
  return first ? { at: 0, header: first } : undefined;
}

function ch10Error(file: string, code: Issue['code'], message: string, hint: string): InspectError {
  return new InspectError({ code, severity: 'error', path: '', message, hint, source: { file } });
}

/** Inspects CH10 bytes from a source. */
export async function inspectCh10Source(
  source: ByteSource,
  options: Ch10InspectOptions = {},
): Promise<Ch10Profile> {
  refuseEmptyFile(source);
  const file = source.name;
  const head = await source.read(0, Math.min(SEARCH, source.size));
  const { at, header } = firstPacket(file, head, source.size);
  const attributes = parseTmats(await readTmats(source, head, at, header));
  const channels = channelsOf(attributes);
  if (!channels) {
    throw ch10Error(
      file,
      'ch10_too_many_channels',
      `${file}: the TMATS record lists more than ${MAX_CHANNELS} channels, more than the channel IDs a recording has`,
      'The setup record is damaged or not a recorder setup: check the recording.',
    );
  }
  const walked = await walkPackets(source, at, {
    head,
    ...(options.sampleBytes === undefined ? {} : { sampleBytes: options.sampleBytes }),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  const inventory = named(walked.channels, channels);
  const issues: Issue[] = [
    ...(channels.length === 0 ? [noChannels(file)] : []),
    ...walkIssues(file, walked.packets),
    ...inventoryIssues(file, walked.packets, channels, inventory),
  ];
  return {
    format: 'ch10',
    file: { path: file, size: source.size },
    bytesRead: source.bytesRead,
    fields: ch10Fields(channels, inventory, walked.packets.read === 'all'),
    issues,
    syncOffset: at,
    firstPacket: {
      channelId: header.channelId,
      packetLength: header.packetLength,
      dataLength: header.dataLength,
      dataType: header.dataType,
      dataTypeVersion: header.dataTypeVersion,
      secondaryHeader: hasSecondary(header),
    },
    tmats: tmatsSummary(attributes),
    channels,
    packets: walked.packets,
    inventory,
  };
}

/** The first packet, which must be a TMATS setup record; else the error that refuses the file. */
function firstPacket(
  file: string,
  head: Uint8Array,
  size: number,
): { at: number; header: Ch10Header } {
  const found = findSync(head);
  if (!found) {
    if (head.byteLength < HEADER && head[0] === 0x25 && head[1] === 0xeb) {
      throw ch10Error(
        file,
        'ch10_truncated',
        `${file}: truncated CH10 file: ${head.byteLength} bytes, less than one packet header (24)`,
        'Copy the file again; it was cut short.',
      );
    }
    throw ch10Error(
      file,
      'ch10_sync_missing',
      `${file}: not a CH10 file (no packet header with sync 0xEB25 in the first ${Math.min(SEARCH, size)} bytes)`,
      'Check that this is the recording you meant.',
    );
  }
  const { header } = found;
  if (header.dataType !== DATA_TYPE.tmats) {
    throw ch10Error(
      file,
      'ch10_tmats_missing',
      `${file}: the first packet (channel ${header.channelId}) has data type 0x${header.dataType.toString(16).padStart(2, '0')}, not a TMATS setup record (0x01)`,
      'IRIG 106 requires the TMATS record first; check the recording.',
    );
  }
  return found;
}

/** The TMATS text of the first packet (after the 4-byte channel-specific word). */
async function readTmats(
  source: ByteSource,
  head: Uint8Array,
  at: number,
  header: Ch10Header,
): Promise<string> {
  const file = source.name;
  const start = at + HEADER + (hasSecondary(header) ? SECONDARY : 0) + 4;
  const length = header.dataLength - 4;
  if (length < 0 || length > MAX_TMATS) {
    throw ch10Error(
      file,
      'ch10_tmats_missing',
      `${file}: the first packet's data length (${header.dataLength}) cannot hold a TMATS record`,
      'The file is damaged: copy it again.',
    );
  }
  const bytes =
    start + length <= head.byteLength
      ? head.subarray(start, start + length)
      : await source.read(start, length);
  if (bytes.byteLength < length) {
    throw ch10Error(
      file,
      'ch10_truncated',
      `${file}: truncated CH10 file: the TMATS record needs ${length} bytes at byte ${start}, the file has ${Math.max(0, source.size - start)}`,
      'Copy the file again; it was cut short.',
    );
  }
  return new TextDecoder('latin1').decode(bytes);
}

function noChannels(file: string): Issue {
  return issue('ch10_no_channels', '', `${file}: the TMATS record lists no recorder data sources`, {
    source: { file },
  });
}

/** The inventory with each channel ID's TMATS name, where the record lists the ID. */
function named(
  inventory: Ch10ChannelPackets[],
  channels: readonly Ch10Channel[],
): Ch10ChannelPackets[] {
  const byId = new Map<number, string>();
  for (const c of channels)
    if (c.channelId !== undefined && !byId.has(c.channelId)) byId.set(c.channelId, c.name);
  return inventory.map((p) => {
    const name = byId.get(p.channelId);
    if (name === undefined) return p;
    const { channelId, ...rest } = p;
    return { channelId, name, ...rest };
  });
}
