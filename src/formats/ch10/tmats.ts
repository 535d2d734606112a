/**
 * The TMATS setup record (IRIG 106 Chapter 9) of a CH10 file's first packet: its
 * `CODE:value;` attributes, the recorder channels they list and a summary.
 *
 * Attributes are read the way irig106lib (`enI106_Decode_Tmats`) and pyChapter10
 * (`ComputerF1.__getitem__`) read them: line by line, the code up to the first `:`, the
 * value up to `;` or the end of the line. A line whose `;` is missing (public recordings
 * end their `G\COM` comment lines without one) then ends its attribute, instead of running
 * on into the next ones as a split on `;` alone would. Several attributes on one line,
 * which Chapter 9 allows, are split on `;`.
 */
import type { Ch10Channel } from './types.js';

/**
 * A TMATS code: a group (`G`, `R-1`, `C-12`), a backslash, then the rest (`PN`,
 * `TK1-3`, `CO\N`), no blanks. Anything else before a `:` (a comment's continuation
 * line) is no attribute.
 */
const CODE = /^[A-Za-z][^\s:;\\]{0,15}\\[^\s:;]{1,48}$/;

/** TMATS attributes in the order written; a code written again keeps its last value. */
export function parseTmats(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/[\r\n]+/)) {
    for (const part of line.split(';')) {
      const entry = part.replace(/^[\s\0]+/, '');
      const colon = entry.indexOf(':');
      if (colon <= 0) continue;
      const code = entry.slice(0, colon).trim();
      if (!CODE.test(code)) continue;
      out[code] = entry.slice(colon + 1).trim();
    }
  }
  return out;
}

/**
 * Channel IDs are 16-bit and 0 is the recorder's own: a recording carries at most this
 * many data channels, so a record listing more describes no recording.
 */
export const MAX_CHANNELS = 65_535;

/** The attributes that make a channel `n` of recorder `R-x` listed. */
const CHANNEL_CODE = /^(R-\d+)\\(?:TK1|DSI|CDT|CHE)-(\d+)$/;

/**
 * The channels the record lists: each `R-x` group's indices `n` that have a channel ID,
 * a name, a data type or an enable flag, in recorder then index order. The count the
 * record declares (`R-x\N`) is not trusted: it may claim 65,535 sources and list two.
 * Returns undefined when it lists more than MAX_CHANNELS.
 */
export function channelsOf(attributes: Record<string, string>): Ch10Channel[] | undefined {
  const listed = new Map<string, Set<number>>();
  let count = 0;
  for (const key of Object.keys(attributes)) {
    const m = CHANNEL_CODE.exec(key);
    if (!m) continue;
    const recorder = m[1] as string;
    const n = Number(m[2]);
    let indices = listed.get(recorder);
    if (!indices) {
      indices = new Set();
      listed.set(recorder, indices);
    }
    if (indices.has(n)) continue;
    indices.add(n);
    if (++count > MAX_CHANNELS) return undefined;
  }
  const channels: Ch10Channel[] = [];
  const byNumber = [...listed.keys()].sort((a, b) => Number(a.slice(2)) - Number(b.slice(2)));
  for (const recorder of byNumber) {
    const indices = [...(listed.get(recorder) ?? [])].sort((a, b) => a - b);
    for (const i of indices) channels.push(channelOf(attributes, recorder, i));
  }
  return channels;
}

function channelOf(attributes: Record<string, string>, recorder: string, i: number): Ch10Channel {
  const get = (code: string) => attributes[`${recorder}\\${code}-${i}`];
  const id = get('TK1');
  const enabled = get('CHE');
  const channel: Ch10Channel = {
    recorder,
    name: get('DSI') ?? `${recorder} source ${i}`,
    dataType: get('CDT') ?? '',
  };
  if (id !== undefined && /^\d{1,5}$/.test(id) && Number(id) <= 0xffff)
    channel.channelId = Number(id);
  if (enabled !== undefined) channel.enabled = enabled.toUpperCase() === 'T';
  return channel;
}

export interface TmatsSummary {
  programName?: string;
  recorderId?: string;
  /** `G\106`: the IRIG 106 release the record follows. */
  irig106?: string;
  /** Data conversion groups (`C-x\DCN`): how raw values scale to units. */
  conversions: number;
  attributes: Record<string, string>;
}

export function tmatsSummary(attributes: Record<string, string>): TmatsSummary {
  const out: TmatsSummary = {
    conversions: Object.keys(attributes).filter((k) => /^C-[^\\]+\\DCN$/.test(k)).length,
    attributes,
  };
  const pn = attributes['G\\PN'];
  const id = attributes['R-1\\ID'];
  const irig = attributes['G\\106'];
  if (pn !== undefined) out.programName = pn;
  if (id !== undefined) out.recorderId = id;
  if (irig !== undefined) out.irig106 = irig;
  return out;
}
