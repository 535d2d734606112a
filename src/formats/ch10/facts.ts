/**
 * What a Ch10Config's file spans: UTC of the first and last packet, when a time packet
 * gives a date with its year (the day-of-year format has none: then no range, rather than
 * a guessed year). Relative times alone (the packets' relative time counter) give no date
 * range. A Ch10Config names no columns.
 */
import type { BaseProfile } from '../../inspect/shared.js';
import type { ConfigFacts } from '../types.js';
import type { Ch10Profile } from './inspect.js';

function timeRange(_config: Record<string, unknown>, profile: BaseProfile) {
  const { start, stop } = (profile as Ch10Profile).packets;
  return { ...(start ? { start } : {}), ...(stop ? { stop } : {}) };
}

export const ch10Facts: ConfigFacts = { timeRange };
