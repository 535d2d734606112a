/** The tools that read a data file alone: inspect, infer (a draft config) and normalize. */
import { basename } from 'node:path';
import { z } from 'zod';
import { writeFileSafely } from '../../files/index.js';
import { hasErrors } from '../../model/plain.js';
import { fail } from '../failure.js';
import {
  bounded,
  Counts,
  CSV_ARGS,
  counts,
  countsText,
  IssueOut,
  issueOut,
  PAGE_ARGS,
  Page,
  page,
} from '../shapes.js';
import { tool } from '../tool.js';

const PATH_ARG = z.string().describe('a data file, or a batch folder or archive, inside the roots');
const FULL_ARG = z
  .boolean()
  .optional()
  .describe(
    'read the whole file (long: progress is reported) instead of its head and a few slices',
  );

/** The keys of a profile answered apart from its format details. */
const PROFILE_KEYS = new Set(['format', 'file', 'bytesRead', 'rowCount', 'fields', 'issues']);

export const inspectTool = tool({
  name: 'inspect',
  title: 'Inspect a data file',
  description:
    'What a data file holds (CSV, Parquet, HDF5, TDMS, CH10, ULog; gzip too): its columns, datasets or channels with types, empty counts and samples, and format details (CSV dialect, Parquet footer, HDF5 tree ...). For a batch folder or archive (zip, tar, tar.gz): its members with their formats. Reads only the parts it needs.',
  input: z.strictObject({ path: PATH_ARG, full: FULL_ARG, ...CSV_ARGS, ...PAGE_ARGS }),
  output: z.object({
    kind: z.enum(['file', 'batch']),
    format: z
      .string()
      .optional()
      .describe("the file's format: csv, parquet, hdf5, tdms, ch10, ulog"),
    size: z.number().optional(),
    bytesRead: z.number().optional().describe('bytes read to build the profile'),
    rowCount: z.number().optional(),
    details: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'format details (dialect, layout, footer, tree ...); long lists are cut with a count',
      ),
    fields: Page(z.record(z.string(), z.unknown())).optional(),
    container: z.string().optional().describe('a batch: folder, zip, tar or tar.gz'),
    members: Page(
      z.object({
        path: z.string(),
        size: z.number(),
        format: z.string().optional(),
        leftOut: z.string().optional().describe('why a batch leaves it out'),
      }),
    ).optional(),
    issues: Page(IssueOut),
  }),
  readOnly: true,
  async run(args, { sandbox, apart }) {
    const data = await sandbox.readable(args.path);
    const found = await apart('inspect', { data, args });
    if (found.kind === 'batch') {
      const data_ = found.members.filter((m) => !m.leftOut).length;
      return {
        value: {
          kind: 'batch' as const,
          container: found.container,
          members: page(found.members, args),
          issues: page([], args),
        },
        text: `${data.shown}: a ${found.container} of ${found.members.length} files, ${data_} of them data`,
      };
    }
    const { profile } = found;
    const details = Object.fromEntries(
      Object.entries(profile).filter(([k]) => !PROFILE_KEYS.has(k)),
    );
    const value = {
      kind: 'file' as const,
      format: profile.format,
      size: profile.file.size,
      bytesRead: profile.bytesRead,
      ...(profile.rowCount !== undefined ? { rowCount: profile.rowCount } : {}),
      details: bounded(details) as Record<string, unknown>,
      fields: page(
        profile.fields.map((f) => bounded(f, 10) as Record<string, unknown>),
        args,
      ),
      issues: page(profile.issues.map(issueOut), args),
    };
    const rows = profile.rowCount === undefined ? '' : `, ${profile.rowCount} rows`;
    return {
      value,
      text: `${data.shown}: ${profile.format.toUpperCase()}, ${profile.file.size} bytes, ${profile.fields.length} fields${rows} (read ${profile.bytesRead} bytes); ${countsText(profile.issues)}`,
    };
  },
});

/** A draft's document is answered whole up to this size (JSON); past it, only its file holds it. */
const DOCUMENT_BYTES = 100_000;

const Evidence = z.object({
  path: z.string().describe('JSON pointer into the draft'),
  choice: z.string(),
  reason: z.string(),
  confidence: z.enum(['high', 'medium', 'low']),
  alternatives: z.array(z.string()).optional(),
});

