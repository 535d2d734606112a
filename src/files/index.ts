/**
 * Files: is a path a regular, readable file? Answered from `stat` alone, below every stage
 * that reads files (inspect, and the command line's config reader), so the lint path can
 * ask without loading the inspect stage. And the one way a file the user named is
 * written (`writeFileSafely`, `openPendingFile`: a new temporary file renamed over it) and
 * told apart from another (`isSameFile`). The public entry of this leaf.
 */
export { CONFIG_TOO_LARGE_HINT, configFileIssue, readConfigFile } from './config.js';
export {
  dataFileProblem,
  emptyFileIssue,
  fileErrorIssue,
  fileProblem,
} from './kind.js';
export { isSameFile, openPendingFile, type PendingFile, writeFileSafely } from './write.js';
