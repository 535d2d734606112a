/** What an Hdf5Config says about its file: the datasets it names and the time they span. */
import type { BaseProfile } from '../../inspect/shared.js';
import { type JsonObject, jsonObjects, jsonText } from '../../model/plain.js';
import { timeValueToIso } from '../../values/index.js';
import type { ConfigFacts, NamedColumn } from '../types.js';
import type { Hdf5Dataset } from './inspect.js';

function columnsNamed(config: JsonObject): NamedColumn[] {
  const out: NamedColumn[] = [];
  jsonObjects(config.data).forEach((d, i) => {
    const t = jsonText(d.timeDataset);
    const v = jsonText(d.valueDataset);
    if (t) out.push({ name: t, where: `data[${i}].timeDataset` });
    if (v) out.push({ name: v, where: `data[${i}].valueDataset` });
  });
  return out;
}

/**
 * The first and last values of every entry's time (a 1-D dataset, the `timeIndex` column
 * of an [N, k] one, the `timeField` member of a compound), read from the head and tail
 * rows the inspection samples; the earliest first and the latest last.
 */
function timeRange(config: JsonObject, profile: BaseProfile): { start?: string; stop?: string } {
  const format = jsonText(config.timeFormat);
  const relative = jsonText(config.relativeStartTime);
  const datasets = (profile as { datasets?: Hdf5Dataset[] }).datasets ?? [];
  const byPath = new Map(datasets.map((d) => [d.path.replace(/^\//, ''), d]));
  const starts: string[] = [];
  const stops: string[] = [];
  for (const entry of jsonObjects(config.data)) {
    const d = byPath.get(jsonText(entry.timeDataset)?.replace(/^\//, '') ?? '');
    const first = d?.head?.[0];
    const last = d?.tail?.at(-1) ?? d?.head?.at(-1);
    if (!d || !first || !last) continue;
    const field = jsonText(entry.timeField);
    const index = field
      ? (d.type.members?.findIndex((m) => m.name === field) ?? -1)
      : Number(jsonText(entry.timeIndex) ?? entry.timeIndex ?? 0);
    const start = timeValueToIso(first[index], format, relative);
    const stop = timeValueToIso(last[index], format, relative);
    if (start) starts.push(start);
    if (stop) stops.push(stop);
  }
  const out: { start?: string; stop?: string } = {};
  if (starts.length > 0) out.start = starts.sort()[0] as string;
  if (stops.length > 0) out.stop = stops.sort().at(-1) as string;
  return out;
}

export const hdf5Facts: ConfigFacts = { columnsNamed, timeRange };
