import type { CodeDoc } from './_types.js';

/** Issue codes of CH10 (IRIG 106 Chapter 10) inspection, inference and check. */
export const ch10Codes = {
  ch10_sync_missing: {
    severity: 'error',
    summary:
      'No Chapter 10 packet header (sync pattern `0xEB25` with a valid header checksum) in the first MiB: not a CH10 file.',
    fix: 'Check that this is the recording you meant; some recorders write other formats (`.tmats`, `.pcap`).',
  },
  ch10_truncated: {
    severity: 'error',
    summary: 'The first packet is cut short: the file ends inside its header or its TMATS record.',
    fix: 'Copy the file again; it was cut short.',
  },
  ch10_tmats_missing: {
    severity: 'error',
    summary:
      'The first packet is not a TMATS setup record (data type 0x01), so the recorder channels cannot be listed.',
    fix: 'Check the recording: IRIG 106 requires the TMATS record to be the first packet.',
  },
  ch10_too_many_channels: {
    severity: 'error',
    summary:
      'The TMATS record lists more channels than the 65,535 channel IDs a recording has: it describes no recording.',
    fix: 'The setup record is damaged or was not written by a recorder: check the recording.',
  },
  ch10_no_channels: {
    severity: 'warning',
    summary: 'The TMATS record lists no recorder data sources (no `R-x\\TK1-n`, `DSI-n`, `CDT-n`).',
    fix: 'Check the recording; the platform imports the channels the packets carry.',
  },
  ch10_packet_damaged: {
    severity: 'error',
    summary:
      'A packet header has no sync pattern, a checksum that does not match its words, or lengths that do not fit; the walk went on at the next whole header.',
    fix: 'The file is damaged: copy it from the recorder again.',
  },
  ch10_last_packet_incomplete: {
    severity: 'warning',
    summary:
      'The file ends inside its last packet: the recording may still be being written, or was cut.',
    fix: 'Wait for the recording to be copied whole (or copy it again), then check it once more.',
  },
  ch10_no_time_packets: {
    severity: 'error',
    summary:
      'No packet of the file is a time packet (data type 0x11): nothing places the recording in time.',
    fix: 'IRIG 106 requires time packets: check the recorder setup.',
  },
  ch10_time_packets_not_seen: {
    severity: 'warning',
    summary:
      'None of the packet headers a sampled check read (the first and last MiB) is a time packet; the rest of the file was not read.',
    fix: 'Check with `--full`, which reads every packet header.',
  },
  ch10_channel_without_packets: {
    severity: 'info',
    summary:
      'Channels the TMATS record lists carry no packet in the file (disabled or idle inputs).',
    fix: 'Nothing to do when the inputs were not meant to record; else check the recorder setup.',
  },
  ch10_channel_not_in_tmats: {
    severity: 'warning',
    summary: 'Data packets are on channel IDs the TMATS record does not list.',
    fix: 'The platform reads channels as the TMATS record describes them: check the recorder setup.',
  },
  ch10_scale_without_conversions: {
    severity: 'warning',
    summary:
      '`scaleValues` is true but the TMATS record defines no data conversions (`C-x\\DCN`): there is nothing to scale by.',
    fix: 'Set `scaleValues: false`, or use the recording whose TMATS record has the conversions.',
  },
  ch10_conversions_not_applied: {
    severity: 'info',
    summary:
      'The TMATS record defines data conversions, and `scaleValues` is not true: the values are imported unscaled.',
    fix: 'Set `scaleValues: true` to import values in engineering units.',
  },
} as const satisfies Record<string, CodeDoc>;
