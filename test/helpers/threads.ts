/** The threads of this process, for tests that check a read leaves none of its workers running. */
import { readdirSync } from 'node:fs';

/** Threads of this process (Linux lists them; elsewhere undefined). */
export function threads(): number | undefined {
  try {
    return readdirSync('/proc/self/task').length;
  } catch {
    return undefined;
  }
}

/** A pause for threads that were stopped to be gone from the list. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 300));
}
