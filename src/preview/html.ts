/**
 * The preview page as one HTML string: header, time axis, one section per channel, the
 * config with its issues, the evidence. Everything is inlined (uPlot's script and styles,
 * the page's script, the data as JSON); the fonts are the system's, so the page opens
 * from disk and fetches nothing. Every part is made with `html` (safe-html.ts), which
 * escapes what it interpolates: names, units, types, messages and file names are text,
 * never markup, and the page's Content Security Policy runs only its own two scripts.
 */
import type { RowChannel, Timeline } from '../check/index.js';
import type { Evidence } from '../infer/index.js';
import type { Issue } from '../model/plain.js';
import { uplotAssets } from './assets.js';
import { PAGE_SCRIPT } from './page-script.js';
import {
  attr,
  contentSecurityPolicy,
  type HtmlValue,
  html,
  inlineScript,
  inlineStyle,
  joinHtml,
  jsonScript,
  type SafeHtml,
} from './safe-html.js';
import type { ChannelStats } from './stats.js';
import { duration, isoTime, rate, type TimeView } from './time.js';

export interface ChannelView {
  channel: RowChannel;
  stats: ChannelStats;
  /** Decimated values on the channel's axis (numeric channels). */
  y: Array<number | null> | undefined;
}

export interface PageModel {
  file: { name: string; format: string; size: number };
  configName: string;
  kind: string;
  assetName: string | undefined;
  runName: string | undefined;
  issues: Issue[];
  configText: string;
  evidence: readonly Evidence[];
  rows: number;
  complete: boolean;
  notes: string[];
  time: TimeView | undefined;
  channels: ChannelView[];
  /** Decimated times of each axis (ms). */
  axes: number[][];
  /** Where each channel has packets, for a file whose values are not plotted (CH10). */
  timeline?: Timeline | undefined;
}

const STYLE = `
:root { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; }
body { margin: 0 auto; padding: 16px 24px; max-width: 1100px; }
h1 { font-size: 20px; margin: 0 0 8px; word-break: break-all; }
h2 { font-size: 16px; margin: 24px 0 8px; border-bottom: 1px solid #d0d7de; padding-bottom: 4px; }
h3 { font-size: 14px; margin: 0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0; }
dl.facts dt { color: #59636e; }
dl.facts dd { margin: 0; }
.ok { color: #1a7f37; font-weight: 600; }
.bad, .finding.bad { color: #d1242f; font-weight: 600; }
ul.findings { padding-left: 20px; margin: 8px 0 0; }
section#time.has-bad { border-left: 4px solid #d1242f; padding-left: 12px; }
.channel { border: 1px solid #d0d7de; border-radius: 6px; padding: 8px 12px; margin: 8px 0; }
.channel .meta { color: #59636e; font-size: 12px; margin: 2px 0 4px; }
.plot { width: 100%; min-height: 140px; }
table { border-collapse: collapse; font-size: 12px; }
td, th { border: 1px solid #d0d7de; padding: 2px 6px; text-align: left; vertical-align: top; }
pre.config { background: #f6f8fa; padding: 8px 0; overflow-x: auto; font-size: 12px; }
pre.config .line { display: block; padding: 0 8px; white-space: pre; }
pre.config .line.has-issue { background: #ffebe9; }
pre.config .no { display: inline-block; width: 3em; color: #8c959f; user-select: none; }
pre.config .issue { white-space: normal; display: block; margin-left: 3em; padding: 0 8px; font-family: system-ui, sans-serif; }
.issue.error { color: #d1242f; } .issue.warning { color: #9a6700; } .issue.info { color: #59636e; }
.note { color: #9a6700; }
`;

function bytes(n: number): string {
  if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(2)} GiB`;
  if (n >= 1024 ** 2) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

function num(v: number): string {
  return Number.isFinite(v) ? String(Number(v.toPrecision(6))) : '-';
}

export function renderPage(m: PageModel): string {
  const uplot = uplotAssets();
  const inline = [
    inlineStyle(uplot.style),
    inlineStyle(STYLE),
    inlineScript(uplot.script),
    inlineScript(PAGE_SCRIPT),
  ];
  const [uplotStyle, pageStyle, uplotScript, pageScript] = inline.map((e) => e.element);
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
${contentSecurityPolicy(inline)}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>importkit preview: ${m.file.name}</title>
${uplotStyle}
${pageStyle}
</head>
<body>
${header(m)}
${timeSection(m)}
${timelineSection(m)}
${channelsSection(m)}
${configSection(m)}
${evidenceSection(m)}
${jsonScript('preview-data', pageData(m))}
${uplotScript}
${pageScript}
</body>
</html>
`.text;
}

/** A `<dl>` of facts: each name beside its value (`data-fact` when asked, for tests). */
function facts(rows: ReadonlyArray<[string, HtmlValue]>, tagged = false): SafeHtml {
  const items = rows.map(([k, v]) =>
    tagged ? html`<dt>${k}</dt><dd data-fact="${k}">${v}</dd>` : html`<dt>${k}</dt><dd>${v}</dd>`,
  );
  return html`<dl class="facts">${items}</dl>`;
}

