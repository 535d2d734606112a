/** Following an import to its end: GetDataImport with growing intervals. */
import { DATA_IMPORT_STATUS_VALUES, type DataImport } from '../model/index.js';
import { anySignal, deadlineSignal, delay } from './delay.js';
import { ApiError, ImportFailedError, NetworkError, TimeoutError } from './errors.js';
import { fmtMs } from './transport.js';

export const SUCCEEDED = 'DATA_IMPORT_STATUS_SUCCEEDED';
export const FAILED = 'DATA_IMPORT_STATUS_FAILED';

/** How long a wait lasts at most unless told otherwise (1 hour). */
export const DEFAULT_WAIT_TIMEOUT_MS = 60 * 60_000;
/** How long polls may fail in a row before the wait gives up (60 s). */
export const DEFAULT_UNREACHABLE_MS = 60_000;

export interface WaitOptions {
  /**
   * Give up after this many ms with a TimeoutError naming the last status and the last
   * network error (default DEFAULT_WAIT_TIMEOUT_MS, 1 hour; 0: no limit).
   */
  timeoutMs?: number;
  /**
   * Give up when every poll has failed (refused, reset, timed out, 5xx) for this many ms,
   * with a TimeoutError naming the last error (default DEFAULT_UNREACHABLE_MS; 0: never).
   */
  unreachableMs?: number;
  /** Stops the wait at once (the sleep included); the signal's reason is thrown. */
  signal?: AbortSignal;
  /** Called with each DataImport read. */
  onStatus?: (dataImport: DataImport) => void;
  /** Called once for each status value this client does not know; polling goes on. */
  onUnknownStatus?: (status: string, dataImport: DataImport) => void;
  /** The first interval (default 1 s); it doubles each poll. */
  intervalMs?: number;
  /** The largest interval (default 30 s). */
  maxIntervalMs?: number;
}

const KNOWN = new Set<string>(DATA_IMPORT_STATUS_VALUES);

/**
 * Polls until SUCCEEDED (returns the DataImport, warnings included as the server sent
 * them), FAILED (throws ImportFailedError with the server's errorMessage), the deadline
 * (TimeoutError naming the last status) or an abort. A poll that fails in a retryable way
 * (after the transport's own retries) does not end the wait: the next poll tries again.
 */
export async function waitForImport(
  get: (id: string, options: { signal?: AbortSignal }) => Promise<DataImport>,
  id: string,
  options: WaitOptions = {},
  log: (line: string) => void = () => {},
): Promise<DataImport> {
  const first = Math.max(0, options.intervalMs ?? 1000);
  const cap = Math.max(first, options.maxIntervalMs ?? 30_000);
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  const unreachableMs = options.unreachableMs ?? DEFAULT_UNREACHABLE_MS;
  let lastStatus: string | undefined;
  /** The error of the last poll, while polls fail; with the time the failures began. */
  let failing: { since: number; error: Error } | undefined;
  const lastError = () => (failing ? `; last error: ${failing.error.message}` : '');
  const deadline = deadlineSignal(
    timeoutMs,
    () =>
      new TimeoutError(
        `data import ${id} did not finish within ${fmtMs(timeoutMs)} (last status: ${lastStatus ?? 'none read yet'}${lastError()})`,
        { timeoutMs, lastStatus },
      ),
  );
  const signal = anySignal(options.signal, deadline.signal);
  const reported = new Set<string>();
  let interval = first;
  try {
    for (;;) {
      signal?.throwIfAborted();
      let current: DataImport | undefined;
      try {
        current = await get(id, signal ? { signal } : {});
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        const passing =
          err instanceof NetworkError ||
          (err instanceof TimeoutError && err.attempt) ||
          (err instanceof ApiError && [408, 429, 500, 502, 503, 504].includes(err.status));
        if (!passing) throw err;
        failing = { since: failing?.since ?? performance.now(), error: err as Error };
        if (unreachableMs > 0 && performance.now() - failing.since >= unreachableMs) {
          throw new TimeoutError(
            `data import ${id}: no answer from the service for ${fmtMs(unreachableMs)} (last status: ${lastStatus ?? 'none read yet'}${lastError()})`,
            { timeoutMs: unreachableMs, lastStatus },
          );
        }
        log(`polling ${id}: ${(err as Error).message}; trying again`);
      }
      if (current) {
        failing = undefined;
        const status = current.status ?? 'DATA_IMPORT_STATUS_UNSPECIFIED';
        lastStatus = status;
        options.onStatus?.(current);
        if (status === SUCCEEDED) return current;
        if (status === FAILED) throw new ImportFailedError(id, current.errorMessage ?? '', current);
        if (!KNOWN.has(status) && !reported.has(status)) {
          reported.add(status);
          log(`data import ${id}: unknown status ${status}; still waiting`);
          options.onUnknownStatus?.(status, current);
        }
      }
      await delay(interval, signal);
      interval = Math.min(cap, interval * 2);
    }
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    throw err;
  } finally {
    deadline.clear();
  }
}