export const inferTool = tool({
  name: 'infer',
  title: 'Infer a draft config',
  description:
    'Infers a draft config for a data file (or a batchConfig for a folder or archive), with the evidence and confidence of each choice and the issues still open. Writes the draft as JSON into the output folder (pass it to check as configPath); answers the document itself when it is small. Options override a choice.',
  input: z.strictObject({
    path: PATH_ARG,
    assetName: z.string().min(1).optional(),
    runName: z.string().min(1).optional(),
    timeColumn: z
      .union([z.number().int().min(1), z.string().min(1)])
      .optional()
      .describe('the time column: 1-based number or name (CSV, Parquet)'),
    timeFormat: z
      .string()
      .optional()
      .describe('e.g. ABSOLUTE_RFC3339, ABSOLUTE_UNIX_MILLISECONDS, RELATIVE_SECONDS'),
    relativeStartTime: z.string().optional().describe('RFC 3339 start of relative times'),
    ...CSV_ARGS,
    layout: z
      .enum(['flat', 'single-channel', 'multi-channel'])
      .optional()
      .describe('Parquet layout'),
    complexTypes: z
      .enum(['IGNORE', 'BOTH', 'STRING', 'BYTES'])
      .optional()
      .describe('Parquet complexTypesImportMode'),
    timeDataset: z.string().optional().describe('HDF5: the time dataset'),
    full: FULL_ARG,
    defaults: z
      .boolean()
      .optional()
      .describe('batch: fold configs shared by several files into default*Config (default true)'),
    output: z
      .string()
      .optional()
      .describe('file name of the draft in the output folder (default <file>.draft.json)'),
    ...PAGE_ARGS,
  }),
  output: z.object({
    kind: z.string().describe('the config kind: csv, parquet, hdf5, tdms, ulog, ch10, batch'),
    draft: z
      .string()
      .describe('the draft written (JSON): give it to check or preview as configPath'),
    document: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('the draft document; absent when larger than 100 kB (read the draft file)'),
    documentBytes: z.number().int(),
    valid: z.boolean().describe('the draft has no error'),
    counts: Counts,
    evidence: Page(Evidence),
    issues: Page(IssueOut),
  }),
  readOnly: true,
  async run(args, { sandbox, apart }) {
    const data = await sandbox.readable(args.path);
    const { offset: _o, limit: _l, output: name, defaults, ...read } = args;
    const draft = await apart('infer', { data, args: read, defaults: defaults !== false });
    const text = `${JSON.stringify(draft.document, null, 2)}\n`;
    const target = await sandbox.output(name, `${basename(data.path)}.draft.json`, [data.path]);
    await writeFileSafely(target, text);
    const bytes = Buffer.byteLength(text);
    const valid = !hasErrors(draft.issues);
    return {
      value: {
        kind: draft.kind,
        draft: target,
        ...(bytes <= DOCUMENT_BYTES ? { document: draft.document as Record<string, unknown> } : {}),
        documentBytes: bytes,
        valid,
        counts: counts(draft.issues),
        evidence: page(draft.evidence, args),
        issues: page(draft.issues.map(issueOut), args),
      },
      text: `draft ${draft.kind} config for ${data.shown} written to ${target}; ${countsText(draft.issues)}`,
    };
  },
});

export const normalizeTool = tool({
  name: 'normalize',
  title: 'Normalize a CSV file',
  description:
    'Writes a copy of a CSV file the platform reads (into the output folder): decimal commas become dots, thousands separators go, a date and a time column become one RFC 3339 column, AM/PM and zone names become RFC 3339, the delimiter becomes a comma, a BOM, trailing empty columns and repeated headers go. Then infers the copy’s draft. Never writes over the input.',
  input: z.strictObject({
    path: z.string().describe('the CSV file, inside the roots'),
    output: z
      .string()
      .optional()
      .describe('file name of the copy in the output folder (default <file>.normalized.csv)'),
    timezone: z
      .string()
      .optional()
      .describe('IANA zone of local times (e.g. Europe/Berlin); default UTC'),
    firstDataRow: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("the first data row, from a draft's csvConfig"),
    ...CSV_ARGS,
  }),
  output: z.object({
    output: z.string().describe('the copy written'),
    bytesIn: z.number(),
    bytesOut: z.number(),
    delimiter: z.string().describe("the input's delimiter"),
    bomDropped: z.boolean(),
    trailingColumnsDropped: z.number().int(),
    joined: z
      .array(z.number().int())
      .optional()
      .describe('the two columns joined into one time column'),
    timezone: z.string(),
    changes: z.record(z.string(), z.number()).describe('how many of each change were made'),
    draft: z.object({ valid: z.boolean(), counts: Counts, codes: z.array(z.string()) }),
  }),
  readOnly: true,
  async run(args, { sandbox, apart }) {
    const data = await sandbox.readable(args.path);
    if (data.folder) throw fail('not_a_file', `${data.shown} is a folder`, 'give a CSV file');
    const { output: name, ...rest } = args;
    const target = await sandbox.output(
      name,
      `${basename(data.path).replace(/\.csv$/i, '')}.normalized.csv`,
      [data.path],
    );
    const done = await apart('normalize', { data, output: target, args: rest });
    const r = done.report;
    return {
      value: {
        output: target,
        bytesIn: r.bytesIn,
        bytesOut: r.bytesOut,
        delimiter: r.delimiter,
        bomDropped: r.bomDropped,
        trailingColumnsDropped: r.trailingColumnsDropped,
        ...(r.joined ? { joined: [...r.joined] } : {}),
        timezone: r.timezone,
        changes: { ...r.counts },
        draft: {
          valid: !hasErrors(done.issues),
          counts: counts(done.issues),
          codes: [...new Set(done.issues.filter((i) => i.severity !== 'info').map((i) => i.code))],
        },
      },
      text: `wrote ${target} (${r.bytesOut} bytes from ${r.bytesIn}); its draft: ${countsText(done.issues)}`,
    };
  },
});
