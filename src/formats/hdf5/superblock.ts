import type { ByteSource } from '../../inspect/shared.js';

/**
 * The few facts of an HDF5 superblock needed to refuse a file before the HDF5 library sees
 * it: where the signature is, the superblock version, and the end-of-file address (a file
 * shorter than that address was cut short). Read through the byte source in at most a few
 * small reads.
 */
export interface Superblock {
  /** Byte offset of the signature (0, or 512, 1024, 2048 ... after a user block). */
  offset: number;
  version: number;
  sizeOfOffsets: number;
  /** Absolute address the superblock's addresses are relative to. */
  baseAddress: number;
  /** The end-of-file address (relative to the base), undefined when the writer left it undefined. */
  endOfFileAddress?: number;
}

export type SuperblockProblem =
  | { kind: 'empty' }
  | { kind: 'signature' }
  | { kind: 'invalid'; detail: string }
  | { kind: 'truncated'; expected: number; actual: number };

export const HDF5_SIGNATURE = [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a] as const;

/** Signature offsets searched: 0, then 512 doubling, up to this many bytes into the file. */
const MAX_SIGNATURE_OFFSET = 1 << 20;

function isSignature(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 8 && HDF5_SIGNATURE.every((b, i) => bytes[i] === b);
}

function readAddress(bytes: Uint8Array, at: number, size: number): number | undefined {
  let value = 0n;
  let allOnes = true;
  for (let i = size - 1; i >= 0; i--) {
    const b = bytes[at + i] ?? 0;
    if (b !== 0xff) allOnes = false;
    value = (value << 8n) | BigInt(b);
  }
  if (allOnes) return undefined;
  return value > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(value);
}

/** Finds and checks the superblock. Returns the problem instead of throwing. */
export async function readSuperblock(
  source: ByteSource,
): Promise<{ ok: true; superblock: Superblock } | { ok: false; problem: SuperblockProblem }> {
  if (source.size === 0) return { ok: false, problem: { kind: 'empty' } };
  let offset = -1;
  for (
    let at = 0;
    at + 8 <= source.size && at <= MAX_SIGNATURE_OFFSET;
    at = at === 0 ? 512 : at * 2
  ) {
    if (isSignature(await source.read(at, 8))) {
      offset = at;
      break;
    }
  }
  if (offset < 0) return { ok: false, problem: { kind: 'signature' } };
  const head = await source.read(offset, 128);
  const version = head[8];
  if (version === undefined) {
    return { ok: false, problem: { kind: 'truncated', expected: offset + 9, actual: source.size } };
  }
  let sizeOfOffsets: number;
  let addressesAt: number;
  if (version === 0 || version === 1) {
    sizeOfOffsets = head[13] ?? 0;
    addressesAt = version === 0 ? 24 : 28;
  } else if (version === 2 || version === 3 || version === 4) {
    sizeOfOffsets = head[9] ?? 0;
    addressesAt = 12;
  } else {
    return {
      ok: false,
      problem: { kind: 'invalid', detail: `unknown superblock version ${version}` },
    };
  }
  if (![2, 4, 8].includes(sizeOfOffsets)) {
    return {
      ok: false,
      problem: { kind: 'invalid', detail: `size of offsets ${sizeOfOffsets} (2, 4 or 8 expected)` },
    };
  }
  const needed = addressesAt + 3 * sizeOfOffsets;
  if (head.byteLength < needed) {
    return {
      ok: false,
      problem: { kind: 'truncated', expected: offset + needed, actual: source.size },
    };
  }
  // A user block before the superblock: the library takes the superblock's own offset as
  // the base when the recorded base address is below it.
  const recorded = readAddress(head, addressesAt, sizeOfOffsets) ?? 0;
  const baseAddress = Math.max(recorded, offset);
  const endOfFileAddress = readAddress(head, addressesAt + 2 * sizeOfOffsets, sizeOfOffsets);
  const superblock: Superblock = {
    offset,
    version,
    sizeOfOffsets,
    baseAddress,
    ...(endOfFileAddress === undefined ? {} : { endOfFileAddress }),
  };
  if (endOfFileAddress !== undefined && baseAddress + endOfFileAddress > source.size) {
    return {
      ok: false,
      problem: { kind: 'truncated', expected: baseAddress + endOfFileAddress, actual: source.size },
    };
  }
  return { ok: true, superblock };
}
