/**
 * A config file's size limit and how its bytes become text: here in the model, below every
 * stage, because the validator and the file reader (files/, which the inspect stage and so
 * every `--jobs` worker thread loads) both need them, and a worker must not load the
 * validator to read a data file.
 */
import type { Issue } from './issue.js';
import { issue } from './make-issue.js';

/**
 * The largest config text read: 16 MiB. Most configs are KBs, but a draft of a wide file is
 * MBs, and every config importkit writes must read back: the JSON draft of a TDMS file of
 * 20,000 channels is 5.2 MB (3.3 MB as YAML), so about 60,000 such channels fit; the widest
 * Parquet file importkit reads (10,000 columns) drafts about 2 MB, a CSV of 100,000 columns
 * about 10 MB. Not more: a config with an issue is read again with positions, and the YAML
 * reader's tree takes about 60 times the text (1 GB at its peak for 16 MiB).
 */
export const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

/** The limit in words, for messages. */
export const MAX_CONFIG_TEXT = `${MAX_CONFIG_BYTES / 1024 / 1024} MiB`;
/**
 * A config file's bytes as text: UTF-8, a leading byte-order mark dropped. Anything else
 * (UTF-16, Latin-1, binary) is an issue (`text_not_utf8`), never text read as if it were
 * UTF-8: a UTF-16 file would otherwise read as one string of NULs and pass as a document.
 */
export function decodeConfigBytes(bytes: Uint8Array): string | Issue {
  const refuse = (what: string) => {
    const i = issue(
      'text_not_utf8',
      '',
      `The file is ${what}, not UTF-8 text.`,
      'Save it as UTF-8 and try again.',
    );
    i.line = 1;
    i.column = 1;
    return i;
  };
  const [b0, b1] = bytes;
  if ((b0 === 0xff && b1 === 0xfe) || (b0 === 0xfe && b1 === 0xff)) return refuse('UTF-16');
  if (bytes.includes(0)) return refuse('binary data or UTF-16 (it holds NUL bytes)');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return refuse('in another encoding (Latin-1 or binary: some bytes are not UTF-8)');
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
