/**
 * Preview: a config × its data file → one self-contained HTML page that shows the data as
 * the config will read it: the time axis (with what is wrong with it in red), one plot per
 * channel from a min/max decimation of the rows read, the config with each issue beside
 * its line, and the inference evidence. The public entry of this stage. It has no parser
 * of its own: the rows come from the check stage's readers (`readConfigRows`).
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import {
  type ConfigRows,
  type RowBatch,
  readConfigRows,
  readConfigTimeline,
} from '../check/index.js';
import type { Evidence } from '../infer/index.js';
import { detectFormat, formatOfConfigKey, openForInspection } from '../inspect/index.js';
import { CONFIG_KINDS, type ConfigKind, type ImportDocument, kindOfKey } from '../model/index.js';
import type { Issue } from '../model/plain.js';
import { parseConfigSource } from '../validate/index.js';
import { AxisDecimator } from './decimate.js';
import { type ChannelView, type PageModel, renderPage } from './html.js';
import { ChannelStats, TimeStats } from './stats.js';
import { type TimeView, timeFindings } from './time.js';

export type { Finding, TimeView } from './time.js';
export { isoTime } from './time.js';

export interface PreviewInput {
  /** The config document (canonical: camelCase, full enum names). */
  document: ImportDocument;
  /** The data file it imports. */
  dataPath: string;
  /** The data file's name as shown (default: its base name). */
  dataName?: string;
  /** The config as written (YAML or JSON), shown with each issue beside its line. */
  configText: string;
  /** The config's file name as shown. */
  configName: string;
  /** The config's issues: validation and `checkConfig`'s (their verdict heads the page). */
  issues: readonly Issue[];
  /** Inference evidence, shown as a table (`infer --preview`). */
  evidence?: readonly Evidence[];
  /** Read every row (streamed, memory bounded) instead of the head and a few slices. */
  full?: boolean;
  /** Progress of full reads: done of total (bytes for CSV, rows for the others). */
  onProgress?: (done: number, total: number) => void;
}

export interface Preview {
  /** The page: scripts and styles inlined, nothing fetched. */
  html: string;
  /** Rows read and whether they were all of the file's. */
  rows: number;
  complete: boolean;
  /** What the page could not show, in words (also on the page). */
  notes: string[];
  /**
   * The time axis as the page shows it (first and last time, median step, the findings
   * marked bad); undefined when no rows were read.
   */
  time: TimeView | undefined;
}

/** The note of a config kind whose rows no reader reads (its entry in the format table may say why). */
function noRowsNote(kind: ConfigKind | undefined): string {
  const note = kind ? formatOfConfigKey(CONFIG_KINDS[kind].key)?.noRowsNote : undefined;
  if (note) return note;
  return `importkit cannot read the rows of a ${kind ? CONFIG_KINDS[kind].title : 'document of this kind'} yet`;
}

/** Buckets per axis for this many plotted channels: the page stays small (< 1 MB for 100). */
function bucketsFor(channels: number): number {
  return Math.max(100, Math.min(1000, Math.floor(30_000 / Math.max(1, channels))));
}

/**
 * Builds the preview page of a config and its data file. Throws InspectError when the
 * file cannot be read.
 */
export async function buildPreview(input: PreviewInput): Promise<Preview> {
  const file = await describeFile(input.dataPath);
  const rows = await readConfigRows(input.document, input.dataPath, {
    ...(input.full ? { full: true } : {}),
    ...(input.onProgress ? { onProgress: input.onProgress } : {}),
  });
  const gathered = rows ? await gather(rows) : undefined;
  const timeline = rows ? undefined : await readConfigTimeline(input.document, input.dataPath);
  const issues = locateIssues(input.issues, input.configText, input.configName);
  const key = Object.keys(input.document).find((k) => kindOfKey(k) !== undefined);
  const kind = key ? kindOfKey(key) : undefined;
  const config = (key ? (input.document as Record<string, unknown>)[key] : {}) as Record<
    string,
    unknown
  >;
  const model: PageModel = {
    file: { name: input.dataName ?? basename(input.dataPath), ...file },
    configName: input.configName,
    kind: kind ? CONFIG_KINDS[kind].title : 'unknown',
    assetName: typeof config.assetName === 'string' ? config.assetName : undefined,
    runName: typeof config.runName === 'string' ? config.runName : undefined,
    issues,
    configText: input.configText,
    evidence: input.evidence ?? [],
    rows: gathered?.read.rows ?? 0,
    complete: gathered?.read.complete ?? false,
    notes: gathered?.read.notes ?? [noRowsNote(kind)],
    time: gathered
      ? timeFindings(gathered.time, rows?.timeFormat, rows?.relativeStartTime, issues)
      : undefined,
    channels: gathered?.channels ?? [],
    axes: gathered?.axes ?? [],
    timeline,
  };
  return {
    html: renderPage(model),
    rows: model.rows,
    complete: model.complete,
    notes: model.notes,
    time: model.time,
  };
}

async function describeFile(path: string): Promise<{ format: string; size: number }> {
  const source = await openForInspection(path);
  try {
    const { format } = await detectFormat(source);
    return { format, size: (await stat(path)).size };
  } finally {
    await source.close();
  }
}

/** Streams the rows into the decimators and the stats. */
async function gather(rows: ConfigRows) {
  const stats = rows.channels.map(() => new ChannelStats());
  const time = new TimeStats();
  const axisCount = rows.channels.reduce((n, c) => Math.max(n, c.axis + 1), 0);
  const decimators: AxisDecimator[] = [];
  for (let a = 0; a < axisCount; a++) {
    const numeric = rows.channels.flatMap((c, i) =>
      c.axis === a && c.values === 'number' ? [i] : [],
    );
    decimators.push(new AxisDecimator(numeric, bucketsFor(rows.channels.length)));
  }
  const read = await rows.read((batch: RowBatch) => {
    time.add(batch);
    decimators[batch.axis]?.add(batch);
    batch.channels.forEach((c, k) => {
      const col = batch.columns[k];
      const s = stats[c];
      if (!s || !col) return;
      if (col instanceof Float64Array) s.addNumbers(col, batch.length);
      else s.addText(col, batch.times, batch.length);
    });
  });
  const decimated = decimators.map((d) => d.result());
  const channels: ChannelView[] = rows.channels.map((c, i) => ({
    channel: c,
    stats: stats[i] as ChannelStats,
    y: decimated[c.axis]?.y.get(i),
  }));
  return { read, time, channels, axes: decimated.map((d) => d.x) };
}

/** Issues with the config line their pointer names (those that have none yet). */
function locateIssues(issues: readonly Issue[], text: string, name: string): Issue[] {
  const source = parseConfigSource(text, { filename: name }).documents.find(
    (d) => d.value !== undefined,
  );
  return issues.map((i) => {
    if (i.line !== undefined || !source) return i;
    const p = source.locate(i.path);
    return { ...i, line: p.line, column: p.column };
  });
}