function header(m: PageModel): SafeHtml {
  const count = (s: string) => m.issues.filter((i) => i.severity === s).length;
  const errors = count('error');
  const warnings = count('warning');
  const verdict =
    errors > 0
      ? html`<span class="bad">does not fit: ${errors} error(s), ${warnings} warning(s)</span>`
      : html`<span class="ok">fits${warnings > 0 ? ` (${warnings} warning(s))` : ''}</span>`;
  const read = m.complete
    ? `${m.rows} (every row)`
    : `${m.rows} (head and slices; --full reads every row)`;
  const rows: Array<[string, HtmlValue]> = [
    ['file', m.file.name],
    ['format', m.file.format.toUpperCase()],
    ['size', bytes(m.file.size)],
    ['config', `${m.configName} (${m.kind})`],
    ['asset', m.assetName ?? '-'],
    ['run', m.runName ?? '-'],
    ['check', verdict],
    ['rows read', read],
  ];
  const notes = m.notes.map((n) => html`<p class="note">${n}</p>`);
  return html`<header id="summary"><h1>${m.file.name}</h1>
${facts(rows, true)}${notes}</header>`;
}

function timeSection(m: PageModel): SafeHtml {
  const t = m.time;
  if (!t) return html`<section id="time"><h2>Time axis</h2><p>No rows were read.</p></section>`;
  const anyBad = t.findings.some((f) => f.bad);
  const bad = (b: boolean) => attr('class', b ? 'bad' : undefined);
  const rows: Array<[string, HtmlValue]> = [
    ['format', t.format],
    ['first', html`<time id="time-first"${bad(t.firstBad)}>${isoTime(t.first)}</time>`],
    ['last', html`<time id="time-last"${bad(t.lastBad)}>${isoTime(t.last)}</time>`],
    ['duration', Number.isFinite(t.max - t.min) ? duration(t.max - t.min) : '-'],
    ['median step', t.medianStep === undefined ? '-' : duration(t.medianStep)],
    ['sample rate', rate(t.medianStep)],
  ];
  const findings = t.findings.map(
    (f) =>
      html`<li class="finding ${f.bad ? 'bad' : 'ok'}"${attr('data-code', f.code)}>${f.text}</li>`,
  );
  return html`<section id="time"${attr('class', anyBad ? 'has-bad' : undefined)}><h2>Time axis</h2>
${facts(rows)}
<ul class="findings">${findings}</ul></section>`;
}

/**
 * Per channel: its packets, bytes, first and last time and a bar over the recording's span
 * (SVG attributes, no inline style). Only counts and times from the packet headers: no value.
 */
