/**
 * CH10 (IRIG 106 Chapter 10) inspection: finds the first packet header (sync `0xEB25` and
 * a header checksum that matches), reads its TMATS setup record (computer-generated data,
 * format 1) and lists the recorder's channels: ID, name and data type. Only the first
 * packet is read; no npm package reads Chapter 10 files.
 */
import { type Issue, issue } from '../model/plain.js';
import { type ByteSource, openForInspection, refuseEmptyFile } from './byte-source.js';
import { type BaseProfile, type FieldProfile, InspectError } from './profile.js';

export interface Ch10Channel {
  /** The recorder group (`R-1`). */
  recorder: string;
  /** Channel ID (`R-x\TK1-n`). */
  channelId?: number;
  /** Data source ID (`R-x\DSI-n`): the channel's name. */
  name: string;
  /** Channel data type (`R-x\CDT-n`): PCMIN, 1553IN, ANAIN, TIMEIN, VIDIN ... */
  dataType: string;
  /** `R-x\CHE-n`: T or F. */
  enabled?: boolean;
}

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
  tmats: {
    programName?: string;
    recorderId?: string;
    /** `G\106`: the IRIG 106 release the record follows. */
    irig106?: string;
    /** Data conversion groups (`C-x\DCN`): how raw values scale to units. */
    conversions: number;
    attributes: Record<string, string>;
  };
  channels: Ch10Channel[];
}

const HEADER = 24;
const SECONDARY = 12;
const SEARCH = 1024 * 1024;
/** A TMATS record larger than this is refused (memory stays bounded). */
const MAX_TMATS = 16 * 1024 * 1024;

/** Inspects a CH10 file. Throws InspectError for non-CH10, truncated or TMATS-less files. */
export async function inspectCh10(path: string): Promise<Ch10Profile> {
  const source = await openForInspection(path);
  try {
    return { ...(await inspectCh10Source(source)), file: { path, size: source.size } };
  } finally {
    await source.close();
  }
}

interface Header {
  channelId: number;
  packetLength: number;
  dataLength: number;
  dataTypeVersion: number;
  flags: number;
  dataType: number;
  checksumOk: boolean;
}

function headerAt(b: Uint8Array, at: number): Header | undefined {
  if (at + HEADER > b.byteLength || b[at] !== 0x25 || b[at + 1] !== 0xeb) return undefined;
  const v = new DataView(b.buffer, b.byteOffset + at, HEADER);
  let sum = 0;
  for (let i = 0; i < 22; i += 2) sum = (sum + v.getUint16(i, true)) & 0xffff;
  return {
    channelId: v.getUint16(2, true),
    packetLength: v.getUint32(4, true),
    dataLength: v.getUint32(8, true),
    dataTypeVersion: v.getUint8(12),
    flags: v.getUint8(14),
    dataType: v.getUint8(15),
    checksumOk: sum === v.getUint16(22, true),
  };
}

