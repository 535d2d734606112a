/** What a CsvConfig says about its file: the columns it names and the time they span. */
import type { BaseProfile } from '../../inspect/shared.js';
import { statsTimeRange } from '../../values/index.js';
import { type Obj, obj, str } from '../_config-read.js';
import type { ConfigFacts, NamedColumn } from '../types.js';

function columnsNamed(config: Obj): NamedColumn[] {
  if (config.useEmbeddedConfig === true) return [];
  const out: NamedColumn[] = [];
  const tc = obj(config.timeColumn);
  if (typeof tc?.columnNumber === 'number')
    out.push({ column: tc.columnNumber, where: 'timeColumn' });
  for (const [k, v] of Object.entries(obj(config.dataColumns) ?? {})) {
    const name = str(obj(v)?.name);
    out.push({
      column: Number(k),
      where: `dataColumns '${k}'${name ? `, channel '${name}'` : ''}`,
    });
  }
  return out;
}

function timeRange(config: Obj, profile: BaseProfile) {
  const tc = obj(config.timeColumn);
  const n = tc?.columnNumber;
  const field =
    profile.fields.find((f) => f.column === n) ??
    (typeof n === 'number' ? profile.fields[n - 1] : undefined);
  return statsTimeRange(field?.stats, str(tc?.format), str(tc?.relativeStartTime));
}

export const csvFacts: ConfigFacts = { columnsNamed, timeRange };
