import { type Issue, issue } from '../../model/plain.js';
import { configsOf, given, join, list, misspelt, obj, type Rule } from './_walk.js';

/**
 * Parquet: exactly one layout, each with a time column that names its path, exactly one
 * channel mode per row, footer offset and length together, and data columns that are
 * neither the time column nor repeated. (The time column's format is checked by the time
 * rule.)
 */
export const parquetRule: Rule = (doc) => {
  const out: Issue[] = [];
  for (const c of configsOf(doc)) {
    if (c.kind !== 'parquet') continue;
    const cfg = c.config;
    layoutIssues(cfg, c.path, out);
    for (const layout of ['flatDataset', 'singleChannelPerRow'] as const) {
      const l = obj(cfg[layout]);
      if (l) checkTimeColumn(l, join(c.path, layout), layout, out);
    }
    const row = obj(cfg.singleChannelPerRow);
    if (row) channelModeIssues(row, join(c.path, 'singleChannelPerRow'), out);
    footerIssues(cfg, c.path, out);
    const flat = obj(cfg.flatDataset);
    if (flat) flatColumnIssues(flat, c.path, out);
  }
  return out;
};

/** Exactly one layout: flatDataset or singleChannelPerRow. */
function layoutIssues(cfg: Record<string, unknown>, path: string, out: Issue[]): void {
  if (cfg.flatDataset === undefined && cfg.singleChannelPerRow === undefined) {
    out.push(
      issue(
        'parquet_layout_missing',
        path,
        'The Parquet config has neither flatDataset nor singleChannelPerRow.',
        'Add flatDataset (a column per channel) or singleChannelPerRow (a channel value per row).',
      ),
    );
  } else if (cfg.flatDataset !== undefined && cfg.singleChannelPerRow !== undefined) {
    out.push(
      issue(
        'parquet_layout_conflict',
        join(path, 'singleChannelPerRow'),
        'The Parquet config has both flatDataset and singleChannelPerRow; it takes one.',
        'Keep the layout that describes the file.',
      ),
    );
  }
}

/** singleChannelPerRow takes exactly one channel mode. */
function channelModeIssues(row: Record<string, unknown>, at: string, out: Issue[]): void {
  if (row.singleChannel === undefined && row.multiChannel === undefined) {
    out.push(
      issue(
        'channel_mode_missing',
        at,
        'singleChannelPerRow has neither singleChannel nor multiChannel.',
        'Add singleChannel (the whole file is one channel) or multiChannel (a column names the channel).',
      ),
    );
  } else if (row.singleChannel !== undefined && row.multiChannel !== undefined) {
    out.push(
      issue(
        'channel_mode_conflict',
        join(at, 'multiChannel'),
        'singleChannelPerRow has both singleChannel and multiChannel; it takes one.',
        'Keep the one that describes the file.',
      ),
    );
  }
}

/** footerOffset and footerLength go together. */
function footerIssues(cfg: Record<string, unknown>, path: string, out: Issue[]): void {
  const hasOffset = cfg.footerOffset !== undefined;
  const hasLength = cfg.footerLength !== undefined;
  if (hasOffset !== hasLength) {
    const set = hasOffset ? 'footerOffset' : 'footerLength';
    const unset = hasOffset ? 'footerLength' : 'footerOffset';
    out.push(
      issue(
        'footer_fields_unpaired',
        join(path, set),
        `${set} is set without ${unset}; they go together.`,
        'Set both (footerOffset = file size - footerLength - 8) or neither.',
      ),
    );
  }
}

/** Flat data columns are neither the time column nor listed twice. */
function flatColumnIssues(flat: Record<string, unknown>, configPath: string, out: Issue[]): void {
  const timePath = obj(flat.timeColumn)?.path;
  const seen = new Map<string, number>();
  list(flat.dataColumns).forEach((d, i) => {
    const path = obj(d)?.path;
    if (typeof path !== 'string') return;
    const at = join(configPath, 'flatDataset', 'dataColumns', i, 'path');
    if (typeof timePath === 'string' && path === timePath) {
      out.push(
        issue(
          'data_column_is_time_column',
          at,
          `Data column ${JSON.stringify(path)} is the time column.`,
          'Remove it from dataColumns, or fix timeColumn.path.',
        ),
      );
      return;
    }
    const first = seen.get(path);
    if (first !== undefined) {
      out.push(
        issue(
          'data_column_repeated',
          at,
          `Data column ${JSON.stringify(path)} is listed twice (also dataColumns/${first}).`,
          'List each column once.',
        ),
      );
    } else seen.set(path, i);
  });
}

/** A layout's time column is there and names the column (its path). */
function checkTimeColumn(
  layout: Record<string, unknown>,
  at: string,
  name: string,
  out: Issue[],
): void {
  if (layout.timeColumn === undefined) {
    if (misspelt(layout, 'timeColumn')) return;
    out.push(
      issue(
        'time_column_missing',
        at,
        `${name} has no timeColumn: the rows have no time.`,
        'Add timeColumn: { path, format } naming the column that holds the time.',
      ),
    );
    return;
  }
  const tc = obj(layout.timeColumn);
  if (!tc || given(tc.path) || (tc.path !== undefined && typeof tc.path !== 'string')) return;
  if (tc.path === undefined && misspelt(tc, 'path')) return;
  out.push(
    issue(
      'time_column_path_missing',
      tc.path === undefined ? join(at, 'timeColumn') : join(at, 'timeColumn', 'path'),
      `${name}.timeColumn has ${tc.path === undefined ? 'no' : 'an empty'} path: which column holds the time is not said.`,
      'Give path, the name of the time column in the file (a dotted path for a nested column).',
    ),
  );
}
