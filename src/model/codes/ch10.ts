import type { CodeDoc } from './_types.js';

/** Issue codes of CH10 (IRIG 106 Chapter 10) inspection and inference. */
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
  ch10_header_checksum: {
    severity: 'warning',
    summary: "The first packet header's checksum does not match its words.",
    fix: 'The file may be damaged; check it with the recorder vendor’s tools.',
  },
  ch10_no_channels: {
    severity: 'warning',
    summary: 'The TMATS record lists no recorder data sources (`R-x\\N` missing or 0).',
    fix: 'Check the recording; the platform imports the channels the packets carry.',
  },
} as const satisfies Record<string, CodeDoc>;
