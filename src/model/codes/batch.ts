import type { CodeDoc } from './_types.js';

/** Issue codes of batches: a folder or an archive of many files and its BatchConfig. */
export const batchCodes = {
  batch_file_left_out: {
    severity: 'info',
    summary:
      'A file of the folder or archive is not a data file the platform imports in a batch (text, image, hidden file, `__MACOSX/`, a TDMS index), so it is not listed.',
    fix: 'Nothing to do when the file is not data; list it by hand in `fileConfigs` if it is.',
  },
  batch_no_data_files: {
    severity: 'error',
    summary: 'The folder or archive holds no data file importkit can list in a batch.',
    fix: 'Check that this is the folder or archive you meant; batches import CSV, Parquet, HDF5, TDMS, CH10 and ULog files.',
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
  archive_member_name_unsafe: {
    severity: 'error',
    summary:
      "An archive member's name is not a relative path inside the archive (it is absolute, names a drive, holds `..`, a backslash or an empty part): the platform refuses the archive. A folder's file whose name a zip cannot hold (it begins like a drive, or holds a backslash) refuses the folder: a folder is sent as a zip.",
    fix: 'Make the archive again from inside its folder (`zip -r x.zip .`, `tar czf x.tar.gz .`), so that every name is relative.',
  },
  archive_member_duplicate: {
    severity: 'error',
    summary:
      'Two members of the archive have the same name: which one would be imported is not defined, so the archive is refused.',
    fix: 'Make the archive again from its folder, so that each name is there once.',
  },
  archive_members_overlap: {
    severity: 'error',
    summary:
      "Two members of a zip share the same bytes of the archive (their central directory entries point into each other's data): a crafted archive, refused.",
    fix: 'Make the zip again from its folder (`zip -r`).',
  },
  archive_too_large: {
    severity: 'error',
    summary:
      "The archive's members unpack to more than 100 times the archive's size (past 16 MiB): it is treated as a decompression bomb and refused.",
    fix: 'Send the data files less compressed (or in several archives); a real data file rarely compresses 100 times.',
  },
} as const satisfies Record<string, CodeDoc>;
