/**
 * IRIG 106 Chapter 10 packet headers (Chapter 11 of the 2017 and later editions): the
 * 24-byte header, its checksum, the optional 12-byte secondary header and its checksum,
 * and the names of the data types. The layout is the one irig106lib (`SuI106Ch10Header`)
 * and pyChapter10 (`Packet.FORMAT`) read.
 */

/** Bytes of a packet header. */
export const HEADER = 24;
/** Bytes of a secondary header (its flag is bit 7 of the packet flags). */
export const SECONDARY = 12;
/** Ticks of the 48-bit relative time counter per second (10 MHz). */
export const RTC_HZ = 10_000_000;

/** Data types the walk treats specially. */
export const DATA_TYPE = { tmats: 0x01, timeF1: 0x11 } as const;

export interface Ch10Header {
  channelId: number;
  packetLength: number;
  dataLength: number;
  dataTypeVersion: number;
  sequence: number;
  flags: number;
  dataType: number;
  /** The relative time counter, 10 MHz ticks (48 bits: exact in a number). */
  rtc: number;
  checksumOk: boolean;
}

/** The header at `at` of `b`: undefined without its 24 bytes or its sync pattern (0xEB25, little-endian: 25 EB). */
export function headerAt(b: Uint8Array, at: number): Ch10Header | undefined {
  if (at < 0 || at + HEADER > b.byteLength || b[at] !== 0x25 || b[at + 1] !== 0xeb)
    return undefined;
  const v = new DataView(b.buffer, b.byteOffset + at, HEADER);
  return {
    channelId: v.getUint16(2, true),
    packetLength: v.getUint32(4, true),
    dataLength: v.getUint32(8, true),
    dataTypeVersion: v.getUint8(12),
    sequence: v.getUint8(13),
    flags: v.getUint8(14),
    dataType: v.getUint8(15),
    rtc: v.getUint32(16, true) + v.getUint16(20, true) * 2 ** 32,
    checksumOk: wordSum(v, 0, 11) === v.getUint16(22, true),
  };
}

/** The sum of `words` little-endian 16-bit words from `from`, modulo 2^16 (both checksums). */
function wordSum(v: DataView, from: number, words: number): number {
  let sum = 0;
  for (let i = 0; i < words; i++) sum = (sum + v.getUint16(from + 2 * i, true)) & 0xffff;
  return sum;
}

export function hasSecondary(h: Ch10Header): boolean {
  return (h.flags & 0x80) !== 0;
}

/** Bytes before the packet body: the header and a secondary header when there is one. */
export function headerLength(h: Ch10Header): number {
  return HEADER + (hasSecondary(h) ? SECONDARY : 0);
}

/** Whether the secondary header at `at` (12 bytes of `b`) has a matching checksum. */
export function secondaryOk(b: Uint8Array, at: number): boolean {
  const v = new DataView(b.buffer, b.byteOffset + at, SECONDARY);
  return wordSum(v, 0, 5) === v.getUint16(10, true);
}

/**
 * What is wrong with a header whose sync pattern is there, in words, or undefined when its
 * checksum matches and its lengths hold its headers and its data.
 */
export function headerProblem(h: Ch10Header): string | undefined {
  if (!h.checksumOk) return "the header's checksum does not match its words";
  const head = headerLength(h);
  if (h.packetLength < head) {
    return `the packet length (${h.packetLength}) is shorter than its header (${head} bytes)`;
  }
  if (h.dataLength > h.packetLength - head) {
    return `the data length (${h.dataLength}) does not fit in the packet length (${h.packetLength})`;
  }
  return undefined;
}

/**
 * Data types come in families of eight (`type >> 3`) with the format in the low three bits
 * (IRIG 106 Chapter 11, Table 11-4; pyChapter10 dispatches the same way).
 */
const FAMILIES = [
  'computer',
  'PCM',
  'time',
  '1553',
  'analog',
  'discrete',
  'message',
  'ARINC 429',
  'video',
  'image',
  'UART',
  'IEEE 1394',
  'parallel',
  'Ethernet',
  'TSPI/CTS',
] as const;

/** A data type as text: `0x09 PCM F1`, `0x01 computer F1 (TMATS)`, `0x7f` when unnamed. */
export function dataTypeName(type: number): string {
  const hex = `0x${type.toString(16).padStart(2, '0')}`;
  if (type === DATA_TYPE.tmats) return `${hex} computer F1 (TMATS)`;
  if (type === 0x78) return `${hex} CAN bus`;
  if (type === 0x79 || type === 0x7a) return `${hex} Fibre Channel F${type - 0x79}`;
  const family = FAMILIES[type >> 3];
  return family ? `${hex} ${family} F${type & 7}` : hex;
}

/** Computer-generated packets (TMATS, events, index): the recorder's own, on no data channel. */
export function isComputerGenerated(type: number): boolean {
  return type < 0x08;
}
