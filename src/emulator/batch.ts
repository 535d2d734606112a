/**
 * A batch import in the emulator: the uploaded archive (zip, tar or tar.gz) is unpacked as a
 * stream, its listed members only, each written to disk as it inflates (memory stays at a
 * chunk or two whatever the sizes), under the rules every archive reader keeps (safe names,
 * each name once, the inflation budget); then the archive is checked with the library's own
 * batch check, the one `importkit check` runs, members read where they lie in the archive,
 * so that they are named exactly as the archive names them (`./a.csv` too, which unpacks to
 * `a.csv`). The first members that do not fit are named in the import's error message.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BatchConfig } from '../model/index.js';
import type { Issue } from '../model/plain.js';

/** The end of a batch import: a failure message, or the warnings of a success. */
export interface BatchOutcome {
  failure?: string;
  warnings: string[];
}

/** What a failed check says: the first errors, each naming its member. */
function describe(errors: readonly Issue[]): string {
  const shown = errors.slice(0, 3).map((i) => {
    const member = i.source?.file;
    return `${member ? `member ${member}: ` : ''}${i.message}${i.path ? ` (at ${i.path})` : ''}`;
  });
  const more = errors.length > 3 ? `; and ${errors.length - 3} more` : '';
  return `${shown.join('; ')}${more}`;
}

/** Unpacks the listed members of `archive` and checks each against the batch config. */
export async function importBatch(archive: string, batch: BatchConfig): Promise<BatchOutcome> {
  const { containerKind, hideRoot, InspectError, UnpackError, unpackMembers } = await import(
    '../inspect/index.js'
  );
  const kind = await containerKind(archive);
  if (!kind || kind === 'folder')
    return {
      failure: 'the upload is not a zip, tar or tar.gz archive, but the config is a BatchConfig',
      warnings: [],
    };
  const root = await mkdtemp(join(dirname(archive), 'members-'));
  const hide = (text: string) => hideRoot(text, root);
  try {
    const listed = new Set(Object.keys(batch.fileConfigs ?? {}));
    await unpackMembers(archive, kind, root, listed);
    const { checkBatch } = await import('../check/index.js');
    const issues = await checkBatch(batch, archive);
    const errors = issues.filter((i) => i.severity === 'error');
    const warnings = issues.filter((i) => i.severity === 'warning').map((i) => i.message);
    return errors.length > 0 ? { failure: describe(errors), warnings } : { warnings };
  } catch (err) {
    if (err instanceof InspectError)
      return { failure: `cannot read the archive: ${err.message}`, warnings: [] };
    if (!(err instanceof UnpackError)) throw err;
    const at = err.member === undefined ? '' : `member ${err.member}: `;
    return { failure: `cannot read the archive: ${at}${hide(err.message)}`, warnings: [] };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
