import type { Ch10Time } from './time.js';

export interface Ch10Channel {
  /** The recorder group (`R-1`). */
  recorder: string;
  /** Channel ID (`R-x\TK1-n`). */
  channelId?: number;
  /** Data source ID (`R-x\DSI-n`): the channel's name. */
  name: string;
  /** Channel data type (`R-x\CDT-n`): PCMIN, 1553IN, ANAIN, TIMIN, VIDIN ... */
  dataType: string;
  /** `R-x\CHE-n`: T or F. */
  enabled?: boolean;
}

/** The packets of one channel ID, from their headers. */
export interface Ch10ChannelPackets {
  channelId: number;
  /** The TMATS channel of this ID (`R-x\TK1-n`), when the record lists one. */
  name?: string;
  packets: number;
  /** Their packet lengths, summed (headers, data, filler). */
  bytes: number;
  /** Each data type, with its packets. */
  dataTypes: Array<{ dataType: number; name: string; packets: number }>;
  /**
   * Seconds from the recording's time origin (`Ch10Packets.origin`) of its first and last
   * packet, by the packets' relative time counter (10 MHz).
   */
  first: number;
  last: number;
}

/** Something wrong found in the walk: where, and what. */
export interface Ch10Damage {
  offset: number;
  what: string;
}

/** What the walk over the packet headers found. */
export interface Ch10Packets {
  /** `all`: every packet header was read; `sampled`: those in `ranges` only. */
  read: 'all' | 'sampled';
  /** The byte ranges [start, end) whose packet headers were read. */
  ranges: Array<[number, number]>;
  /** Packet headers read (whole packets in the file). */
  headers: number;
  /** Time packets (data type 0x11) among them. */
  timePackets: number;
  /** The first time packet: where, its relative time counter and the time it gives. */
  firstTime?: { offset: number; channelId: number; rtc: number; time?: Ch10Time };
  /**
   * The relative time counter (10 MHz ticks) that is 0 s of the per-channel times: the
   * earliest of the packets read that are not computer-generated.
   */
  origin?: number;
  /** UTC of the earliest and latest packet read, when a time packet gives absolute time. */
  start?: string;
  stop?: string;
  /** Damaged places (a header without sync, a checksum that does not match, lengths that do not fit), the first ten. */
  damage: Ch10Damage[];
  /** How many damaged places; the walk went on at the next whole header after each. */
  damaged: number;
  /** The last packet, when the file ends inside it. */
  cut?: { offset: number; channelId?: number; needs: number; has: number };
}
