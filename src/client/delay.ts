/**
 * Waits `ms`, or rejects with the signal's reason the moment it aborts (the timer is
 * cleared, nothing keeps the process alive).
 */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A signal that aborts with `reason()` after `ms` (unless `ms` is 0 or Infinity), plus a
 * `clear` to stop its timer when the work ends first.
 */
export function deadlineSignal(
  ms: number,
  reason: () => unknown,
): { signal: AbortSignal | undefined; clear: () => void } {
  if (!(ms > 0) || !Number.isFinite(ms)) return { signal: undefined, clear: () => {} };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(reason()), ms);
  timer.unref?.();
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

/** AbortSignal.any over the signals that are set. */
export function anySignal(...signals: Array<AbortSignal | undefined>): AbortSignal | undefined {
  const set = signals.filter((s): s is AbortSignal => s !== undefined);
  if (set.length === 0) return undefined;
  if (set.length === 1) return set[0];
  return AbortSignal.any(set);
}
