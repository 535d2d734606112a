/**
 * What a walk over a folder or an archive hands out, and its error: shared by the
 * container and each reader (folder, zip, tar), which the container loads on demand.
 */

import { issue } from '../../model/plain.js';
import type { ByteSource } from '../byte-source.js';
import { InspectError } from '../profile.js';

export type ContainerKind = 'folder' | 'zip' | 'tar' | 'tar.gz';

/** One regular file of a folder or an archive, by its path inside it (POSIX `/`, relative). */
export interface ContainerMember {
  path: string;
  size: number;
  /** A folder's member: its own file on disk (an archive's members have none). */
  file?: string;
}

/**
 * Called once per regular member. `open` gives a ByteSource named by the member's path,
 * readable until the visit's promise settles (the visit closes it).
 */
export type MemberVisit = (
  member: ContainerMember,
  open: () => Promise<ByteSource>,
) => Promise<void>;

export interface Container {
  kind: ContainerKind;
  /** The folder or archive as given. */
  name: string;
  /** Bytes read from the archive file so far (for a folder: 0, its files count their own). */
  readonly bytesRead: number;
  /** How many regular members there are, when known before the walk (folder, zip). */
  readonly count: number | undefined;
  /**
   * Visits every regular member, `jobs` at a time, each read where it lies (nothing is
   * extracted). Rejects on a damaged archive.
   */
  walk(visit: MemberVisit, jobs: number): Promise<void>;
  close(): Promise<void>;
}

/** The error for an archive that cannot be read, naming it and the member being read. */
export function archiveError(
  archive: string,
  member: string | undefined,
  err: unknown,
): InspectError {
  if (err instanceof InspectError) return err;
  const why = err instanceof Error ? err.message : String(err);
  return new InspectError(
    issue(
      'archive_corrupt',
      '',
      `${archive}: ${member === undefined ? '' : `member ${member}: `}the archive is truncated or damaged (${why})`,
      {
        hint: 'Check the archive (`unzip -t`, `tar -tzf`); make it again from its folder.',
        source: { file: archive },
      },
    ),
    { cause: err },
  );
}
