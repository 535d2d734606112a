/** What a CsvConfig says about its file: the columns it names and the time they span. */
import type { BaseProfile } from '../../inspect/shared.js';
import { type JsonObject, jsonObject, jsonText } from '../../model/plain.js';
import { statsTimeRange } from '../../values/index.js';
import type { ConfigFacts, NamedColumn } from '../types.js';

function columnsNamed(config: JsonObject): NamedColumn[] {
  if (config.useEmbeddedConfig === true) return [];
  const out: NamedColumn[] = [];
  const tc = jsonObject(config.timeColumn);
  if (typeof tc?.columnNumber === 'number')
    out.push({ column: tc.columnNumber, where: 'timeColumn' });
  for (const [k, v] of Object.entries(jsonObject(config.dataColumns) ?? {})) {
    const name = jsonText(jsonObject(v)?.name);
    out.push({
      column: Number(k),
      where: `dataColumns '${k}'${name ? `, channel '${name}'` : ''}`,
    });
  }
  return out;
}

function timeRange(config: JsonObject, profile: BaseProfile) {
  const tc = jsonObject(config.timeColumn);
  const n = tc?.columnNumber;
  const field =
    profile.fields.find((f) => f.column === n) ??
    (typeof n === 'number' ? profile.fields[n - 1] : undefined);
  return statsTimeRange(field?.stats, jsonText(tc?.format), jsonText(tc?.relativeStartTime));
}

export const csvFacts: ConfigFacts = { columnsNamed, timeRange };
