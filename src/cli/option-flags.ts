import type { Issue } from '../model/plain.js';

/**
 * The stages name the option to set, in backticks (`timeFormat`, `relativeStartTime`), since
 * a library caller has no flags. The command line shows each as the flag that sets it, for
 * the commands that have that flag; an option the command has no flag for stays as written.
 */
export const FLAG_OF_OPTION: Readonly<Record<string, string>> = {
  assetName: '--asset',
  runName: '--run',
  timeColumn: '--time-column',
  timeFormat: '--time-format',
  relativeStartTime: '--relative-start',
  timeDataset: '--time-dataset',
  delimiter: '--delimiter',
  headerRow: '--header-row',
  full: '--full',
  layout: '--layout',
  complexTypes: '--complex-types',
  tdmsNames: '--tdms-names',
  'defaults: false': '--no-defaults',
};

/** The flag that sets a library option (`layout` → `--layout`). */
export function flagOf(option: string): string {
  return Object.hasOwn(FLAG_OF_OPTION, option) ? (FLAG_OF_OPTION[option] as string) : option;
}

/** The flags each command takes, of those above. */
const FLAGS_OF_COMMAND: Readonly<Record<string, readonly string[]>> = {
  infer: Object.values(FLAG_OF_OPTION),
  inspect: ['--delimiter', '--header-row', '--full'],
  check: ['--delimiter', '--header-row', '--full'],
  preview: ['--full'],
  normalize: ['--delimiter', '--header-row'],
};

/** The text with each option in backticks that `command` has a flag for written as that flag. */
export function withFlags(text: string, command: string): string {
  const flags = FLAGS_OF_COMMAND[command] ?? [];
  return text.replace(/`([^`]+)`/g, (whole, option: string) => {
    const flag = Object.hasOwn(FLAG_OF_OPTION, option) ? FLAG_OF_OPTION[option] : undefined;
    return flag !== undefined && flags.includes(flag) ? flag : whole;
  });
}

/** An issue as `command` shows it: its message and hint with the command's flags. */
export function issueWithFlags(issue: Issue, command: string): Issue {
  const out: Issue = { ...issue, message: withFlags(issue.message, command) };
  if (issue.hint !== undefined) out.hint = withFlags(issue.hint, command);
  return out;
}
