import type { CodeDoc } from './_types.js';

/** Issue codes every inspector shares (opening and recognising a file). */
export const inspectCodes = {
  file_not_found: {
    severity: 'error',
    summary: 'The file named does not exist or cannot be opened.',
    fix: 'Check the path (relative paths are resolved from the current directory) and the permissions.',
  },
  file_unreadable: {
    severity: 'error',
    summary: 'The file could not be read (no permission to read it, or an I/O error).',
    fix: 'Give the path of a regular, readable file.',
  },
  not_a_file: {
    severity: 'error',
    summary:
      'The path is a folder, a FIFO (named pipe), a socket or a device such as /dev/zero, where a regular file was expected.',
    fix: 'Give the path of a regular file (for a folder, a file inside it).',
  },
  file_empty: {
    severity: 'error',
    summary: 'The data file is empty (0 bytes): there is nothing to check or import.',
    fix: 'Check that the export finished and that this is the file you meant.',
  },
  unknown_format: {
    severity: 'error',
    summary:
      'The file is none of the formats importkit inspects (CSV, Parquet, HDF5, TDMS, CH10, ULog).',
    fix: 'Check that this is the data file you meant; give a file with a known extension or content.',
  },
} as const satisfies Record<string, CodeDoc>;