/** The first header whose checksum matches, else the one at byte 0 (checksum reported). */
function findSync(head: Uint8Array): { at: number; header: Header } | undefined {
  for (let at = 0; at + 1 < head.byteLength; at++) {
    if (head[at] !== 0x25 || head[at + 1] !== 0xeb) continue;
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
export async function inspectCh10Source(source: ByteSource): Promise<Ch10Profile> {
  refuseEmptyFile(source);
  const file = source.name;
  const head = await source.read(0, Math.min(SEARCH, source.size));
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
      `${file}: not a CH10 file (no packet header with sync 0xEB25 in the first ${Math.min(SEARCH, source.size)} bytes)`,
      'Check that this is the recording you meant.',
    );
  }
  const { at, header } = found;
  const issues: Issue[] = [];
  if (!header.checksumOk) {
    issues.push(
      issue(
        'ch10_header_checksum',
        '',
        `${file}: the first packet header's checksum does not match its words`,
        { source: { file } },
      ),
    );
  }
  if (header.dataType !== 0x01) {
    throw ch10Error(
      file,
      'ch10_tmats_missing',
      `${file}: the first packet (channel ${header.channelId}) has data type 0x${header.dataType.toString(16).padStart(2, '0')}, not a TMATS setup record (0x01)`,
      'IRIG 106 requires the TMATS record first; check the recording.',
    );
  }
  const tmats = await readTmats(source, head, at, header);
  const attributes = parseTmats(tmats);
  const channels = channelsOf(attributes);
  if (channels.length === 0) {
    issues.push(
      issue('ch10_no_channels', '', `${file}: the TMATS record lists no recorder data sources`, {
        source: { file },
      }),
    );
  }
  return {
    format: 'ch10',
    file: { path: file, size: source.size },
    bytesRead: source.bytesRead,
    fields: channels.map(fieldOf),
    issues,
    syncOffset: at,
    firstPacket: {
      channelId: header.channelId,
      packetLength: header.packetLength,
      dataLength: header.dataLength,
      dataType: header.dataType,
      dataTypeVersion: header.dataTypeVersion,
      secondaryHeader: (header.flags & 0x80) !== 0,
    },
    tmats: tmatsSummary(attributes),
    channels,
  };
}

/** The TMATS text of the first packet (after the 4-byte channel-specific word). */
async function readTmats(
  source: ByteSource,
  head: Uint8Array,
  at: number,
  header: Header,
): Promise<string> {
  const file = source.name;
  const start = at + HEADER + ((header.flags & 0x80) !== 0 ? SECONDARY : 0) + 4;
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

/** TMATS `CODE:value;` attributes, in order; later duplicates win. */
export function parseTmats(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(';')) {
    const entry = raw.replace(/^[\s\0]+/, '');
    const colon = entry.indexOf(':');
    if (colon <= 0) continue;
    const code = entry.slice(0, colon).trim();
    if (!/^[A-Za-z]/.test(code) || code.length > 64) continue;
    out[code] = entry.slice(colon + 1).trim();
  }
  return out;
}

function channelsOf(attributes: Record<string, string>): Ch10Channel[] {
  const recorders = Object.keys(attributes)
    .map((k) => /^(R-\d+)\\ID$/.exec(k)?.[1] ?? /^(R-\d+)\\N$/.exec(k)?.[1])
    .filter((r): r is string => r !== undefined);
  const channels: Ch10Channel[] = [];
  for (const r of [...new Set(recorders)]) {
    const n = Number(attributes[`${r}\\N`] ?? 0);
    for (let i = 1; Number.isInteger(n) && i <= Math.min(n, 65535); i++) {
      const get = (code: string) => attributes[`${r}\\${code}-${i}`];
      const id = get('TK1');
      const enabled = get('CHE');
      const channel: Ch10Channel = {
        recorder: r,
        name: get('DSI') ?? `${r} source ${i}`,
        dataType: get('CDT') ?? '',
      };
      if (id !== undefined && /^\d+$/.test(id)) channel.channelId = Number(id);
      if (enabled !== undefined) channel.enabled = enabled.toUpperCase() === 'T';
      channels.push(channel);
    }
  }
  return channels;
}

function tmatsSummary(attributes: Record<string, string>): Ch10Profile['tmats'] {
  const out: Ch10Profile['tmats'] = {
    conversions: Object.keys(attributes).filter((k) => /^C-[^\\]+\\DCN$/.test(k)).length,
    attributes,
  };
  const pn = attributes['G\\PN'];
  const id = attributes['R-1\\ID'];
  const irig = attributes['G\\106'];
  if (pn !== undefined) out.programName = pn;
  if (id !== undefined) out.recorderId = id;
  if (irig !== undefined) out.irig106 = irig;
  return out;
}

function fieldOf(c: Ch10Channel): FieldProfile {
  return {
    name: c.name,
    path: c.channelId === undefined ? c.recorder : `${c.recorder}/${c.channelId}`,
    physicalType: c.dataType,
    samples: [],
  };
}
