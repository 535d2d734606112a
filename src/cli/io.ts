/** Where a command writes and what it can read: injected so tests run commands in-process. */
export interface Output {
  write(chunk: string): void;
  /** True when the output is a terminal (progress bars, colour). */
  isTTY?: boolean;
  /** Terminal width, when known. */
  columns?: number;
}

export interface Io {
  stdout: Output;
  stderr: Output;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Standard input, for commands that read `-`. */
  stdin?: AsyncIterable<Uint8Array | string>;
}

/** The process's own streams and environment. */
export function processIo(): Io {
  return {
    stdout: {
      write: (s) => void process.stdout.write(s),
      isTTY: process.stdout.isTTY === true,
      columns: process.stdout.columns,
    },
    stderr: {
      write: (s) => void process.stderr.write(s),
      isTTY: process.stderr.isTTY === true,
      columns: process.stderr.columns,
    },
    env: process.env,
    cwd: process.cwd(),
    stdin: process.stdin,
  };
}

/** Progress is shown only on a terminal, and never in CI. */
export function showsProgress(io: Io, out: Output = io.stderr): boolean {
  return out.isTTY === true && !io.env.CI && io.env.TERM !== 'dumb';
}
