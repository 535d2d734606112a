/**
 * A submit cut short once its import exists (Ctrl-C, an upload refused or broken, a status
 * that cannot be read): which import exists, in what state, and the command that finishes
 * it. An import created for an upload imports nothing until its file arrives, and the
 * platform has no call that deletes one: the way out is to send the file again to the same
 * import (its upload URL, `submit --import ID --upload-url URL`), or to leave it.
 */
import type { Client } from '../../client/index.js';
import type { DataImport } from '../../model/index.js';
import { EXIT_INTERRUPTED, EXIT_INVALID } from '../errors.js';
import type { Io } from '../io.js';
import { printable, printableJson } from '../printable.js';

/** Ctrl-C, as the reason of an aborted signal. */
export class Interrupted extends Error {
  constructor() {
    super('interrupted');
    this.name = 'Interrupted';
  }
}

/** Ctrl-C while a command talks to the service: a signal instead of Node's default exit. */
export interface InterruptGuard {
  /** Aborted (with Interrupted) on Ctrl-C. */
  readonly signal: AbortSignal;
  /**
   * Runs the create: a first Ctrl-C is noted and acted on once the service has answered
   * (so the import it made can be named); a second one stops the create at once.
   */
  creating<T>(create: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Gives Ctrl-C back to Node. */
  release(): void;
}

export function interruptGuard(io: Io): InterruptGuard {
  const controller = new AbortController();
  let create: AbortController | undefined;
  let noted = false;
  const onSigint = () => {
    if (create && !noted) {
      noted = true;
      io.stderr.write(
        'interrupted: waiting for the service to answer the create, to say which import it made (Ctrl-C again stops at once)\n',
      );
      return;
    }
    create?.abort(new Interrupted());
    controller.abort(new Interrupted());
  };
  process.on('SIGINT', onSigint);
  return {
    signal: controller.signal,
    async creating(run) {
      create = new AbortController();
      try {
        return await run(create.signal);
      } finally {
        create = undefined;
        if (noted) controller.abort(new Interrupted());
      }
    },
    release: () => process.off('SIGINT', onSigint),
  };
}

/** An import whose file did not (surely) arrive, and why the submit stopped. */
export interface Unfinished {
  id: string;
  /** Where its file goes, as CreateDataImportFromUpload answered. */
  uploadUrl: string;
  /** Interrupted, or the error the upload ended with (already explained for people). */
  cause: unknown;
  /** The upload had begun when it stopped. */
  uploading: boolean;
  json: boolean;
  /** The submit command that sends the file again to this import, as words. */
  resume: readonly string[];
}

/** How long reading the import's state may take once the submit has stopped. */
const STATE_DEADLINE_MS = 5_000;

/**
 * Says what stopped the submit, which import exists and in what state, and how to finish
 * it (or that it goes on); `--json` writes the same on stdout. Answers the exit code:
 * 130 interrupted, else 1.
 */
export async function reportUnfinished(client: Client, io: Io, u: Unfinished): Promise<number> {
  const interrupted = u.cause instanceof Interrupted;
  const say = (line: string) => io.stderr.write(`${printable(line)}\n`);
  if (interrupted) {
    say(
      u.uploading
        ? 'interrupted: the upload stopped before the service had the whole file'
        : 'interrupted: the file was not sent',
    );
  } else {
    say(`importkit submit: ${u.cause instanceof Error ? u.cause.message : String(u.cause)}`);
    const hint = (u.cause as { hint?: unknown } | undefined)?.hint;
    if (typeof hint === 'string') say(`  hint: ${hint}`);
  }
  let state: DataImport | undefined;
  let unread = '';
  try {
    state = await client.getDataImport(u.id, { deadlineMs: STATE_DEADLINE_MS });
  } catch (err) {
    unread = err instanceof Error ? err.message : String(err);
  }
  const waiting = state === undefined || state.status === 'DATA_IMPORT_STATUS_PENDING';
  const next = waiting ? shellCommand(u.resume) : `importkit status ${shellWord(u.id)} --wait`;
  if (state === undefined)
    say(`data import ${u.id} exists; its state could not be read (${unread})`);
  else if (waiting) {
    say(
      `data import ${u.id} is PENDING, without its file: nothing is imported until the file is sent`,
    );
  } else {
    const status = (state.status ?? 'UNKNOWN').replace(/^DATA_IMPORT_STATUS_/, '');
    say(`data import ${u.id} is ${status}: the service has its file; follow it with: ${next}`);
  }
  if (waiting) {
    say('  to send the file again to the same import:');
    say(`    ${next}`);
    say(
      `  or leave it: it holds no data (the platform has no call to delete an import; importkit status ${u.id} shows it)`,
    );
  }
  if (u.json) {
    const data: Record<string, unknown> = {
      dataImport: state ?? { dataImportId: u.id },
      interrupted,
      ...(interrupted
        ? {}
        : { error: u.cause instanceof Error ? u.cause.message : String(u.cause) }),
      next,
      ...(waiting ? { uploadUrl: u.uploadUrl } : {}),
    };
    io.stdout.write(`${printableJson(data)}\n`);
  }
  return interrupted ? EXIT_INTERRUPTED : EXIT_INVALID;
}

/** A word as a POSIX shell reads it back: bare when safe, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function shellCommand(words: readonly string[]): string {
  return ['importkit', ...words].map(shellWord).join(' ');
}
