/**
 * Where each channel of a file has data, when its values cannot be shown: a timeline of
 * spans by channel (CH10: the packets of each channel ID, from their headers). Nothing in
 * it is a value of the data; the preview draws it instead of plots. A format's entry in
 * the table (`formats/index.ts`) may hold a reader of it.
 */

/** One channel's span of data. */
export interface TimelineChannel {
  /** Its name in the file (a TMATS data source), else a name made of its ID. */
  name: string;
  /** What the file says it carries (the TMATS channel type, the packets' data types). */
  detail: string;
  /** Its packets, and their bytes. */
  packets: number;
  bytes: number;
  /** Seconds from the timeline's origin of its first and last packet. */
  first: number;
  last: number;
}

export interface Timeline {
  channels: TimelineChannel[];
  /** What 0 s is, in words. */
  origin: string;
  /** UTC of 0 s, when the file gives it. */
  start?: string;
  /** True when every packet header was read. */
  complete: boolean;
}

/** A format's entry: its config and data file → the timeline of the file. */
export type TimelineReader = (
  config: Record<string, unknown>,
  dataPath: string,
) => Promise<Timeline>;
