/**
 * Parquet inspection from the footer alone.
 *
 * Which package decodes the footer, and why: hyparquet. It decodes the raw Thrift footer
 * from bytes we read ourselves (`parquetMetadata(tail)`), in pure JS and in a few ms, and
 * gives everything a ParquetConfig needs: the Parquet schema tree with physical, converted
 * and logical types (signed or unsigned integers, DECIMAL, INT96, FLOAT16, UUID, nested
 * groups), per-row-group statistics (min / max / null count, used to judge a time column's
 * unit and the data's time range) and the page offsets of every column chunk (for the one
 * small page that inference may read). parquet-wasm's `readSchema(footer)` also reads just
 * the footer, but returns only the Arrow schema converted from it: no statistics, no page
 * offsets, and Parquet's own types folded into Arrow's; it would also load a 4 MB wasm
 * module for a job of a few KiB.
 *
 * Arrow field metadata (units, descriptions, the platform's embedded channel configs)
 * lives in the footer's `ARROW:schema` entry (a base64 Arrow IPC schema message), decoded
 * by a small flatbuffer reader of our own (`arrow-schema.ts`, see `readArrowFieldMetadata`).
 */

import type { SchemaTree } from 'hyparquet';
import { type ByteSource, openForInspection, refuseEmptyFile } from '../../inspect/shared.js';
import type { Issue } from '../../model/plain.js';
import { readColumnHead } from './column-head.js';
import { type ParquetFooter, readParquetFooter } from './footer.js';
import { fieldProfile, readArrowFieldMetadata } from './inspect-fields.js';
import type { ParquetFieldProfile, ParquetProfile } from './profile.js';

/** Reads the footer of a Parquet file and nothing else. */
export async function inspectParquet(path: string): Promise<ParquetProfile> {
  const source = await openForInspection(path);
  try {
    return (await inspectParquetSource(source)).profile;
  } finally {
    await source.close();
  }
}

/** The profile plus what inference needs to read one page more. */
export interface ParquetInspection {
  profile: ParquetProfile;
  footer: ParquetFooter;
}

/** Inspects through a byte source (tests wrap it in a counter). */
export async function inspectParquetSource(source: ByteSource): Promise<ParquetInspection> {
  refuseEmptyFile(source);
  const footer = await readParquetFooter(source);
  const { metadata } = footer;
  const issues: Issue[] = [];
  const arrow = readArrowFieldMetadata(metadata);
  const leafIndex = new Map<string, number>();
  let leafNo = 0;
  const walk = (node: SchemaTree) => {
    if (node.children.length === 0) leafIndex.set(node.path.join('\u0000'), leafNo++);
    for (const c of node.children) walk(c);
  };
  for (const c of footer.tree.children) walk(c);

  const fields = footer.tree.children.map((node, index) =>
    fieldProfile(node, index, metadata, leafIndex, arrow.get(node.element.name)),
  );
  const profile: ParquetProfile = {
    format: 'parquet',
    file: { path: source.name, size: source.size },
    bytesRead: source.bytesRead,
    rowCount: Number(metadata.num_rows),
    fields,
    issues,
    footerOffset: String(footer.footerOffset),
    footerLength: footer.footerLength,
    rowGroups: metadata.row_groups.length,
    metadataKeys: (metadata.key_value_metadata ?? []).map((kv) => kv.key),
    ...(metadata.created_by ? { createdBy: metadata.created_by } : {}),
  };
  return { profile, footer };
}

/**
 * The profile `importkit inspect` prints: samples are in the pages, not the footer, so the
 * first page of each flat column without samples gives some (reads a little more).
 */
export async function inspectParquetWithSamples(path: string): Promise<ParquetProfile> {
  const source = await openForInspection(path);
  try {
    const { profile, footer } = await inspectParquetSource(source);
    const fields: ParquetFieldProfile[] = [];
    for (const f of profile.fields) {
      const head =
        f.samples.length === 0 && f.name ? await readColumnHead(source, footer, f.name) : undefined;
      fields.push(head && 'values' in head ? { ...f, samples: head.values.slice(0, 3) } : f);
    }
    return { ...profile, fields, bytesRead: source.bytesRead };
  } finally {
    await source.close();
  }
}
