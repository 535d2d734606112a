/**
 * The members of a plain (uncompressed) tar by their offsets: the 512-byte headers are read
 * one after another with positioned reads, skipping each member's data, so a member is then
 * read in place over its byte range, like a stored zip member. Long names and large sizes
 * are read from PAX extended headers (`x`) and GNU long-name records (`L`).
 */
import type { ByteSource } from '../byte-source.js';

const BLOCK = 512;

/** One regular file of a tar: its name, its size and where its bytes start in the archive. */
export interface TarMember {
  path: string;
  size: number;
  dataStart: number;
}

/** A damaged tar, naming the member being read when there is one. */
export class TarError extends Error {
  constructor(
    readonly member: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

function text(block: Uint8Array, from: number, length: number): string {
  const field = block.subarray(from, from + length);
  const nul = field.indexOf(0);
  return Buffer.from(field.subarray(0, nul < 0 ? length : nul)).toString('utf8');
}

/** A numeric field: octal text, or base-256 when its first byte has the high bit set. */
function number(block: Uint8Array, from: number, length: number): number {
  const first = block[from] ?? 0;
  if (first & 0x80) {
    let n = first & 0x7f;
    for (let i = from + 1; i < from + length; i++) n = n * 256 + (block[i] ?? 0);
    return n;
  }
  const digits = text(block, from, length).trim();
  return digits === '' ? 0 : Number.parseInt(digits, 8);
}

function checksumOk(block: Uint8Array): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (block[i] ?? 0);
  return sum === number(block, 148, 8);
}

/** The records of a PAX extended header (`<length> <key>=<value>\n` each). */
function paxRecords(data: Uint8Array): Map<string, string> {
  const out = new Map<string, string>();
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  let at = 0;
  while (at < buf.byteLength) {
    const space = buf.indexOf(0x20, at);
    if (space < 0) break;
    const length = Number.parseInt(buf.toString('latin1', at, space), 10);
    if (!Number.isInteger(length) || length <= 0) break;
    const record = buf.toString('utf8', space + 1, at + length - 1);
    const eq = record.indexOf('=');
    if (eq > 0) out.set(record.slice(0, eq), record.slice(eq + 1));
    at += length;
  }
  return out;
}

/** What one header says, with the names and sizes of the records before it applied. */
interface Header {
  name: string;
  size: number;
  type: string;
}

function parseHeader(block: Uint8Array, pax: Map<string, string>, longName: string | undefined) {
  const type = String.fromCharCode(block[156] ?? 0);
  const ustar = text(block, 257, 6) === 'ustar';
  const prefix = ustar && block[263] === 0x30 ? text(block, 345, 155) : '';
  let name = text(block, 0, 100);
  if (prefix) name = `${prefix}/${name}`;
  name = pax.get('path') ?? longName ?? name;
  const paxSize = pax.get('size');
  const size = paxSize !== undefined ? Number(paxSize) : number(block, 124, 12);
  return { name, size, type } satisfies Header;
}

const FILE_TYPES = new Set(['0', '\0', '7']);

/**
 * Every regular file of the tar in `source`, in archive order. Throws TarError when a
 * header is damaged or a member runs past the end of the archive (a truncated tar).
 */
export async function tarMembers(source: ByteSource): Promise<TarMember[]> {
  const members: TarMember[] = [];
  let at = 0;
  let pax = new Map<string, string>();
  let longName: string | undefined;
  let last: string | undefined;
  while (at + BLOCK <= source.size) {
    const block = await source.read(at, BLOCK);
    if (block.every((b) => b === 0)) return members;
    if (!checksumOk(block)) throw new TarError(last, `bad header checksum at byte ${at}`);
    const header = parseHeader(block, pax, longName);
    last = header.name;
    const dataStart = at + BLOCK;
    if (!Number.isSafeInteger(header.size) || header.size < 0)
      throw new TarError(last, `bad member size at byte ${at}`);
    if (dataStart + header.size > source.size)
      throw new TarError(last, 'the member runs past the end of the archive');
    if (header.type === 'x' || header.type === 'L') {
      const data = await source.read(dataStart, header.size);
      if (header.type === 'x') pax = paxRecords(data);
      else longName = text(data, 0, data.byteLength);
    } else {
      if (FILE_TYPES.has(header.type))
        members.push({ path: header.name, size: header.size, dataStart });
      pax = new Map();
      longName = undefined;
    }
    at = dataStart + Math.ceil(header.size / BLOCK) * BLOCK;
  }
  if (at < source.size || members.length === 0)
    throw new TarError(last, 'the archive ends inside a header');
  return members;
}
