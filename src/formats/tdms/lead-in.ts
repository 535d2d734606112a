/**
 * A TDMS segment's lead-in: 28 bytes, the tag (`TDSm` in a data file, `TDSh` in an index
 * file), the ToC mask, the version, and the offsets of the next segment and of the raw
 * data, both from the end of the lead-in.
 */

export const TOC = {
  metaData: 1 << 1,
  newObjList: 1 << 2,
  rawData: 1 << 3,
  interleaved: 1 << 5,
  bigEndian: 1 << 6,
  daqmxRawData: 1 << 7,
} as const;

export const LEAD_IN = 28;
/** The next segment's offset of a segment never finished. */
export const ALL_ONES = 0xffff_ffff_ffff_ffffn;

export interface LeadIn {
  toc: number;
  version: number;
  /** The next segment's offset and the raw data's, from the end of the lead-in (u64: `lead64`). */
  next: number | bigint;
  raw: number | bigint;
}

/**
 * A u64 of a lead-in: a number when below 2^52 (any offset a file can hold, and a sum of
 * two of them stays exact), else a bigint (all ones: an unfinished segment; or damage, whose
 * message then gives it exactly). Read as bigints, the two offsets cost a walk two bigints a
 * segment, and their sums.
 */
function lead64(v: DataView, at: number, little: boolean): number | bigint {
  const hi = v.getUint32(little ? at + 4 : at, little);
  if (hi >= 0x10_0000) return v.getBigUint64(at, little);
  return hi * 0x1_0000_0000 + v.getUint32(little ? at : at + 4, little);
}

/** Whether `b` begins with the 4-letter `tag`, byte by byte: no string is made a segment. */
export function hasTag(b: Uint8Array, tag: string): boolean {
  return (
    b.byteLength >= 4 &&
    b[0] === tag.charCodeAt(0) &&
    b[1] === tag.charCodeAt(1) &&
    b[2] === tag.charCodeAt(2) &&
    b[3] === tag.charCodeAt(3)
  );
}

/** The bytes where a tag should be, as text for a message (fewer at the end of the file). */
export function tagOf(b: Uint8Array): string {
  return Buffer.from(b.subarray(0, 4)).toString('latin1');
}

/**
 * The tag and the ToC mask are always little-endian; the version and both offsets are in
 * the byte order the ToC's kTocBigEndian bit sets, as the rest of the segment is (npTDMS
 * reads them so; a big-endian LabVIEW target writes them so).
 */
export function parseLeadIn(b: Uint8Array, tag: string): LeadIn | string {
  if (!hasTag(b, tag)) return `no '${tag}' tag (found ${JSON.stringify(tagOf(b))})`;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const toc = v.getUint32(4, true);
  const little = (toc & TOC.bigEndian) === 0;
  return {
    toc,
    version: v.getUint32(8, little),
    next: lead64(v, 12, little),
    raw: lead64(v, 20, little),
  };
}
