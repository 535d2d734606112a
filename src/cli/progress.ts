import { type Io, type Output, showsProgress } from './io.js';
import { printable } from './printable.js';

/** A progress bar on stderr. Every method is a no-op when progress is not shown. */
export interface Progress {
  /** Sets how much is done (same unit as `total`). Redraws at most every `interval` ms. */
  update(done: number): void;
  /** Changes the total (for work whose size becomes known later). */
  setTotal(total: number): void;
  /** Clears the bar's line. Call once at the end, also on failure. */
  done(): void;
  /** True when this progress writes anything (a terminal, not CI). */
  readonly active: boolean;
}

export interface ProgressOptions {
  /** How amounts are printed: bytes (`12.3/100.0 MiB`) or plain counts. Default bytes. */
  unit?: 'bytes' | 'items';
  /** Where the bar goes. Default `io.stderr`. */
  out?: Output;
  /** Minimum milliseconds between redraws. Default 100. */
  interval?: number;
  /** Clock, for tests. */
  now?: () => number;
}

const MiB = 1024 * 1024;

function amount(n: number, unit: 'bytes' | 'items'): string {
  if (unit === 'items') return String(Math.round(n));
  if (n >= 1024 * MiB) return `${(n / 1024 / MiB).toFixed(2)} GiB`;
  return `${(n / MiB).toFixed(1)} MiB`;
}

/**
 * A small terminal progress bar: `label [#####.....]  45% 12.3 MiB/27.0 MiB`. Quiet (writes
 * nothing) when stderr is not a terminal, in CI, or with TERM=dumb, so output piped to a
 * file or a log stays clean.
 */
export function createProgress(
  io: Io,
  title: string,
  total: number,
  options: ProgressOptions = {},
): Progress {
  const out = options.out ?? io.stderr;
  // Labels name files and members: escaped, so a name cannot rewrite the terminal.
  const label = printable(title);
  const active = showsProgress(io, out);
  const unit = options.unit ?? 'bytes';
  const interval = options.interval ?? 100;
  const now = options.now ?? (() => Date.now());
  let last = -Infinity;
  let shown = false;
  let current = 0;
  let max = total;

  const draw = () => {
    const width = Math.max(10, Math.min(40, (out.columns ?? 80) - label.length - 40));
    const ratio = max > 0 ? Math.min(1, current / max) : 0;
    const filled = Math.round(ratio * width);
    const bar = `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
    const pct = `${Math.floor(ratio * 100)}`.padStart(3);
    const amounts =
      max > 0 ? `${amount(current, unit)}/${amount(max, unit)}` : amount(current, unit);
    out.write(`\r${label} [${bar}] ${pct}% ${amounts}\x1b[K`);
    shown = true;
  };

  return {
    active,
    update(done) {
      current = done;
      if (!active) return;
      const t = now();
      if (t - last < interval) return;
      last = t;
      draw();
    },
    setTotal(n) {
      max = n;
    },
    done() {
      if (active && shown) out.write('\r\x1b[K');
      shown = false;
    },
  };
}
