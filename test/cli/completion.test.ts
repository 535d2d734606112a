/**
 * `importkit completion bash|zsh|fish`. The bash script is run by bash: command names,
 * a command's flags (from its --help, through the built binary), the shells of
 * `completion`. zsh and fish are not on every machine: their scripts are checked by
 * content (every command, the registration line), and parsed when the shell exists.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { commandSummaries } from '../../src/cli/args.js';
import type { Io } from '../../src/cli/io.js';
import { run } from '../../src/cli/run.js';

const root = join(import.meta.dirname, '..', '..');
const built = existsSync(join(root, 'dist', 'src', 'cli', 'index.js'));
let dir: string;

async function script(shell: string) {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    stdout: { write: (s) => void out.push(s) },
    stderr: { write: (s) => void err.push(s) },
    env: {},
    cwd: root,
  };
  const code = await run(['completion', shell], io);
  return { code, stdout: out.join(''), stderr: err.join('') };
}

const has = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-completion-'));
  // `importkit` on the PATH: the built binary of this repository.
  const shim = join(dir, 'importkit');
  await writeFile(
    shim,
    `#!/bin/sh\nexec "${process.execPath}" "${join(root, 'bin', 'importkit.js')}" "$@"\n`,
  );
  chmodSync(shim, 0o755);
  await writeFile(join(dir, 'importkit.bash'), (await script('bash')).stdout);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What the bash completion offers for the words typed so far (the last one being completed). */
function complete(...words: string[]): string[] {
  const r = spawnSync(
    'bash',
    [
      '-c',
      `source importkit.bash; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _importkit; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${dir}${delimiter}${process.env.PATH}` },
    },
  );
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter(Boolean);
}

describe('importkit completion', () => {
  test('bash: command names', () => {
    expect(complete('importkit', 's')).toEqual(['schema', 'submit', 'status', 'serve']);
    expect(complete('importkit', '')).toEqual(commandSummaries().map(([n]) => n));
  });

  test.skipIf(!built)("bash: a command's flags, from its help", () => {
    expect(complete('importkit', 'check', '--f')).toEqual(['--fail-on', '--full']);
    expect(complete('importkit', 'submit', '--w')).toEqual(['--wait']);
  });

  test('bash: the shells of completion; other words are left to file names', () => {
    expect(complete('importkit', 'completion', '')).toEqual(['bash', 'zsh', 'fish']);
    expect(complete('importkit', 'lint', 'fix')).toEqual([]);
  });

  test('zsh and fish: every command, and the line that registers the completion', async () => {
    const zsh = await script('zsh');
    const fish = await script('fish');
    for (const [name] of commandSummaries()) {
      expect(zsh.stdout).toContain(`'${name}:`);
      expect(fish.stdout).toContain(`-a ${name} -d`);
    }
    expect(zsh.stdout).toMatch(/^#compdef importkit\n/);
    expect(zsh.stdout).toContain('compdef _importkit importkit');
    expect(fish.stdout).toContain('complete -c importkit -f\n');
    for (const shell of ['zsh', 'fish'].filter(has)) {
      const file = join(dir, `importkit.${shell}`);
      await writeFile(file, (await script(shell)).stdout);
      expect(spawnSync(shell, ['-n', file], { encoding: 'utf8' }).stderr).toBe('');
    }
  });

  test('an unknown shell: exit 2 naming the shells', async () => {
    expect(await script('powershell')).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "importkit completion: no completion for 'powershell'\n  hint: importkit completion bash|zsh|fish\nRun 'importkit completion --help' for usage.\n",
    });
  });
});
