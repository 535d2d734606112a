import { extname } from 'node:path';
import type { ByteSource } from './byte-source.js';

/** The file formats importkit can tell apart. */
export type FileFormat = 'csv' | 'parquet' | 'hdf5' | 'tdms' | 'ulog' | 'ch10' | 'unknown';

export interface Detection {
  format: FileFormat;
  /** True when the file is gzip-compressed (the format is then that of the content). */
  gzip: boolean;
  /** How the format was decided. */
  by: 'magic' | 'extension' | 'content';
}

const HDF5_MAGIC = [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, magic: readonly number[], at = 0): boolean {
  if (bytes.byteLength < at + magic.length) return false;
  return magic.every((b, i) => bytes[at + i] === b);
}
function ascii(s: string): number[] {
  return [...s].map((c) => c.charCodeAt(0));
}

const EXTENSIONS: Record<string, FileFormat> = {
  '.csv': 'csv',
  '.tsv': 'csv',
  '.txt': 'csv',
  '.parquet': 'parquet',
  '.pqt': 'parquet',
  '.h5': 'hdf5',
  '.hdf5': 'hdf5',
  '.he5': 'hdf5',
  '.nc': 'hdf5',
  '.tdms': 'tdms',
  '.ulg': 'ulog',
  '.ch10': 'ch10',
};

/**
 * Decides a file's format by its magic bytes first (`PAR1`, the HDF5 signature, `TDSm`,
 * `ULog`, gzip), then its extension, then by sniffing text. Reads at most the first 4 KiB
 * (and 4 bytes at the end for Parquet).
 */
export async function detectFormat(source: ByteSource): Promise<Detection> {
  const head = await source.read(0, Math.min(4096, source.size));
  const ext = extname(source.name.replace(/\.gz$/i, '')).toLowerCase();
  const gzip = startsWith(head, [0x1f, 0x8b]);
  if (gzip) {
    return {
      format: EXTENSIONS[ext] ?? 'csv',
      gzip: true,
      by: EXTENSIONS[ext] ? 'extension' : 'content',
    };
  }
  if (startsWith(head, ascii('PAR1'))) return { format: 'parquet', gzip: false, by: 'magic' };
  // HDF5's superblock may sit at 0, 512, 1024, 2048 ... (a user block precedes it).
  for (const at of [0, 512, 1024, 2048]) {
    if (startsWith(head, HDF5_MAGIC, at)) return { format: 'hdf5', gzip: false, by: 'magic' };
  }
  if (startsWith(head, ascii('TDSm'))) return { format: 'tdms', gzip: false, by: 'magic' };
  if (startsWith(head, ascii('ULog'))) return { format: 'ulog', gzip: false, by: 'magic' };
  if (startsWith(head, [0x25, 0xeb])) return { format: 'ch10', gzip: false, by: 'magic' };
  const byExt = EXTENSIONS[ext];
  if (byExt && byExt !== 'csv') return { format: byExt, gzip: false, by: 'extension' };
  if (looksLikeText(head))
    return { format: 'csv', gzip: false, by: byExt ? 'extension' : 'content' };
  return { format: 'unknown', gzip: false, by: 'content' };
}

/** True when the bytes look like text (UTF-8/UTF-16 with BOM, or no NULs and few control bytes). */
export function looksLikeText(bytes: Uint8Array): boolean {
  if (bytes.byteLength === 0) return true;
  if (
    startsWith(bytes, [0xef, 0xbb, 0xbf]) ||
    startsWith(bytes, [0xff, 0xfe]) ||
    startsWith(bytes, [0xfe, 0xff])
  ) {
    return true;
  }
  let control = 0;
  for (const b of bytes) {
    if (b === 0) return false;
    if (b < 0x09 || (b > 0x0d && b < 0x20)) control += 1;
  }
  return control / bytes.byteLength < 0.01;
}
