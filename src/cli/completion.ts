/**
 * The `completion` command: prints a shell completion script for bash, zsh or fish, to be sourced
 * (`source <(spidersolve completion bash)`). The script is made from the commander program itself —
 * its commands, their options and arguments — each time it is printed, so it lists what this
 * version of the program has and never goes stale; only the values of a few options (COMMON_VALUES,
 * FORMAT_VALUES) are written here, and the players' names come from the players' own list
 * (src/blind/players/index.ts PLAYER_NAMES).
 */
import type { Command, Option } from 'commander';
import { PLAYER_NAMES } from '../blind/players/index.js';
import { InputError, quoteInput } from '../game/errors.js';
import { PLAIN_EXIT_HELP } from './common.js';

/** The shells a script is made for. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
/** One of SHELLS. */
export type Shell = (typeof SHELLS)[number];

/** One option of a command, as the scripts need it. */
export interface CompletionOption {
  /** `--db`, or the short form (`-h`) for an option that has only one. */
  readonly long: string;
  readonly short: string | null;
  /** The help's first clause, for zsh's and fish's menus. */
  readonly description: string;
  /** Whether a value follows the option. */
  readonly takesValue: boolean;
  /** Whether that value is a file name (`<file>`, `<files...>`). */
  readonly file: boolean;
  /** The values it takes, when they are a fixed few; else null. */
  readonly values: readonly string[] | null;
}

/** One command. */
export interface CompletionCommand {
  readonly name: string;
  readonly description: string;
  readonly options: readonly CompletionOption[];
  /** Whether it takes arguments (a deal, files): completed as file names, since a deal may be a position file. */
  readonly takesArguments: boolean;
  /** The values its arguments take, when they are a fixed few (completion's shells); else null. */
  readonly argumentValues: readonly string[] | null;
}

/** Values of options that mean the same in every command. */
const COMMON_VALUES: Readonly<Record<string, readonly string[]>> = {
  '--game': ['spider', 'spiderette'],
  '--columns': ['pysol', 'spidersolve'],
  // blind and batch: the players' names (a spec's parameters, `sample:k=16`, are typed after one)
  '--player': PLAYER_NAMES,
};

/** `--format`'s values, per command (they differ). */
const FORMAT_VALUES: Readonly<Record<string, readonly string[]>> = {
  report: ['table', 'md', 'csv', 'json', 'html', 'vega'],
  show: ['text', 'json', 'position', 'position-json'],
};

/** The first clause of a help text, at most 70 characters, for a menu. */
function shortHelp(text: string): string {
  const first = text.split(/[;:(]|\.\s+(?=[A-Z])/)[0]!.trim();
  return first.length > 70 ? `${first.slice(0, 67).trimEnd()}...` : first;
}

function optionOf(command: string, o: Option): CompletionOption {
  const long = o.long ?? o.short ?? o.flags;
  return {
    long,
    short: o.long && o.short ? o.short : null,
    description: shortHelp(o.description ?? ''),
    takesValue: o.required || o.optional,
    file: /<files?(\.\.\.)?>/.test(o.flags),
    values: long === '--format' ? (FORMAT_VALUES[command] ?? null) : (COMMON_VALUES[long] ?? null),
  };
}

/** The help option every command has. */
const HELP: CompletionOption = { long: '--help', short: '-h', description: 'display help for command', takesValue: false, file: false, values: null };

/** The commands of `program` and their options, as the scripts list them (hidden options left out). */
export function completionCommands(program: Command): CompletionCommand[] {
  return program.commands.map((c) => ({
    name: c.name(),
    description: shortHelp(c.description()),
    options: [...c.options.filter((o) => !o.hidden).map((o) => optionOf(c.name(), o)), HELP],
    takesArguments: c.registeredArguments.length > 0,
    argumentValues: c.name() === 'completion' ? SHELLS : null,
  }));
}

/** `text` in single quotes for bash, zsh and fish (a quote inside written as '\''; fish as \'). */
function sq(text: string, shell: Shell = 'bash'): string {
  return shell === 'fish' ? `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A shell function name part: the command with anything but letters and digits as _. */
function ident(name: string): string {
  return name.replace(/[^A-Za-z0-9]/g, '_');
}

function bashScript(name: string, cmds: readonly CompletionCommand[]): string {
  const fn = `_${ident(name)}`;
  const cases = cmds
    .map((c) => {
      const words = c.options.flatMap((o) => [o.long, ...(o.short ? [o.short] : [])]).join(' ');
      const valued = c.options.filter((o) => o.takesValue);
      const valueCases = valued
        .map((o) => {
          const pat = [o.long, ...(o.short ? [o.short] : [])].join('|');
          const act = o.values ? `COMPREPLY=($(compgen -W ${sq(o.values.join(' '))} -- "$cur"))` : o.file ? `COMPREPLY=($(compgen -f -- "$cur")); compopt -o filenames 2>/dev/null` : 'COMPREPLY=()';
          return `          ${pat}) ${act}; return ;;`;
        })
        .join('\n');
      return [
        `    ${c.name})`,
        `      opts=${sq(words)}`,
        valued.length ? `      case "$prev" in\n${valueCases}\n      esac` : '',
        c.argumentValues ? `      [[ "$cur" != -* ]] && { COMPREPLY=($(compgen -W ${sq(c.argumentValues.join(' '))} -- "$cur")); return; }` : '',
        `      args=${c.takesArguments ? 1 : 0}`,
        '      ;;',
      ]
        .filter(Boolean)
        .join('\n');
    })
    .join('\n');
  const names = cmds.map((c) => c.name).join(' ');
  return `# bash completion for ${name}: source <(${name} completion bash), or write it to a file that ~/.bashrc sources
