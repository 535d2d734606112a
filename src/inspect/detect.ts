import { extname } from 'node:path';
import { type FormatEntry, formats } from '../formats/index.js';
import type { ByteSource } from './byte-source.js';
import type { FileFormat } from './profile.js';

export interface Detection {
  format: FileFormat;
  /** True when the file is gzip-compressed (the format is then that of the content). */
  gzip: boolean;
  /** How the format was decided. */
  by: 'magic' | 'extension' | 'content';
}

function startsWith(bytes: Uint8Array, magic: readonly number[], at = 0): boolean {
  if (bytes.byteLength < at + magic.length) return false;
  return magic.every((b, i) => bytes[at + i] === b);
}

function hasMagic(head: Uint8Array, format: FormatEntry): boolean {
  return (format.magic ?? []).some((m) =>
    (m.at ?? [0]).some((at) => startsWith(head, m.bytes, at)),
  );
}

function byExtension(formats: readonly FormatEntry[], ext: string): FormatEntry | undefined {
  return formats.find((f) => f.extensions.includes(ext));
}

/**
 * Decides a file's format from the format table: by its magic bytes first (`PAR1`, the
 * HDF5 signature, `TDSm`, `ULog`, gzip), then its extension, then by sniffing text (text
 * of no known extension is read as the first text format, CSV). Reads at most the first
 * 4 KiB.
 */
export async function detectFormat(source: ByteSource): Promise<Detection> {
  const head = await source.read(0, Math.min(4096, source.size));
  const ext = extname(source.name.replace(/\.gz$/i, '')).toLowerCase();
  const named = byExtension(formats(), ext);
  const text = formats().find((f) => f.text);
  if (startsWith(head, [0x1f, 0x8b])) {
    return {
      format: named?.id ?? text?.id ?? 'unknown',
      gzip: true,
      by: named ? 'extension' : 'content',
    };
  }
  const magic = formats().find((f) => hasMagic(head, f));
  if (magic) return { format: magic.id, gzip: false, by: 'magic' };
  if (named && !named.text) return { format: named.id, gzip: false, by: 'extension' };
  if (looksLikeText(head)) {
    const format = named ?? text;
    if (format) return { format: format.id, gzip: false, by: named ? 'extension' : 'content' };
  }
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
