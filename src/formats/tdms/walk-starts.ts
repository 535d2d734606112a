/**
 * Where a walk of a TDMS data file may begin other than at its first segment (segments.ts
 * walks): the inspection's walk keeps a few starts spread over the file (StartKeeper), and
 * a later walk begins at one of them (resume) with what the segments before it left.
 */
import { ActiveList, type ObjectState } from './active.js';
import type { RawIndex } from './metadata.js';

/**
 * Where a walk of the data file may begin other than at its first segment: before segment
 * `segment`, at `pos`, with what the segments before it left (the object list in force,
 * each object's last raw data index). A read of a range of segments (a part of a check on
 * several cores) begins at one instead of walking every segment before it again: on a 1 GB
 * file of 100,000 segments that walk made two jobs slower than one.
 */
export interface WalkStart {
  /** The segment (from 1) and its offset in the data file. */
  segment: number;
  pos: number;
  /**
   * Every object met before it: its path, its last raw data index with data, and its values
   * in the segments before (each segment's count, 0 where not known, as the raw reader adds).
   */
  objects: Array<{ path: string; index?: ObjectState['index']; seen: number }>;
  /** The object list in force: each entry's object (its place in `objects`) and index. */
  list: Array<[number, RawIndex]>;
}

/** The most walk starts kept (WalkOptions.starts): parts of a read begin at them. */
const MAX_STARTS = 64;

/**
 * The most objects the starts kept hold together (each start lists every object met): a
 * file of many channels keeps fewer starts, so that memory stays bounded. A file of 5,000
 * channels in 4,000 segments peaked at 487 MB with 64 starts, against 325 MB with none.
 */
const START_OBJECTS = 1 << 16;

/**
 * Keeps the starts of a walk (WalkOptions.starts), each with every object's values so far
 * (its `seen`).
 */
export class StartKeeper {
  #stride = 1;
  constructor(readonly starts: WalkStart[]) {}

  /**
   * Before segment `done + 1` (at `pos`, `objects` met so far, `active` the list in force):
   * keeps a start there when it falls on the stride, then thins the starts (the stride
   * doubled) while they are more than MAX_STARTS, or hold more than START_OBJECTS objects.
   */
  before(
    done: number,
    objects: ReadonlyMap<string, ObjectState>,
    active: ActiveList,
    pos: number,
  ): void {
    if (done % this.#stride !== 0) return;
    this.starts.push(this.startAt(done, objects.values(), active, pos));
    const most = Math.max(2, Math.min(MAX_STARTS, Math.floor(START_OBJECTS / objects.size)));
    while (this.starts.length > most) {
      this.#stride *= 2;
      const kept = this.starts.filter((s) => (s.segment - 1) % this.#stride === 0);
      this.starts.length = 0;
      for (const start of kept) this.starts.push(start);
    }
  }

  private startAt(
    done: number,
    met: Iterable<ObjectState>,
    active: ActiveList,
    pos: number,
  ): WalkStart {
    const place = new Map<ObjectState, number>();
    const objects: WalkStart['objects'] = [];
    for (const o of met) {
      place.set(o, objects.length);
      objects.push({ path: o.path, index: o.index, seen: o.seen });
    }
    const list = active
      .entries()
      .map((a): [number, RawIndex] => [place.get(a.state) as number, a.index]);
    return { segment: done + 1, pos, objects, list };
  }
}

/** The objects met and the object list in force a start stands for (what the segments before it left). */
export function resume(start: WalkStart): { objects: ObjectState[]; active: ActiveList } {
  const objects = start.objects.map(
    (o): ObjectState => ({
      path: o.path,
      properties: new Map(),
      ...(o.index ? { index: o.index } : {}),
      valueCount: 0,
      seen: o.seen,
      segments: 0,
    }),
  );
  const active = new ActiveList();
  for (const [k, index] of start.list) active.set(objects[k] as ObjectState, index);
  return { objects, active };
}
