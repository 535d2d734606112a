/**
 * `importkit completion bash|zsh|fish`: a static script with every command's flags baked
 * in, run by a real bash and a real zsh with no `importkit` on the PATH and no project in
 * the working folder (as a shell started in $HOME has), for `importkit ...` and
 * `npx importkit ...`. zsh's completion widgets (compadd, _describe, _files) only run
 * inside its line editor: the test stands in small functions for them that print what
 * they are given, and runs the script's own functions. Without zsh installed (CI installs
 * it in .ci/run) the zsh test is skipped with a line saying so.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { commandSummaries } from '../../src/cli/args.js';
import type { Io } from '../../src/cli/io.js';
import { run } from '../../src/cli/run.js';

const root = join(import.meta.dirname, '..', '..');
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
const hasZsh = has('zsh');
if (!hasZsh) console.log('zsh is not installed: the zsh completion test is skipped');
if (!has('fish')) console.log('fish is not installed: the fish completion test is skipped');

/** A shell with no importkit, no npx and no project: only the system's own programs. */
const bare = () => ({ cwd: dir, encoding: 'utf8' as const, env: { PATH: '/usr/bin:/bin' } });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-completion-'));
  await writeFile(join(dir, 'importkit.bash'), (await script('bash')).stdout);
  await writeFile(join(dir, 'importkit.zsh'), (await script('zsh')).stdout);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const quote = (w: string) => `'${w}'`;

