/**
 * The names written into the OS temp folder while some work runs: TMPDIR points at a new
 * empty folder under `parent`, watched, for the time of `run`.
 *
 * A watch delivers its events later, on the event loop, so "nothing written" can only be
 * read once every event of the work has arrived. Waiting a fixed time would let a late event
 * pass unseen; instead, after `run` a marker file is written and removed, and the names are
 * read once the marker's own events have arrived: a folder's events come in the order the
 * changes were made, so every change made during `run` has been seen by then. The names
 * still in the folder are added too (a file created and never removed).
 */
import { type FSWatcher, watch } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The marker written after the work: its events mark the end of the work's events. */
const MARKER = '.end-of-work';

/** How long the marker's events may take before the helper gives up with a clear error. */
const MARKER_MS = 30_000;

export async function tempWritesDuring<T>(
  parent: string,
  run: () => Promise<T>,
): Promise<{ result: T; written: string[] }> {
  const saved = process.env.TMPDIR;
  const temp = await mkdtemp(join(parent, 'temp-'));
  const written: string[] = [];
  let markerSeen = () => {};
  const seen = new Promise<void>((resolve) => {
    markerSeen = resolve;
  });
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(temp, (_event, name) => {
      if (String(name) === MARKER) markerSeen();
      else written.push(String(name));
    });
    process.env.TMPDIR = temp;
    if (tmpdir() !== temp) throw new Error('the OS temp folder does not follow TMPDIR');
    const result = await run();
    process.env.TMPDIR = saved;
    await writeFile(join(temp, MARKER), '');
    await rm(join(temp, MARKER));
    await waitFor(seen, MARKER_MS);
    for (const name of await readdir(temp)) written.push(name);
    return { result, written };
  } finally {
    process.env.TMPDIR = saved;
    watcher?.close();
    await rm(temp, { recursive: true, force: true });
  }
}

async function waitFor(event: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the watch reported no event in ${ms} ms after the work`)),
      ms,
    );
  });
  try {
    await Promise.race([event, late]);
  } finally {
    clearTimeout(timer);
  }
}
