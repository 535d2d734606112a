import type { CodeDoc } from './_types.js';

/** Issue codes of HDF5 inspection and inference. */
export const hdf5Codes = {
  hdf5_signature_missing: {
    severity: 'error',
    summary:
      'The file has no HDF5 signature (`\\x89HDF\\r\\n\\x1a\\n` at byte 0, 512, 1024, 2048 ...): it is not an HDF5 file.',
    fix: 'Check that this is the data file you meant; a netCDF-3 `.nc` file is not HDF5 (convert it to netCDF-4).',
  },
  hdf5_superblock_invalid: {
    severity: 'error',
    summary:
      'The HDF5 superblock (the header after the signature) is cut short or has values no HDF5 writer uses.',
    fix: 'The file is damaged or incomplete: write or copy it again.',
  },
  hdf5_truncated: {
    severity: 'error',
    summary:
      'The file is shorter than the end-of-file address its superblock records: it was cut short.',
    fix: 'Copy or download the file again; a writer that was killed leaves such files (close it before copying).',
  },
  hdf5_unreadable: {
    severity: 'error',
    summary:
      'The HDF5 library could not open or read the file (damaged metadata or an unsupported feature).',
    fix: 'Check that the file opens with `h5dump -H`; write it again if it does not.',
  },
  hdf5_dataset_skipped: {
    severity: 'info',
    summary:
      'A dataset (or a compound member or column) fits none of the layouts the platform imports, or has a type with no channel type; it is left out of the draft.',
    fix: 'Nothing to do if the dataset is not a channel; otherwise add its entry by hand (see the message for why it was left out).',
  },
  hdf5_no_channels: {
    severity: 'error',
    summary:
      'No dataset of the file fits a layout the platform imports (1-D value + time datasets, [N, k] datasets, compound datasets).',
    fix: 'Check the file; give `--time-dataset` when the time dataset has an unusual name.',
  },
  hdf5_channel_name_duplicate: {
    severity: 'warning',
    summary:
      'Two channels got the same name (from their attributes or paths); the later one was renamed with a suffix.',
    fix: 'Check the names in the draft and give each channel the name you want.',
  },
  hdf5_time_formats_differ: {
    severity: 'warning',
    summary:
      'The time datasets of the file suggest different time formats, but an HDF5 config has one `timeFormat` for all of them.',
    fix: 'Check which format is right; import the datasets with other formats in a separate import.',
  },
  hdf5_time_dataset_left_out: {
    severity: 'warning',
    summary:
      "A time dataset the draft's one `timeFormat` does not read (text beside numbers, another unit, or a `--time-format` given for the others) is left out with the channels it times, so that the draft imports the rest; the message says why, as check would.",
    fix: 'Import the channels left out with a config of their own (`importkit infer --time-format` with the format the message names).',
  },
  hdf5_time_format_guessed: {
    severity: 'warning',
    summary:
      'The time values carry no units and are not unix times in a plausible range: a relative format was guessed.',
    fix: 'Check `timeFormat` (or pass `--time-format`) and set `relativeStartTime` (or pass `--relative-start`).',
  },
  hdf5_time_unit_unsupported: {
    severity: 'warning',
    summary:
      'The time dataset’s units name a unit the platform has no time format for (days, years ...).',
    fix: 'Convert the time values to seconds or a smaller unit, or pass `--time-format`.',
  },
  hdf5_time_dataset_not_found: {
    severity: 'error',
    summary:
      'The time dataset given (`--time-dataset`) is not a 1-D numeric or string dataset of the file.',
    fix: 'Give the full path of a 1-D time dataset, for example `/sensors/time` (see `importkit inspect`).',
  },
  hdf5_time_format_invalid: {
    severity: 'error',
    summary: 'The time format given (`--time-format`) is not a TimeFormat name.',
    fix: 'Use a full or short name such as `TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS` or `RELATIVE_SECONDS`.',
  },
  hdf5_relative_start_invalid: {
    severity: 'error',
    summary: 'The start time given (`--relative-start`) is not an RFC 3339 timestamp with a zone.',
    fix: 'Write it like `2024-05-01T12:00:00Z` or `2024-05-01T14:00:00+02:00`.',
  },
} as const satisfies Record<string, CodeDoc>;
