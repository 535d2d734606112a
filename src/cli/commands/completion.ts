/**
 * `importkit completion bash|zsh|fish`: prints a shell completion script. Commands are
 * completed from the command table; a command's flags from its own `--help` (asked when
 * completing, so they never drift from the command); other words complete as file names.
 */

import { commandSummaries, parseCommandArgs } from '../args.js';
import { EXIT_OK, UsageError } from '../errors.js';
import type { Io } from '../io.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

const HELP = `Usage: importkit completion bash|zsh|fish

Prints a completion script for the shell: command names, each command's flags, file names.

  bash   eval "$(importkit completion bash)"   (in ~/.bashrc)
  zsh    eval "$(importkit completion zsh)"    (in ~/.zshrc, after compinit)
  fish   importkit completion fish > ~/.config/fish/completions/importkit.fish
`;

/** The shell words that list a command's flags, from its help text. */
const FLAGS_OF = (cmd: string) =>
  `importkit ${cmd} --help 2>/dev/null | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u`;

function bash(commands: Array<[string, string]>): string {
  const names = commands.map(([n]) => n).join(' ');
  return `# importkit completion for bash: eval "$(importkit completion bash)"
_importkit() {
  local cur=\${COMP_WORDS[COMP_CWORD]}
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${names}" -- "$cur"))
    return
  fi
  local cmd=\${COMP_WORDS[1]}
  if [ "$cmd" = completion ]; then
    COMPREPLY=($(compgen -W "${SHELLS.join(' ')}" -- "$cur"))
  elif [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(${FLAGS_OF('"$cmd"')})" -- "$cur"))
  else
    COMPREPLY=()
  fi
}
complete -o default -F _importkit importkit
`;
}

function zsh(commands: Array<[string, string]>): string {
  const described = commands.map(([n, s]) => `    '${n}:${s.replace(/'/g, '')}'`).join('\n');
  return `#compdef importkit
# importkit completion for zsh: eval "$(importkit completion zsh)" (after compinit)
_importkit() {
  local -a commands
  commands=(
${described}
  )
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    return
  fi
  local cmd=\${words[2]}
  if [[ $cmd == completion ]]; then
    compadd ${SHELLS.join(' ')}
  elif [[ \${words[CURRENT]} == -* ]]; then
    compadd -- \${(f)"$(${FLAGS_OF('$cmd')})"}
  else
    _files
  fi
}
if [ "$funcstack[1]" = "_importkit" ]; then
  _importkit "$@"
else
  compdef _importkit importkit
fi
`;
}

function fish(commands: Array<[string, string]>): string {
  const lines = commands.map(
    ([n, s]) =>
      `complete -c importkit -n __fish_use_subcommand -a ${n} -d '${s.replace(/'/g, '')}'`,
  );
  return `# importkit completion for fish: importkit completion fish > ~/.config/fish/completions/importkit.fish
function __importkit_flags
    set -l cmd (commandline -opc)[2]
    importkit $cmd --help 2>/dev/null | string match -r -a -- '--[a-z][a-z0-9-]*' | sort -u
end
complete -c importkit -f
${lines.join('\n')}
complete -c importkit -n '__fish_seen_subcommand_from completion' -a '${SHELLS.join(' ')}'
complete -c importkit -n 'not __fish_use_subcommand; and string match -q -- "-*" (commandline -ct)' -a '(__importkit_flags)'
complete -c importkit -n 'not __fish_use_subcommand; and not __fish_seen_subcommand_from completion' -F
`;
}

export async function completion(args: string[], io: Io): Promise<number> {
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
  const scripts: Record<Shell, (c: Array<[string, string]>) => string> = { bash, zsh, fish };
  io.stdout.write(scripts[shell as Shell](commandSummaries()));
  return EXIT_OK;
}