/** What the bash completion offers for the words typed so far (the last one being completed). */
function bash(...words: string[]): string[] {
  const fn = words[0] === 'npx' ? '_importkit_npx' : '_importkit';
  const r = spawnSync(
    'bash',
    [
      '--norc',
      '-c',
      `source importkit.bash; COMP_WORDS=(${words.map(quote).join(' ')}); COMP_CWORD=${words.length - 1}; ${fn}; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    bare(),
  );
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter(Boolean);
}

/** Stand-ins for zsh's completion widgets: each prints the candidates that fit the word. */
const ZSH_STUBS = `
compdef() { print -r -- "compdef $*" }
typeset -A _comps
fits() { [[ $1 == \${words[CURRENT]}* ]] && print -r -- $1 }
compadd() { [[ $1 == -- ]] && shift; local w; for w in "$@"; do fits $w; done }
_describe() { local -a list; list=("\${(@P)2}"); local w; for w in "\${list[@]%%:*}"; do fits $w; done }
_files() { print -r -- '<files>' }
`;

function zsh(...words: string[]): string[] {
  const r = spawnSync(
    'zsh',
    [
      '-f',
      '-c',
      `${ZSH_STUBS}\nsource ./importkit.zsh >/dev/null\nwords=(${words.map(quote).join(' ')}); CURRENT=${words.length}\n_importkit`,
    ],
    bare(),
  );
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter(Boolean);
}

const names = () => commandSummaries().map(([n]) => n);

describe('importkit completion', () => {
  test('bash: commands and flags for importkit and npx importkit, with no importkit to run', () => {
    expect(bash('importkit', 's')).toEqual(['schema', 'submit', 'status', 'serve']);
    expect(bash('importkit', '')).toEqual(names());
    expect(bash('importkit', 'check', '--f')).toEqual(['--fail-on', '--full']);
    expect(bash('npx', 'importkit', 's')).toEqual(['schema', 'submit', 'status', 'serve']);
    expect(bash('npx', 'importkit', 'check', '--f')).toEqual(['--fail-on', '--full']);
    expect(bash('npx', 'importkit', 'submit', '--w')).toEqual(['--wait']);
    expect(bash('npx', 'imp')).toEqual(['importkit']);
    // Other npx commands and plain words are left to file names (`complete -o default`).
    expect(bash('npx', 'tsc', '--')).toEqual([]);
    expect(bash('importkit', 'lint', 'fix')).toEqual([]);
    expect(bash('importkit', 'completion', '')).toEqual(['bash', 'zsh', 'fish']);
  });

  test('bash: binds importkit and npx, and leaves a completion npx already has', () => {
    const bindings = (before: string) =>
      spawnSync(
        'bash',
        ['--norc', '-c', `${before}source importkit.bash; complete -p importkit npx`],
        bare(),
      ).stdout;
    expect(bindings('')).toBe(
      'complete -o default -F _importkit importkit\ncomplete -o default -F _importkit_npx npx\n',
    );
    expect(bindings('complete -F _mine npx; ')).toBe(
      'complete -o default -F _importkit importkit\ncomplete -F _mine npx\n',
    );
  });

  test.skipIf(!hasZsh)(
    'zsh: commands and flags for importkit and npx importkit (skipped when zsh is not installed)',
    () => {
      expect(zsh('importkit', 's')).toEqual(['schema', 'submit', 'status', 'serve']);
      expect(zsh('importkit', 'check', '--f')).toEqual(['--fail-on', '--full']);
      expect(zsh('npx', 'importkit', 's')).toEqual(['schema', 'submit', 'status', 'serve']);
      expect(zsh('npx', 'importkit', 'check', '--f')).toEqual(['--fail-on', '--full']);
      expect(zsh('npx', 'importkit', 'completion', '')).toEqual(['bash', 'zsh', 'fish']);
      expect(zsh('npx', 'importkit', 'lint', '')).toEqual(['<files>']);
      expect(zsh('npx', 'tsc', '')).toEqual(['<files>']);
      expect(zsh('npx', 'imp')).toEqual(['importkit', '<files>']);
      const bindings = spawnSync(
        'zsh',
        ['-f', '-c', `${ZSH_STUBS}\nsource ./importkit.zsh`],
        bare(),
      ).stdout;
      expect(bindings).toBe('compdef _importkit importkit\ncompdef _importkit npx\n');
    },
  );

  test('every flag baked into the script is one its command takes and its --help lists', async () => {
    const text = (await script('bash')).stdout;
    const missing: string[] = [];
    for (const name of names()) {
      const line = new RegExp(`^ {4}${name}\\) words='([^']*)' ;;$`, 'm').exec(text);
      const flags = (line?.[1] ?? '').split(' ');
      expect(flags, name).toContain('--help');
      const help = (await runIn([name, '--help'])).stdout;
      for (const flag of flags)
        if (!new RegExp(`${flag}\\b`).test(help)) missing.push(`${name} ${flag}`);
    }
    expect(missing).toEqual([]);
  });

  test('fish: every command, its flags, and the line that registers the completion', async () => {
    const fish = await script('fish');
    for (const [name] of commandSummaries()) expect(fish.stdout).toContain(`-a ${name} -d`);
    expect(fish.stdout).toContain(
      "complete -c importkit -n '__fish_seen_subcommand_from check' -l full\n",
    );
    expect(fish.stdout).toContain('complete -c importkit -f\n');
    if (has('fish')) {
      const file = join(dir, 'importkit.fish');
      await writeFile(file, fish.stdout);
      expect(spawnSync('fish', ['-n', file], { encoding: 'utf8' }).stderr).toBe('');
    }
  });

  test.skipIf(!has('fish'))('fish: a real fish completes importkit and npx importkit', async () => {
    const file = join(dir, 'importkit.fish');
    await writeFile(file, (await script('fish')).stdout);
    /** What fish offers for a command line (the word after the last space being completed). */
    const fish = (line: string) => {
      const r = spawnSync(
        'fish',
        ['--no-config', '-c', `source ${quote(file)}; complete -C ${quote(line)}`],
        bare(),
      );
      expect(r.stderr).toBe('');
      return r.stdout
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => l.split('\t')[0]);
    };
    expect(fish('importkit chec')).toEqual(['check']);
    expect(fish('importkit check --ful')).toEqual(['--full']);
    expect(fish('npx importk')).toContain('importkit');
    expect(fish('npx importkit chec')).toEqual(['check']);
    expect(fish('npx importkit check --ful')).toEqual(['--full']);
    expect(fish('npx importkit completion ')).toEqual(['bash', 'fish', 'zsh']); // fish sorts
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

async function runIn(argv: string[]) {
  const out: string[] = [];
  const io: Io = {
    stdout: { write: (s) => void out.push(s) },
    stderr: { write: () => undefined },
    env: {},
    cwd: root,
  };
  await run(argv, io);
  return { stdout: out.join('') };
}
