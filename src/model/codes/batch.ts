import type { CodeDoc } from './_types.js';

/** Issue codes of batches: a folder or an archive of many files and its BatchConfig. */
export const batchCodes = {
  batch_file_left_out: {
    severity: 'info',
    summary:
      'A file of the folder or archive is not a data file the platform imports in a batch (text, image, hidden file, `__MACOSX/`, a TDMS index, a CH10 file), so it is not listed.',
    fix: 'Nothing to do when the file is not data; list it by hand in `fileConfigs` if it is.',
  },
  batch_no_data_files: {
    severity: 'error',
    summary: 'The folder or archive holds no data file importkit can list in a batch.',
    fix: 'Check that this is the folder or archive you meant; batches import CSV, Parquet, HDF5, TDMS and ULog files.',
  },
  batch_file_missing: {
    severity: 'error',
    summary: 'A file listed in `fileConfigs` is not in the folder or archive.',
    fix: 'Fix the path (the message names the nearest path present) or add the file; paths are relative with `/`, exactly as the archive holds them.',
  },
  batch_file_not_listed: {
    severity: 'info',
    summary:
      'A data file of the folder or archive is not listed in `fileConfigs`, so it will not be imported.',
    fix: 'List it in `fileConfigs` if it should be imported.',
  },
  batch_type_mismatch: {
    severity: 'error',
    summary: "A listed file's `type` does not match the format of the file.",
    fix: "Set the file's `type` to its format (the message names it).",
  },
  archive_corrupt: {
    severity: 'error',
    summary:
      'The archive (zip, tar, tar.gz) cannot be read: it is truncated or damaged, or a member is stored with a method importkit cannot read.',
    fix: 'Check the archive (`unzip -t`, `tar -tzf`); make it again from its folder.',
  },
} as const satisfies Record<string, CodeDoc>;
