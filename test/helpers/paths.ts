import { join } from 'node:path';

/** The repository root: tests read nothing outside it. */
export const repoRoot = join(import.meta.dirname, '..', '..');

/** The platform's own sample files, copied into the repository (see their README). */
export const platformExamples = join(repoRoot, 'fixtures', 'platform-examples');
