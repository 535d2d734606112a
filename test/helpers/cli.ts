import { run } from '../../src/cli/run.js';

/** What a command run in-process wrote, and its exit code. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in `cwd` with an empty environment and captures both outputs. */
export async function runCli(cwd: string, argv: readonly string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    stdout: {
      write: (s) => {
        stdout += s;
      },
    },
    stderr: {
      write: (s) => {
        stderr += s;
      },
    },
    env: {},
    cwd,
  });
  return { code, stdout, stderr };
}
