/** When and how long to wait before trying a request again. */
export interface RetryOptions {
  /** Retries after the first attempt (default 3; 0 turns retries off). */
  limit?: number;
  /** HTTP statuses that are retried (default 408, 429, 500, 502, 503, 504). */
  statusCodes?: readonly number[];
  /** The first backoff (default 500 ms); it doubles each time. */
  backoffMs?: number;
  /** The largest backoff (default 10 s). */
  maxBackoffMs?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown (default 60 s). */
  maxRetryAfterMs?: number;
  /** Random spread of each backoff, 0..1 (default 0.5: waits between half and all of it). */
  jitter?: number;
}

export interface RetryPolicy {
  limit: number;
  statusCodes: ReadonlySet<number>;
  backoffMs: number;
  maxBackoffMs: number;
  maxRetryAfterMs: number;
  jitter: number;
}

export const DEFAULT_RETRY_STATUS_CODES = [408, 429, 500, 502, 503, 504] as const;

export function retryPolicy(options: RetryOptions | number | undefined): RetryPolicy {
  const o: RetryOptions = typeof options === 'number' ? { limit: options } : (options ?? {});
  return {
    limit: Math.max(0, Math.floor(o.limit ?? 3)),
    statusCodes: new Set(o.statusCodes ?? DEFAULT_RETRY_STATUS_CODES),
    backoffMs: Math.max(0, o.backoffMs ?? 500),
    maxBackoffMs: Math.max(0, o.maxBackoffMs ?? 10_000),
    maxRetryAfterMs: Math.max(0, o.maxRetryAfterMs ?? 60_000),
    jitter: Math.min(1, Math.max(0, o.jitter ?? 0.5)),
  };
}

/** Backoff before retry number `retry` (0-based): exponential, capped, jittered. */
export function backoffDelay(
  policy: RetryPolicy,
  retry: number,
  random: () => number = Math.random,
): number {
  const full = Math.min(policy.maxBackoffMs, policy.backoffMs * 2 ** retry);
  return full * (1 - policy.jitter * random());
}

/**
 * Reads a Retry-After header: delay-seconds or an HTTP date. Returns milliseconds, or
 * undefined when absent or unreadable.
 */
export function parseRetryAfter(
  value: string | null,
  now: number = Date.now(),
): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
