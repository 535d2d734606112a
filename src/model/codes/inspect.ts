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
    summary: 'The file could not be read (an I/O error or a directory where a file was expected).',
    fix: 'Give the path of a regular, readable file.',
  },
  unknown_format: {
    severity: 'error',
    summary: 'The file is none of the formats importkit inspects (CSV, Parquet, HDF5).',
    fix: 'Check that this is the data file you meant; give a file with a known extension or content.',
  },
  format_not_supported: {
    severity: 'error',
    summary:
      'The file is of a format the platform imports but importkit cannot inspect yet (TDMS, ULog, CH10).',
    fix: 'Write the config by hand (see docs/) or with a builder; `importkit lint` still checks it.',
  },
} as const satisfies Record<string, CodeDoc>;
