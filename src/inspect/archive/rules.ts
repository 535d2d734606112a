/**
 * The rules an archive's listing must keep before any member is read: every reader of an
 * archive applies them, the command line's walks (infer, check, submit) and the emulator's
 * batch import alike, so that an archive the check passes is one the import accepts, and
 * the other way round. A member's name is a relative path inside the archive; each name is
 * there once; zip members do not share bytes; the members unpack to at most
 * MAX_INFLATION_RATIO times the archive (past a slack). Each broken rule is one coded error.
 */
import { INFLATION_SLACK, type Issue, issue, MAX_INFLATION_RATIO } from '../../model/plain.js';
import { InspectError } from '../profile.js';

/** Why a member's name is not a relative path inside the archive, or undefined. */
export function unsafeNameReason(name: string): string | undefined {
  if (name.startsWith('/')) return 'it is absolute';
  if (/^[a-zA-Z]:/.test(name)) return 'it names a drive';
  if (name.includes('\\')) return 'it holds a backslash';
  const parts = name.split('/');
  if (parts.includes('..')) return 'it holds ..';
  if (parts.includes('')) return 'it holds an empty part (//)';
  return undefined;
}

/**
 * A folder's file whose name the zip it is sent as could not hold (legal on the disk: a
 * name with a backslash, or one that begins like a drive, `a: b.csv`): the same rule as an
 * archive's, so that a folder `check` passes is one `submit` can send.
 */
export function refuseFolderName(folder: string, name: string): void {
  const why = unsafeNameReason(name);
  if (why === undefined) return;
  throw ruleError(
    folder,
    issue(
      'archive_member_name_unsafe',
      '',
      `${at(folder)}file ${JSON.stringify(name)} cannot be a member of the zip the folder is sent as (${why}); the folder is refused`,
      { hint: 'Rename the file: a name with no backslash, not beginning with a letter and `:`.' },
    ),
  );
}

/** yauzl refuses the same names while it lists a zip: its messages, as the rule's words. */
const YAUZL_NAME_ERRORS: ReadonlyArray<[RegExp, string]> = [
  [/^absolute path: (.*)$/s, 'it is absolute'],
  [/^invalid relative path: (.*)$/s, 'it holds ..'],
  [/^invalid characters in fileName: (.*)$/s, 'it holds a backslash'],
];

function ruleError(archive: string, i: Issue): InspectError {
  return new InspectError(archive === '' ? i : { ...i, source: { file: archive } });
}

/** How a message starts: the archive's name, when it has one to give. */
function at(archive: string): string {
  return archive === '' ? '' : `${archive}: `;
}

function nameError(archive: string, name: string, why: string): InspectError {
  return ruleError(
    archive,
    issue(
      'archive_member_name_unsafe',
      '',
      `${at(archive)}member ${JSON.stringify(name)} is not a relative path inside the archive (${why}); the archive is refused`,
      {
        hint: 'Make the archive again from inside its folder (`zip -r x.zip .`, `tar czf x.tar.gz .`).',
      },
    ),
  );
}

/**
 * The rule's error for a name yauzl refused while listing a zip (it checks names before we
 * see them), or undefined for any other error.
 */
export function zipNameError(archive: string, err: unknown): InspectError | undefined {
  const message = err instanceof Error ? err.message : '';
  for (const [pattern, why] of YAUZL_NAME_ERRORS) {
    const m = pattern.exec(message);
    if (m) return nameError(archive, m[1] ?? '', why);
  }
  return undefined;
}

/**
 * The listing of one archive, seen member by member in archive order (up front for a zip
 * or a plain tar, as the headers pass for a tar.gz): `see` throws InspectError when a rule
 * breaks, before the member's bytes are read.
 */
export class ArchiveListing {
  /** Each name seen, with its place in the archive (1-based, counting regular members). */
  private readonly names = new Map<string, number>();
  private readonly budget: number;
  private total = 0;
  private count = 0;

  /** `archive` names the archive in messages ('' for none: the emulator names no path). */
  constructor(
    private readonly archive: string,
    archiveSize: number,
    private readonly ratio = MAX_INFLATION_RATIO,
  ) {
    this.budget = archiveSize * ratio + INFLATION_SLACK;
  }

  /** One regular member: its name is safe and new, and its size fits what is left. */
  see(name: string, size: number): void {
    this.count += 1;
    const why = unsafeNameReason(name);
    if (why) throw nameError(this.archive, name, why);
    const first = this.names.get(name);
    if (first !== undefined) throw this.duplicate(name, first);
    this.names.set(name, this.count);
    this.total += size;
    if (this.total > this.budget) throw this.tooLarge(name);
  }

  private duplicate(name: string, first: number): InspectError {
    return ruleError(
      this.archive,
      issue(
        'archive_member_duplicate',
        '',
        `${at(this.archive)}members ${first} and ${this.count} are both named ${JSON.stringify(name)}; which one is imported is not defined, so the archive is refused`,
        { hint: 'Make the archive again from its folder, so that each name is there once.' },
      ),
    );
  }

  private tooLarge(name: string): InspectError {
    return ruleError(
      this.archive,
      issue(
        'archive_too_large',
        '',
        `${at(this.archive)}its members unpack to more than ${this.ratio} times the archive's size (${this.total} bytes by member ${this.count}, ${JSON.stringify(name)}); refused as a decompression bomb`,
        {
          hint: 'Send the data files less compressed, or in several archives.',
        },
      ),
    );
  }
}

/** Where a zip member lies in the archive, from its central directory entry. */
export interface ZipSpan {
  name: string;
  /** Its local header's offset. */
  start: number;
  /** The least its local header and data take: 30 bytes, its name and its compressed size. */
  length: number;
}

/**
 * Throws when two zip members share bytes of the archive: each member's local header and
 * data must end before the next member's local header starts (in offset order), as every
 * zip writer lays them out. Members pointing at one deflate stream (a zip bomb of
 * overlapping entries) are named, both of them.
 */
export function refuseOverlaps(archive: string, spans: readonly ZipSpan[]): void {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  for (let i = 1; i < sorted.length; i++) {
    const before = sorted[i - 1] as ZipSpan;
    const after = sorted[i] as ZipSpan;
    if (before.start + before.length <= after.start) continue;
    throw ruleError(
      archive,
      issue(
        'archive_members_overlap',
        '',
        `${at(archive)}members ${JSON.stringify(before.name)} and ${JSON.stringify(after.name)} share bytes of the archive (the first runs to byte ${before.start + before.length}, the second starts at byte ${after.start}); the archive is refused`,
        { hint: 'Make the zip again from its folder (`zip -r`).' },
      ),
    );
  }
}
