import type { CodeDoc } from './_types.js';

/** Issue codes of TDMS inspection, inference and checks. */
export const tdmsCodes = {
  tdms_signature_missing: {
    severity: 'error',
    summary:
      'The file does not start with a TDMS lead-in (`TDSm`): it is not a TDMS file, or it is empty.',
    fix: 'Check that this is the data file you meant (a `.tdms_index` file is not the data file).',
  },
  tdms_truncated: {
    severity: 'error',
    summary: 'The first segment of the file is cut short: not even its metadata can be read.',
    fix: 'Copy the file again; a writer that was stopped early leaves such files.',
  },
  tdms_metadata_invalid: {
    severity: 'error',
    summary:
      'The metadata of the first segment holds values no TDMS writer writes (a length past the block, an unknown data type, a bad version).',
    fix: 'The file is damaged: write or copy it again.',
  },
  tdms_segments_unread: {
    severity: 'warning',
    summary:
      'A segment is cut short (its values up to the end of the file were read, after the segments before it), or a later segment is damaged (the segments before it were read, the rest of the file was not).',
    fix: 'Copy the file again if it should be complete; otherwise the draft covers what the file holds up to that segment.',
  },
  tdms_segment_unfinished: {
    severity: 'info',
    summary:
      'The last segment was never finished (its next-segment offset is all ones): its data runs to the end of the file.',
    fix: 'Nothing to do: the platform reads such files; the writer was not closed cleanly.',
  },
  tdms_index_ignored: {
    severity: 'warning',
    summary:
      'The `.tdms_index` file beside the data file does not match it (other segments or sizes): the data file was read instead.',
    fix: 'Delete the stale index file; the writer makes a new one.',
  },
  tdms_no_channels: {
    severity: 'warning',
    summary: 'The file holds no channel with data, so the draft has no data entries.',
    fix: 'Check that this is the file you meant; an empty `data` list imports every channel.',
  },
  tdms_channel_skipped: {
    severity: 'info',
    summary:
      'A channel is left out of the draft: it holds no data, or its data type has no channel type.',
    fix: 'Nothing to do if the channel is not needed; the message says why it was left out.',
  },
  tdms_channel_untimed: {
    severity: 'warning',
    summary:
      'Channels have neither waveform properties (`wf_start_time` and `wf_increment`) nor a time channel in their group: the platform cannot time them.',
    fix: 'They are left out of the draft. Add a time channel to their group, or list them with `fallbackMethod: TDMS_FALLBACK_METHOD_IGNORE_ERROR` (skipped) or `_FAIL_ON_ERROR` (the import fails).',
  },
  tdms_waveform_start_relative: {
    severity: 'warning',
    summary:
      'Waveform channels start at the TDMS epoch (1904-01-01) or say `NI_ExpIsRelativeTime`: their start time is not recorded.',
    fix: 'Set `startTimeOverride` to the time the acquisition started (the message proposes one when the file has a datetime property).',
  },
  tdms_file_properties: {
    severity: 'info',
    summary:
      'The file has properties that could become run metadata, but `importFileProperties` needs a run.',
    fix: 'Pass `--run <name>` to `importkit infer` (or set `runName`), and the draft sets `importFileProperties`.',
  },
  tdms_channel_name_duplicate: {
    severity: 'info',
    summary:
      'Channels of the same name in several groups: their channel names are written `<group>.<channel>` so they stay apart.',
    fix: 'Check the names in the draft and give each channel the name you want.',
  },
  tdms_time_formats_differ: {
    severity: 'warning',
    summary:
      'Relative time channels of different units, but a TDMS config has one `timeFormat` for all of them.',
    fix: 'Check which format is right; import the groups with other units in a separate import.',
  },
  tdms_time_unit_guessed: {
    severity: 'warning',
    summary:
      'A numeric time channel has no unit (no `unit_string`, no unit in its name): seconds were assumed.',
    fix: 'Pass --time-format (RELATIVE_MILLISECONDS ...) or set `timeFormat` to the unit of the times.',
  },
  tdms_group_not_in_file: {
    severity: 'error',
    summary: 'A data entry names a group the TDMS file does not have.',
    fix: 'Use a group name of the file (the message suggests the nearest one; `importkit inspect` lists them).',
  },
  tdms_channel_not_in_file: {
    severity: 'error',
    summary: 'A data entry names a channel its group does not have.',
    fix: 'Use a channel name of that group (the message suggests the nearest one, or the group that has it).',
  },
  tdms_time_channel_not_in_file: {
    severity: 'error',
    summary: 'A `timeChannelName` names a channel the group does not have.',
    fix: 'Use the time channel of the group, or leave `timeChannelName` empty for waveform channels.',
  },
  tdms_time_channel_not_time: {
    severity: 'error',
    summary:
      'The time channel holds values that cannot be times (text, booleans), or needs a `timeFormat` the config does not set.',
    fix: 'Name the timestamp channel of the group, or set `timeFormat` (and `relativeStartTime`) for a numeric time channel.',
  },
  tdms_waveform_missing: {
    severity: 'error',
    summary:
      'A channel with no `timeChannelName` lacks the waveform properties (`wf_start_time`, `wf_increment`) that would time it.',
    fix: 'Give the entry the time channel of its group, or set `fallbackMethod: TDMS_FALLBACK_METHOD_IGNORE_ERROR` to skip it.',
  },
  tdms_channel_will_be_skipped: {
    severity: 'warning',
    summary:
      'A channel cannot be timed (no time channel, no waveform properties) and `fallbackMethod` is IGNORE_ERROR: the platform skips it.',
    fix: 'Give the entry a time channel, or drop it from `data`.',
  },
  tdms_values_not_read: {
    severity: 'warning',
    summary:
      "The values of a channel the config (or the draft infer wrote) imports were not read: importkit does not decode its raw data (DAQmx raw data, as the platform's own reader skips it; extended floats; fixed point).",
    fix: 'Nothing in the config to fix: its values are not checked (the import reads them as the platform does).',
  },
  tdms_raw_data_invalid: {
    severity: 'error',
    summary:
      "A chunk of a channel's raw data is not what the metadata says (string end offsets that go backwards or past the chunk, data cut short): the file is damaged there.",
    fix: 'Write or copy the file again; the message names the channel and the segment.',
  },
  tdms_complex_component_unexpected: {
    severity: 'warning',
    summary: '`complexComponent` is set on a channel that is not complex; the platform ignores it.',
    fix: 'Drop `complexComponent` from the entry.',
  },
} as const satisfies Record<string, CodeDoc>;
