/**
 * A ULog log's first GPS time: the `time_utc_usec` of the first data message of a msg_id
 * subscribed to a GPS message that holds one (not zero). One walk (scan.ts `UlogWalker`)
 * looks for it as it goes. A walk shared by threads (scan-jobs.ts) cannot: a range does not
 * know which msg_ids are subscribed to GPS messages, and looking at every message of every
 * msg_id that might be cost bench/ulog's 1 GB more than the second thread saved. So once the
 * ranges are joined (which tells the GPS subscriptions at each range's start), and only when
 * the log subscribes to a GPS message, `searchGps` steps a range's messages again, as the
 * walk steps them, reading only message headers, subscriptions and the GPS messages' time
 * until one holds a time.
 */
import type { UlogFormat } from './format.js';
import { type ChunkReader, text } from './reader.js';
import {
  GPS_MESSAGES,
  type GpsProbe,
  gpsProbeOf,
  gpsTimeAt,
  gpsTimeIn,
  KNOWN,
  MSG,
  stepMessages,
  type UlogGpsFix,
} from './scan-model.js';

/** Where each GPS message of the definitions holds its time (`gpsProbeOf`), by name. */
export type GpsTimeFields = Array<[string, number]>;

export function gpsTimeFields(formats: ReadonlyMap<string, UlogFormat>): GpsTimeFields {
  const out: GpsTimeFields = [];
  for (const name of GPS_MESSAGES) {
    const probe = gpsProbeOf(name, 0, formats);
    if (probe) out.push([name, probe.offset]);
  }
  return out;
}

/**
 * Messages to search: those from `start` (a message) that start before `until`, in the data
 * part ending at `partEnd`, with the msg_ids subscribed to GPS messages before `start`.
 */
export interface GpsStretch {
  start: number;
  until: number;
  partEnd: number;
  probes: Array<[number, GpsProbe]>;
}

/** The GPS msg_ids as the walk holds them at a message: a later GPS subscription replaces one. */
class Probes {
  readonly has = new Uint8Array(0x10000);
  readonly of = new Map<number, GpsProbe>();
  readonly #fields: Map<string, number>;
  /** The first time found. */
  fix: UlogGpsFix | undefined;

  constructor(fields: GpsTimeFields, probes: ReadonlyArray<[number, GpsProbe]>) {
    this.#fields = new Map(fields);
    for (const [msgId, probe] of probes) this.#set(msgId, probe);
  }

  /** A subscription message's bytes after its header, as `UlogWalker` reads them. */
  subscribe(body: Uint8Array): void {
    if (body.byteLength < 4) return;
    const msgId = (body[1] as number) | ((body[2] as number) << 8);
    const messageName = text(body.subarray(3));
    const offset = this.#fields.get(messageName);
    if (offset !== undefined) this.#set(msgId, { offset, messageName, multiId: body[0] as number });
  }

  #set(msgId: number, probe: GpsProbe): void {
    this.has[msgId] = 1;
    this.of.set(msgId, probe);
  }
}

/** The first GPS time in a stretch of messages, or undefined. */
export function searchGps(
  reader: ChunkReader,
  stretch: GpsStretch,
  fields: GpsTimeFields,
): Promise<UlogGpsFix | undefined> {
  const probes = new Probes(fields, stretch.probes);
  return stepPart(reader, stretch.start, stretch.until, stretch.partEnd, probes);
}

/** Steps the messages from `from` before `until` as the walk does, until a GPS time. */
async function stepPart(
  reader: ChunkReader,
  from: number,
  until: number,
  end: number,
  probes: Probes,
): Promise<UlogGpsFix | undefined> {
  await stepMessages(reader, from, until, end, {
    window: (pos) => stepWindow(reader, pos, until, end, probes),
    async message(type, pos, size, head) {
      if (type === MSG.addSubscription) {
        const body = await reader.get(pos + 3, size);
        if (body) probes.subscribe(body);
      } else if (type === MSG.data && size >= 2 && head.byteLength >= 5) {
        const msgId = (head[3] as number) | ((head[4] as number) << 8);
        probes.fix = await gpsTimeAt(reader, pos, size, probes.of.get(msgId));
      }
      return probes.fix !== undefined;
    },
    damage: () => {},
    done: () => probes.fix !== undefined,
  });
  return probes.fix;
}

/**
 * The messages from `from` (before `until`) whose header and msg_id the window holds and
 * that need no read: every known type but subscriptions, and data messages of a GPS msg_id
 * when the window holds them whole (their time read here: a found one goes to
 * `probes.fix`). Returns where it stopped.
 */
function stepWindow(
  reader: ChunkReader,
  from: number,
  until: number,
  end: number,
  probes: Probes,
): number {
  const w = reader.window;
  const base = reader.windowStart;
  const last = Math.min(base + w.byteLength - 5, end - 3, until - 1);
  const gps = probes.has;
  let pos = from;
  if (pos < base) return pos;
  while (pos <= last) {
    const h = pos - base;
    const size = (w[h] as number) | ((w[h + 1] as number) << 8);
    const type = w[h + 2] as number;
    const next = pos + 3 + size;
    if (KNOWN[type] !== 1 || type === MSG.addSubscription || next > end) break;
    if (type === MSG.data && size >= 2) {
      const msgId = (w[h + 3] as number) | ((w[h + 4] as number) << 8);
      if (gps[msgId] === 1) {
        if (next - base > w.byteLength) break;
        const fix = gpsTimeIn(w, h, pos, size, probes.of.get(msgId));
        if (fix) {
          probes.fix = fix;
          return pos;
        }
      }
    }
    pos = next;
  }
  return pos;
}