${fn}() {
  local cur prev cmd opts args i
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev=""
  (( COMP_CWORD > 0 )) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  cmd=""
  for (( i = 1; i < COMP_CWORD; i++ )); do
    case "\${COMP_WORDS[i]}" in -*) ;; *) cmd="\${COMP_WORDS[i]}"; break ;; esac
  done
  if [[ -z "$cmd" ]]; then
    COMPREPLY=($(compgen -W ${sq(`${names} help --help --version`)} -- "$cur"))
    return
  fi
  opts=""
  args=0
  case "$cmd" in
    help) COMPREPLY=($(compgen -W ${sq(names)} -- "$cur")); return ;;
${cases}
  esac
  if [[ "$cur" == -* || $args -eq 0 ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
    compopt -o filenames 2>/dev/null
  fi
}
complete -F ${fn} ${name}
`;
}

/** A text for zsh's _describe and _arguments specs: `[`, `]`, `:` and `\` escaped. */
function zq(text: string): string {
  return text.replace(/[\\[\]:]/g, (c) => `\\${c}`);
}

function zshScript(name: string, cmds: readonly CompletionCommand[]): string {
  const fn = `_${ident(name)}`;
  const described = cmds.map((c) => `    ${sq(`${c.name.replace(/:/g, '\\:')}:${c.description}`, 'zsh')}`).join('\n');
  const cases = cmds
    .map((c) => {
      const specs = c.options.map((o) => {
        const action = o.takesValue ? `:${zq(o.long.replace(/^-+/, ''))}:${o.values ? `(${o.values.join(' ')})` : o.file ? '_files' : ' '}` : '';
        const names = o.short ? `{${o.short},${o.long}}` : o.long;
        return `        ${o.short ? `${names}${sq(`[${zq(o.description)}]${action}`, 'zsh')}` : sq(`${names}[${zq(o.description)}]${action}`, 'zsh')}`;
      });
      if (c.argumentValues) specs.push(`        ${sq(`1:shell:(${c.argumentValues.join(' ')})`, 'zsh')}`);
      else if (c.takesArguments) specs.push(`        ${sq('*:deal or file:_files', 'zsh')}`);
      return `    ${c.name})\n      _arguments -s \\\n${specs.join(' \\\n')}\n      ;;`;
    })
    .join('\n');
  return `#compdef ${name}
# zsh completion for ${name}: source <(${name} completion zsh), or save it as _${name} in a folder of $fpath
${fn}() {
  local -a commands
  commands=(
${described}
    'help:display help for a command'
  )
  if (( CURRENT == 2 )); then
    _describe -t commands 'spidersolve command' commands
    return
  fi
  local cmd=$words[2]
  shift words
  (( CURRENT-- ))
  case $cmd in
    help) _describe -t commands 'spidersolve command' commands ;;
${cases}
  esac
}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  ${fn} "$@"
else
  compdef ${fn} ${name}
fi
`;
}

function fishScript(name: string, cmds: readonly CompletionCommand[]): string {
  const names = cmds.map((c) => c.name).join(' ');
  const lines = [
    `# fish completion for ${name}: ${name} completion fish | source, or save it as ~/.config/fish/completions/${name}.fish`,
    `complete -c ${name} -f`,
    `complete -c ${name} -n '__fish_use_subcommand' -a help -d 'display help for a command'`,
    `complete -c ${name} -n '__fish_seen_subcommand_from help' -a ${sq(names, 'fish')}`,
  ];
  for (const c of cmds) {
    lines.push(`complete -c ${name} -n '__fish_use_subcommand' -a ${c.name} -d ${sq(c.description, 'fish')}`);
    const when = `-n '__fish_seen_subcommand_from ${c.name}'`;
    if (c.argumentValues) lines.push(`complete -c ${name} ${when} -a ${sq(c.argumentValues.join(' '), 'fish')}`);
    else if (c.takesArguments) lines.push(`complete -c ${name} ${when} -F`);
    for (const o of c.options) {
      const flag = o.long.startsWith('--') ? `-l ${o.long.slice(2)}` : `-s ${o.long.slice(1)}`;
      const short = o.short ? ` -s ${o.short.slice(1)}` : '';
      const value = !o.takesValue ? '' : o.values ? ` -x -a ${sq(o.values.join(' '), 'fish')}` : o.file ? ' -r -F' : ' -x';
      lines.push(`complete -c ${name} ${when} ${flag}${short}${value} -d ${sq(o.description, 'fish')}`);
    }
  }
  return lines.join('\n') + '\n';
}

/**
 * The completion script of `program` for `shell`. Throws InputError `bad-option` for another shell.
 */
export function completionScript(program: Command, shell: string): string {
  const sh = String(shell).trim().toLowerCase();
  if (!(SHELLS as readonly string[]).includes(sh)) throw new InputError('bad-option', `completion: shell ${quoteInput(shell)}: use bash, zsh or fish`);
  const cmds = completionCommands(program);
  const name = program.name();
  return sh === 'bash' ? bashScript(name, cmds) : sh === 'zsh' ? zshScript(name, cmds) : fishScript(name, cmds);
}

/** Adds `completion` to the program (called by src/cli/main.ts, after the other commands). */
export function registerCompletionCommand(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish) of the commands and options, to source')
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText(
      'after',
      '\nExamples:\n  source <(spidersolve completion bash)        (in ~/.bashrc)\n  source <(spidersolve completion zsh)         (in ~/.zshrc, after compinit)\n  spidersolve completion fish > ~/.config/fish/completions/spidersolve.fish' + PLAIN_EXIT_HELP,
    )
    .action((shell: string) => {
      process.stdout.write(completionScript(program, shell));
    });
}
