/**
 * Injected misbehaviour, so clients can be tested against a server that fails.
 *
 * SPEC is a comma-separated list of rules `KIND=AMOUNT[:PARAM]`:
 * - `503=AMOUNT`: answer 503 (status code 14, unavailable);
 * - `429=AMOUNT[:SECONDS]`: answer 429 (code 8) with `Retry-After: SECONDS` (default 1);
 * - `latency=AMOUNT[:MS]`: wait MS ms (default 200) before handling the request;
 * - `drop=AMOUNT`: close the connection without an answer;
 * - `seed=N`: the seed of the random choices (default 1), for runs that repeat.
 * AMOUNT is a probability (`0.2`, `20%`) or a count `Nx`: the first N requests only.
 * Faults apply to every request before it is handled, so a faulted request changes nothing.
 */

export type FaultKind = '503' | '429' | 'latency' | 'drop';

export interface FaultRule {
  kind: FaultKind;
  /** Probability 0..1 (when `count` is unset). */
  rate: number;
  /** Only the first `count` requests, when set. */
  count?: number;
  /** Retry-After seconds (429) or milliseconds (latency). */
  param?: number;
}

export interface FaultSpec {
  rules: FaultRule[];
  seed: number;
}

const KINDS: readonly FaultKind[] = ['503', '429', 'latency', 'drop'];

/** Parses SPEC; throws an Error whose message names the rule it cannot read. */
export function parseFaults(spec: string): FaultSpec {
  const rules: FaultRule[] = [];
  let seed = 1;
  for (const raw of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^([a-z0-9]+)=([^:]+)(?::(.+))?$/i.exec(raw);
    if (!m) throw new Error(`fault '${raw}': expected KIND=AMOUNT[:PARAM]`);
    const [, kindText = '', amount = '', paramText] = m;
    const kind = kindText.toLowerCase();
    if (kind === 'seed') {
      seed = Number(amount);
      if (!Number.isInteger(seed)) throw new Error(`fault '${raw}': the seed must be an integer`);
      continue;
    }
    if (!KINDS.includes(kind as FaultKind)) {
      throw new Error(`fault '${raw}': unknown kind '${kindText}' (503, 429, latency, drop, seed)`);
    }
    const rule: FaultRule = { kind: kind as FaultKind, rate: 0 };
    const count = /^(\d+)x$/i.exec(amount);
    if (count) {
      rule.count = Number(count[1]);
      rule.rate = 1;
    } else {
      const pct = amount.endsWith('%');
      const n = Number(pct ? amount.slice(0, -1) : amount);
      const rate = pct ? n / 100 : n;
      if (!Number.isFinite(rate) || rate < 0 || rate > 1) {
        throw new Error(`fault '${raw}': AMOUNT must be a probability 0..1, a percentage, or Nx`);
      }
      rule.rate = rate;
    }
    if (paramText !== undefined) {
      const p = Number(paramText);
      if (!Number.isFinite(p) || p < 0)
        throw new Error(`fault '${raw}': PARAM must be a number ≥ 0`);
      rule.param = p;
    }
    rules.push(rule);
  }
  return { rules, seed };
}

/** A small seeded generator (mulberry32): the same seed gives the same faults. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface FaultDecision {
  latencyMs: number;
  /** What to do after the latency: nothing, an error answer, or a dropped connection. */
  action:
    | { kind: 'none' }
    | { kind: 'status'; status: 503 | 429; retryAfter?: number }
    | { kind: 'drop' };
}

/** Decides, request by request, which faults apply. */
export class FaultInjector {
  private spec: FaultSpec;
  private random: () => number;
  private used = new Map<FaultRule, number>();

  constructor(spec: FaultSpec | string = { rules: [], seed: 1 }) {
    this.spec = typeof spec === 'string' ? parseFaults(spec) : spec;
    this.random = mulberry32(this.spec.seed);
  }

  /** Replaces the rules (and restarts the counts and the random sequence). */
  set(spec: FaultSpec | string): void {
    this.spec = typeof spec === 'string' ? parseFaults(spec) : spec;
    this.random = mulberry32(this.spec.seed);
    this.used.clear();
  }

  private fires(rule: FaultRule): boolean {
    if (rule.count !== undefined) {
      const n = this.used.get(rule) ?? 0;
      if (n >= rule.count) return false;
      this.used.set(rule, n + 1);
      return true;
    }
    return rule.rate > 0 && this.random() < rule.rate;
  }

  decide(): FaultDecision {
    let latencyMs = 0;
    let action: FaultDecision['action'] = { kind: 'none' };
    for (const rule of this.spec.rules) {
      if (rule.kind === 'latency') {
        if (this.fires(rule)) latencyMs += rule.param ?? 200;
        continue;
      }
      if (action.kind !== 'none' || !this.fires(rule)) continue;
      if (rule.kind === 'drop') action = { kind: 'drop' };
      else if (rule.kind === '503') action = { kind: 'status', status: 503 };
      else action = { kind: 'status', status: 429, retryAfter: rule.param ?? 1 };
    }
    return { latencyMs, action };
  }
}
