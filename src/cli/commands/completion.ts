/**
 * `importkit completion bash|zsh|fish`: prints a static completion script. The command
 * names and each command's flags are baked in when the script is made, from the command
 * table itself (each command's parser is asked for its flags), so completing never runs
 * importkit: it works where `importkit` is not on the PATH (a clone, a devDependency run
 * through `npx`) and where `npx` cannot run (a shell started in `$HOME`). The script binds
 * `importkit` (bash and zsh also take it by a path such as `node_modules/.bin/importkit`)
 * and `npx importkit` (`npx` is bound only when nothing else completes it).
 */

import { type Command, commandSummaries, parseCommandArgs } from '../args.js';
import { EXIT_OK, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { UnknownFlagError } from '../mistakes.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

const HELP = `Usage: importkit completion bash|zsh|fish

Prints a completion script for the shell: command names, each command's flags (as this
version has them), file names. The script never runs importkit, so write it to a file
once, from the project where importkit is installed, and load that file:

  bash   npx importkit completion bash > ~/.importkit-completion.bash
         then in ~/.bashrc: source ~/.importkit-completion.bash
  zsh    npx importkit completion zsh > ~/.importkit-completion.zsh
         then in ~/.zshrc, after compinit: source ~/.importkit-completion.zsh
  fish   npx importkit completion fish > ~/.config/fish/conf.d/importkit.fish

It completes \`importkit ...\`, \`node_modules/.bin/importkit ...\` and
\`npx importkit ...\`. Write it again after upgrading importkit.

Options:
  -h, --help  show this help
`;

/** A command's name, summary and long flags (with dashes, sorted). */
interface CommandWords {
  name: string;
  summary: string;
  flags: string[];
}

/** Asked of a command's parser to learn its flags: an option no command has. */
const PROBE = '--no-such-option-asked-by-completion';

/** The long flags a command's parser knows, from the error an unknown flag gets. */
async function flagsOf(command: Command): Promise<string[]> {
  const silent: Io = {
    stdout: { write: () => undefined },
    stderr: { write: () => undefined },
    env: {},
    cwd: '.',
  };
  try {
    await command([PROBE], silent);
  } catch (err) {
    if (err instanceof UnknownFlagError)
      return err.known
        .filter((k) => k.length > 1)
        .map((k) => `--${k}`)
        .sort();
  }
  return [];
}

/** Every command's words, in the order of the help. */
async function commandWords(
  commands: Readonly<Record<string, () => Promise<Command>>>,
): Promise<CommandWords[]> {
  const out: CommandWords[] = [];
  for (const [name, summary] of commandSummaries()) {
    const load = commands[name];
    out.push({ name, summary, flags: load ? await flagsOf(await load()) : [] });
  }
  return out;
}

/** A word list as one shell word in single quotes (names and flags hold no quote). */
const words = (list: readonly string[]) => `'${list.join(' ')}'`;
/** Text in single quotes for a shell, any `'` written as `'\''`. */
const quoted = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

function bash(commands: readonly CommandWords[]): string {
  const cases = commands.map((c) => `    ${c.name}) words=${words([...c.flags])} ;;`).join('\n');
  return `# importkit completion for bash (static: it never runs importkit). Load it from
# ~/.bashrc: npx importkit completion bash > ~/.importkit-completion.bash, then
# source ~/.importkit-completion.bash
_importkit_flags() {
  local words=
  case "$1" in
${cases}
  esac
  printf '%s' "$words"
}

# Completes the words after the one at index $1 (importkit) of COMP_WORDS.
_importkit_at() {
  local at=$1 cur=\${COMP_WORDS[COMP_CWORD]}
  if [ $((COMP_CWORD - at)) -eq 1 ]; then
    COMPREPLY=($(compgen -W ${words(commands.map((c) => c.name))} -- "$cur"))
    return
  fi
  local cmd=\${COMP_WORDS[at + 1]}
  if [ "$cmd" = completion ] && [[ $cur != -* ]]; then
    COMPREPLY=($(compgen -W ${words(SHELLS)} -- "$cur"))
  elif [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_importkit_flags "$cmd")" -- "$cur"))
  else
    COMPREPLY=()
  fi
}

_importkit() {
  _importkit_at 0
}

# npx importkit ...: importkit's words; other npx commands are left to file names.
_importkit_npx() {
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W importkit -- "\${COMP_WORDS[1]}"))
  elif [ "\${COMP_WORDS[1]}" = importkit ]; then
    _importkit_at 1
  else
    COMPREPLY=()
  fi
}

complete -o default -F _importkit importkit
complete -p npx >/dev/null 2>&1 || complete -o default -F _importkit_npx npx
`;
}

function zsh(commands: readonly CommandWords[]): string {
  const described = commands
    .map((c) => `    ${quoted(`${c.name}:${c.summary.replace(/:/g, '\\:')}`)}`)
    .join('\n');
  const cases = commands.map((c) => `    ${c.name}) flags=(${c.flags.join(' ')}) ;;`).join('\n');
  return `#compdef importkit
# importkit completion for zsh (static: it never runs importkit). Load it from ~/.zshrc,
# after compinit: npx importkit completion zsh > ~/.importkit-completion.zsh, then
# source ~/.importkit-completion.zsh

# Completes the words after importkit, with words[1] = importkit.
_importkit_words() {
  local -a commands flags
  commands=(
${described}
  )
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    return
  fi
  case \${words[2]} in
${cases}
  esac
  if [[ \${words[2]} == completion && \${words[CURRENT]} != -* ]]; then
    compadd -- ${SHELLS.join(' ')}
  elif [[ \${words[CURRENT]} == -* ]]; then
    compadd -- $flags
  else
    _files
  fi
}

_importkit() {
  if [[ \${words[1]:t} == npx ]]; then
    # npx importkit ...: importkit's words; other npx commands are left to file names.
    if (( CURRENT == 2 )); then
      compadd -- importkit
      _files
    elif [[ \${words[2]} == importkit ]]; then
      shift words
      (( CURRENT-- ))
      _importkit_words
    else
      _files
    fi
    return
  fi
  _importkit_words
}

if [[ \${funcstack[1]} == _importkit ]]; then
  _importkit "$@"
else
  compdef _importkit importkit
  (( $+_comps[npx] )) || compdef _importkit npx
fi
`;
}

function fish(commands: readonly CommandWords[]): string {
  const lines = commands.flatMap((c) => [
    `complete -c importkit -n __fish_use_subcommand -a ${c.name} -d ${quoted(c.summary)}`,
    ...c.flags.map(
      (f) => `complete -c importkit -n '__fish_seen_subcommand_from ${c.name}' -l ${f.slice(2)}`,
    ),
  ]);
  return `# importkit completion for fish (static: it never runs importkit):
# npx importkit completion fish > ~/.config/fish/conf.d/importkit.fish
complete -c importkit -f
${lines.join('\n')}
complete -c importkit -n '__fish_seen_subcommand_from completion' -a ${words(SHELLS)}
complete -c importkit -n 'not __fish_use_subcommand; and not __fish_seen_subcommand_from completion' -F

# npx importkit ...: the words above for what follows importkit (fish completes the line
# as if it began with importkit); bound only when nothing else completes npx.
function __importkit_npx
    set -l tokens (commandline -opc)
    complete -C (string join ' ' -- importkit $tokens[3..-1] (commandline -ct))
end
if not complete -c npx | string match -q '*'
    complete -c npx -n 'test (count (commandline -opc)) -eq 1' -a importkit
    complete -c npx -n '__fish_seen_subcommand_from importkit' -f -a '(__importkit_npx)'
end
`;
}

const SCRIPTS: Record<Shell, (c: readonly CommandWords[]) => string> = { bash, zsh, fish };

/** `importkit completion <shell>`, with the command table whose words it bakes in. */
export function completionOf(commands: Readonly<Record<string, () => Promise<Command>>>): Command {
  return async (args: string[], io: Io): Promise<number> => {
    const { values, positionals } = parseCommandArgs(args, {
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      io.stdout.write(HELP);
      return EXIT_OK;
    }
    const [shell, ...extra] = positionals;
    if (!shell || !(SHELLS as readonly string[]).includes(shell) || extra.length > 0) {
      throw new UsageError(
        shell ? `no completion for '${shell}'` : 'name the shell',
        `importkit completion ${SHELLS.join('|')}`,
      );
    }
    io.stdout.write(SCRIPTS[shell as Shell](await commandWords(commands)));
    return EXIT_OK;
  };
}
