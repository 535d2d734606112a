/** What a ParquetConfig says about its file: the columns it names and the time they span. */
import type { BaseProfile } from '../../inspect/shared.js';
import { type JsonObject, jsonObject, jsonObjects, jsonText } from '../../model/plain.js';
import { statsTimeRange } from '../../values/index.js';
import type { ConfigFacts, NamedColumn } from '../types.js';

function columnsNamed(config: JsonObject): NamedColumn[] {
  const flat = jsonObject(config.flatDataset);
  const single = jsonObject(config.singleChannelPerRow);
  const layout = flat ?? single;
  const layoutName = flat ? 'flatDataset' : 'singleChannelPerRow';
  if (!layout || flat?.useEmbeddedConfig === true) return [];
  const out: NamedColumn[] = [];
  const tp = jsonText(jsonObject(layout.timeColumn)?.path);
  if (tp) out.push({ name: tp, where: `${layoutName}.timeColumn` });
  for (const c of jsonObjects(flat?.dataColumns)) {
    const p = jsonText(c.path);
    if (p) out.push({ name: p, where: 'flatDataset.dataColumns' });
  }
  for (const c of jsonObjects(single?.columns)) {
    const p = jsonText(c.path);
    if (p) out.push({ name: p, where: 'singleChannelPerRow.columns' });
  }
  const sc = jsonObject(single?.singleChannel);
  const mc = jsonObject(single?.multiChannel);
  for (const [p, where] of [
    [jsonText(sc?.dataPath), 'singleChannel.dataPath'],
    [jsonText(mc?.namePath), 'multiChannel.namePath'],
    [jsonText(mc?.dataPath), 'multiChannel.dataPath'],
  ] as const) {
    if (p) out.push({ name: p, where: `singleChannelPerRow.${where}` });
  }
  return out;
}

function timeRange(config: JsonObject, profile: BaseProfile) {
  const layout = jsonObject(config.flatDataset) ?? jsonObject(config.singleChannelPerRow);
  const tc = jsonObject(layout?.timeColumn);
  const p = jsonText(tc?.path);
  const field = profile.fields.find((f) => f.path === p || f.name === p);
  return statsTimeRange(field?.stats, jsonText(tc?.format), jsonText(tc?.relativeStartTime));
}

export const parquetFacts: ConfigFacts = { columnsNamed, timeRange };
