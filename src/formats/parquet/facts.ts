/** What a ParquetConfig says about its file: the columns it names and the time they span. */
import type { BaseProfile } from '../../inspect/shared.js';
import { statsTimeRange } from '../../values/index.js';
import { arr, type Obj, obj, str } from '../_config-read.js';
import type { ConfigFacts, NamedColumn } from '../types.js';

function columnsNamed(config: Obj): NamedColumn[] {
  const flat = obj(config.flatDataset);
  const single = obj(config.singleChannelPerRow);
  const layout = flat ?? single;
  const layoutName = flat ? 'flatDataset' : 'singleChannelPerRow';
  if (!layout || flat?.useEmbeddedConfig === true) return [];
  const out: NamedColumn[] = [];
  const tp = str(obj(layout.timeColumn)?.path);
  if (tp) out.push({ name: tp, where: `${layoutName}.timeColumn` });
  for (const c of arr(flat?.dataColumns)) {
    const p = str(c.path);
    if (p) out.push({ name: p, where: 'flatDataset.dataColumns' });
  }
  for (const c of arr(single?.columns)) {
    const p = str(c.path);
    if (p) out.push({ name: p, where: 'singleChannelPerRow.columns' });
  }
  const sc = obj(single?.singleChannel);
  const mc = obj(single?.multiChannel);
  for (const [p, where] of [
    [str(sc?.dataPath), 'singleChannel.dataPath'],
    [str(mc?.namePath), 'multiChannel.namePath'],
    [str(mc?.dataPath), 'multiChannel.dataPath'],
  ] as const) {
    if (p) out.push({ name: p, where: `singleChannelPerRow.${where}` });
  }
  return out;
}

function timeRange(config: Obj, profile: BaseProfile) {
  const layout = obj(config.flatDataset) ?? obj(config.singleChannelPerRow);
  const tc = obj(layout?.timeColumn);
  const p = str(tc?.path);
  const field = profile.fields.find((f) => f.path === p || f.name === p);
  return statsTimeRange(field?.stats, str(tc?.format), str(tc?.relativeStartTime));
}

export const parquetFacts: ConfigFacts = { columnsNamed, timeRange };