function timelineSection(m: PageModel): SafeHtml | undefined {
  const t = m.timeline;
  if (!t) return undefined;
  const lo = t.channels.reduce((a, c) => Math.min(a, c.first), Number.POSITIVE_INFINITY);
  const hi = t.channels.reduce((a, c) => Math.max(a, c.last), Number.NEGATIVE_INFINITY);
  const span = hi > lo ? hi - lo : 1;
  const start = t.start === undefined ? undefined : Date.parse(t.start);
  const when = (s: number) =>
    `${s.toFixed(3)} s${start === undefined ? '' : ` (${isoTime(start + s * 1000)})`}`;
  const bar = (first: number, last: number) => {
    const x = Math.round(((first - lo) / span) * 1000);
    const w = Math.max(2, Math.round(((last - first) / span) * 1000));
    return html`<svg class="span" viewBox="0 0 1000 10" preserveAspectRatio="none" width="240" height="10"><rect x="${x}" y="0" width="${w}" height="10" fill="#0969da"></rect></svg>`;
  };
  const rows = t.channels.map(
    (c) =>
      html`<tr data-channel="${c.name}"><td>${c.name}</td><td>${c.detail}</td><td>${c.packets}</td><td>${bytes(c.bytes)}</td><td>${when(c.first)}</td><td>${when(c.last)}</td><td>${bar(c.first, c.last)}</td></tr>`,
  );
  const origin = `0 s is ${t.origin}${t.start === undefined ? ' (no time packet gives its date)' : `: ${t.start}`}.`;
  const read = t.complete ? 'every packet header read' : 'some packet headers read';
  return html`<section id="timeline"><h2>Packets by channel (${t.channels.length})</h2>
<p class="meta">${origin} From the packet headers (${read}); no value of the data is shown.</p>
<table class="timeline"><thead><tr><th>channel</th><th>what</th><th>packets</th><th>bytes</th><th>first</th><th>last</th><th>span</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

function channelsSection(m: PageModel): SafeHtml {
  const items = m.channels.map((c, i) => channelBlock(c, i));
  return html`<section id="channels"><h2>Channels (${m.channels.length})</h2>
<p class="meta">Drag across a plot to zoom every plot to that time range; double-click to zoom out. Times are UTC.</p>
${joinHtml(items, html`\n`)}</section>`;
}

function channelBlock(v: ChannelView, index: number): SafeHtml {
  const c = v.channel;
  const s = v.stats;
  const type = c.dataType.replace(/^CHANNEL_DATA_TYPE_/, '');
  const meta = [
    c.units ? `units ${c.units}` : 'no units',
    type,
    `count ${s.count}`,
    `nulls ${s.nulls}`,
    ...(c.values === 'number' ? [`min ${num(s.min)}`, `max ${num(s.max)}`] : []),
  ];
  const body =
    c.values === 'number'
      ? html`<div class="plot" data-plot="${index}"></div>`
      : firstValuesTable(v.stats);
  return html`<div class="channel" data-channel="${c.name}" data-kind="${kindOf(c)}">
<h3>${c.name}</h3><p class="meta">${joinHtml(meta, html` · `)}</p>${body}</div>`;
}

function firstValuesTable(s: ChannelStats): SafeHtml {
  if (s.firstValues.length === 0) return html`<p class="meta">No values in the rows read.</p>`;
  const rows = s.firstValues.map((r) => html`<tr><td>${isoTime(r.t)}</td><td>${r.v}</td></tr>`);
  return html`<table class="values"><thead><tr><th>time</th><th>first values</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function kindOf(c: RowChannel): 'line' | 'enum' | 'bool' | 'text' {
  if (c.values === 'text') return 'text';
  if (c.dataType === 'CHANNEL_DATA_TYPE_ENUM') return 'enum';
  if (c.dataType === 'CHANNEL_DATA_TYPE_BOOL') return 'bool';
  return 'line';
}

function configSection(m: PageModel): SafeHtml {
  const byLine = new Map<number, Issue[]>();
  const unplaced: Issue[] = [];
  for (const i of m.issues) {
    if (i.line === undefined) unplaced.push(i);
    else byLine.set(i.line, [...(byLine.get(i.line) ?? []), i]);
  }
  const issue = (i: Issue) =>
    html`<span class="issue ${i.severity}" data-code="${i.code}">${i.severity} ${i.code}: ${i.message}${i.hint ? ` (${i.hint})` : ''}</span>`;
  const lines = m.configText.replace(/\n$/, '').split('\n');
  const body = lines.map((text, k) => {
    const here = byLine.get(k + 1) ?? [];
    return html`<span class="line${here.length ? ' has-issue' : ''}"><span class="no">${k + 1}</span>${text}${here.map(issue)}</span>`;
  });
  const rest = unplaced.length
    ? html`<ul>${unplaced.map((i) => html`<li>${issue(i)}</li>`)}</ul>`
    : '';
  return html`<section id="config"><h2>Config: ${m.configName}</h2><pre class="config">${body}</pre>${rest}</section>`;
}

function evidenceSection(m: PageModel): SafeHtml | '' {
  if (m.evidence.length === 0) return '';
  const rows = m.evidence.map(
    (e) =>
      html`<tr><td>${e.path}</td><td>${e.choice}</td><td>${e.confidence}</td><td>${e.reason}${
        e.alternatives?.length
          ? html`<br><small>${joinHtml(e.alternatives, html`<br>`)}</small>`
          : ''
      }</td></tr>`,
  );
  return html`<section id="evidence"><h2>Evidence</h2><table><thead><tr><th>path</th><th>choice</th><th>confidence</th><th>reason</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

/** What the page script plots: the axes' times and each numeric channel's values. */
function pageData(m: PageModel) {
  const round = (v: number | null) => (v === null ? null : Number(v.toPrecision(6)));
  const series = m.channels.flatMap((v, i) => {
    if (!v.y) return [];
    const c = v.channel;
    const labels: Record<string, string> = {};
    let keys: number[] = [];
    if (c.dataType === 'CHANNEL_DATA_TYPE_ENUM') {
      for (const e of c.enumTypes ?? []) labels[String(e.key)] = e.name;
      keys = (c.enumTypes ?? []).map((e) => e.key);
    } else if (c.dataType === 'CHANNEL_DATA_TYPE_BOOL') {
      Object.assign(labels, { '0': 'false', '1': 'true' });
      keys = [0, 1];
    }
    const step = kindOf(c) === 'enum' || kindOf(c) === 'bool';
    const labelled = keys.length > 0 ? { keys, labels } : {};
    return [
      { channel: i, axis: c.axis, y: v.y.map(round), ...(step ? { step } : {}), ...labelled },
    ];
  });
  const t = m.time;
  const range = t && Number.isFinite(t.min) && Number.isFinite(t.max) ? [t.min, t.max] : undefined;
  return { axes: m.axes.map((x) => x.map((ms) => Math.round(ms * 1000) / 1000)), series, range };
}
