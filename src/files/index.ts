/**
 * Files: is a path a regular, readable file? Answered from `stat` alone, below every stage
 * that reads files (inspect, and the command line's config reader), so the lint path can
 * ask without loading the inspect stage. The public entry of this leaf.
 */
export {
  dataFileProblem,
  emptyFileIssue,
  fileErrorIssue,
  fileProblem,
  fileProblemSync,
} from './kind.js';
