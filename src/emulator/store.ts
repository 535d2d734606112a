/**
 * The emulator's state: every resource by id, each tagged with its organization. Kept in
 * memory, and (with a data directory) in an append-only log, `store.jsonl`, written before
 * a change is answered: a restart loses nothing.
 *
 * Each save appends the records marked as changed since the last one (`touch`), then a
 * commit line, in one write: a save costs what changed, never the whole state. An import's
 * document is written once, when the import is created; its later changes write the small
 * rest of the record. A process killed mid-write leaves a commit without its commit line
 * (or a partial line) at the end: it was never answered, and the next start drops it. When
 * more of the log is superseded than live, it is compacted in the background: the live
 * lines are copied to a new file while saves go on, the lines saved meanwhile are copied
 * after them, and the new file replaces the log by a rename.
 *
 * A log of our own rather than an embedded database: node:sqlite is still experimental in
 * Node 20, and a native module would be the emulator's only compiled dependency.
 */
import { type FileHandle, mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  COMMIT,
  COMPACT_SUFFIX,
  carryOverLegacy,
  HEADER,
  keyOf,
  LEGACY_FILE,
  type Line,
  LOG_FILE,
  line,
  type OpenedLog,
  openLog,
  type Place,
  writeAll,
} from './store-log.js';
import {
  emptyState,
  type ImportRecord,
  type StateData,
  StoreError,
  type Table,
} from './store-state.js';

/** Superseded bytes below this never start a compaction. */
const COMPACT_AFTER_BYTES = 64 * 1024 * 1024;
/** Copies of a compaction go through a buffer of this size. */
const COPY_CHUNK = 1024 * 1024;

export interface StoreOptions {
  /** Superseded bytes past which the log is compacted (and past its live size). */
  compactAfterBytes?: number;
}

export class Store {
  data: StateData;
  readonly dataDir: string | undefined;
  /** Bytes the store appended or copied to its files since it was opened. */
  bytesWritten = 0;
  private log: FileHandle | undefined;
  private logBytes: number;
  private index: Map<string, Place>;
  private liveBytes: number;
  private marks = new Set<string>();
  private written: { seq: number; seeded: string };
  /** The last write, compaction step or close: each runs after the one before. */
  private saving: Promise<void> = Promise.resolve();
  private compacting: Promise<void> | undefined;
  /** A failed write may have left part of itself: cut back to `logBytes` before the next. */
  private torn = false;
  private readonly compactAfter: number;

  private constructor(
    data: StateData,
    dataDir?: string,
    opened?: OpenedLog,
    options?: StoreOptions,
  ) {
    this.data = data;
    this.dataDir = dataDir;
    this.log = opened?.handle;
    this.logBytes = opened?.bytes ?? 0;
    this.index = opened?.index ?? new Map();
    this.liveBytes = [...this.index.values()].reduce((n, p) => n + p.length, 0);
    this.written = { seq: data.seq, seeded: JSON.stringify(data.seeded) };
    this.compactAfter = options?.compactAfterBytes ?? COMPACT_AFTER_BYTES;
  }

  /**
   * Opens the store: reads `store.jsonl` from `dataDir` when there is one (a `state.json`
   * of an earlier version is carried over). Throws StoreError when it cannot be read.
   */
  static async open(dataDir?: string, options: StoreOptions = {}): Promise<Store> {
    if (!dataDir) return new Store(emptyState());
    const path = join(dataDir, LOG_FILE);
    try {
      await mkdir(join(dataDir, 'uploads'), { recursive: true });
      await rm(path + COMPACT_SUFFIX, { force: true });
      await carryOverLegacy(dataDir);
      const opened = await openLog(path);
      return new Store(opened.data, dataDir, opened, options);
    } catch (err) {
      throw asStoreError(err, dataDir);
    }
  }

  /** Marks a record as changed: the next save writes it (or its removal, when it is gone). */
  touch(table: Table, id: string): void {
    if (this.dataDir) this.marks.add(keyOf(table, id));
  }

  nextSeq(): number {
    this.data.seq += 1;
    return this.data.seq;
  }

  /**
   * Persists what changed (no-op in memory). Concurrent calls share one write at a time,
   * and a call made while a write runs is covered by the write that follows it.
   */
  save(): Promise<void> {
    if (!this.dataDir) return Promise.resolve();
    return this.enqueue(() => this.write());
  }

  /** Waits for the writes and the compaction under way, then closes the log. */
  async close(): Promise<void> {
    // The last writes may start a compaction: it ends before the log is closed.
    await this.saving.catch(() => {});
    while (this.compacting) await this.compacting;
    await this.enqueue(async () => {
      await this.log?.close();
      this.log = undefined;
    });
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    // A failed step fails its own callers, never the steps after it.
    const next = this.saving.catch(() => {}).then(step);
    this.saving = next;
    return next;
  }

  /** Appends the marked records and a commit line, in one write. */
  private async write(): Promise<void> {
    const log = this.log;
    if (!log) throw new Error('the store is closed');
    const marks = this.marks;
    this.marks = new Set();
    // Taken now: a request may change them while the write runs (its own save follows).
    const now = { seq: this.data.seq, seeded: JSON.stringify(this.data.seeded) };
    const lines = this.changedLines(marks, now);
    if (lines.length === 0) return;
    const buffers = [...lines.map((l) => l.bytes), Buffer.from(COMMIT)];
    const bytes = Buffer.concat(buffers);
    try {
      if (this.torn) await log.truncate(this.logBytes);
      this.torn = false;
      await writeAll(log, bytes, this.logBytes);
    } catch (err) {
      this.torn = true;
      for (const m of marks) this.marks.add(m);
      await log.truncate(this.logBytes).then(
        () => {
          this.torn = false;
        },
        () => {},
      );
      throw err;
    }
    let offset = this.logBytes;
    for (const line of lines) {
      this.place(line.key, line.put ? { offset, length: line.bytes.length } : undefined);
      offset += line.bytes.length;
    }
    this.logBytes += bytes.length;
    this.bytesWritten += bytes.length;
    this.written = now;
    this.maybeCompact();
  }

  /** The lines of the marked records, and of `seq` and `seeded` when they changed. */
  private changedLines(marks: Set<string>, now: { seq: number; seeded: string }): Line[] {
    const lines: Line[] = [];
    for (const mark of marks) {
      const [table, id] = mark.split('\u0000') as [Table, string];
      const rec = Object.hasOwn(this.data[table], id) ? this.data[table][id] : undefined;
      if (table === 'imports') {
        const imp = rec as ImportRecord | undefined;
        if (imp && !this.index.has(keyOf('documents', id)))
          lines.push(line(['put', 'documents', id, imp.document]));
        if (!imp && this.index.has(keyOf('documents', id)))
          lines.push(line(['del', 'documents', id]));
        if (imp) lines.push(line(['put', table, id, { ...imp, document: undefined }]));
      } else if (rec) {
        lines.push(line(['put', table, id, rec]));
      }
      if (!rec && this.index.has(mark)) lines.push(line(['del', table, id]));
    }
    if (now.seq !== this.written.seq) lines.push(line(['put', 'meta', 'seq', now.seq]));
    if (now.seeded !== this.written.seeded)
      lines.push(line(['put', 'meta', 'seeded', JSON.parse(now.seeded)]));
    return lines;
  }

  private place(key: string, place: Place | undefined): void {
    this.liveBytes -= this.index.get(key)?.length ?? 0;
    if (place) {
      this.index.set(key, place);
      this.liveBytes += place.length;
    } else {
      this.index.delete(key);
    }
  }

  /** Starts a compaction when more of the log is superseded than live (and enough of it). */
  private maybeCompact(): void {
    const superseded = this.logBytes - this.liveBytes;
    if (this.compacting || superseded < this.compactAfter || superseded < this.liveBytes) return;
    // A compaction that fails leaves the log as it was: the next one tries again.
    this.compacting = this.compact()
      .catch(() => {})
      .finally(() => {
        this.compacting = undefined;
      });
  }

  /**
   * Copies the live lines (as of now) to a new file while saves go on, then, between two
   * saves, the lines saved meanwhile, and renames the new file over the log.
   */
  private async compact(): Promise<void> {
    const dir = this.dataDir as string;
    const path = join(dir, LOG_FILE);
    const cut = this.logBytes;
    const live = [...this.index].sort((a, b) => a[1].offset - b[1].offset);
    const out = await open(path + COMPACT_SUFFIX, 'w');
    try {
      const src = await open(path, 'r');
      const moved = new Map<string, Place>();
      let at = await this.append(out, Buffer.from(HEADER), 0);
      try {
        for (const [key, place] of live) {
          const copied = await this.copy(src, place.offset, place.length, out, at);
          moved.set(key, { offset: at, length: place.length });
          at += copied;
        }
      } finally {
        await src.close();
      }
      at = await this.append(out, Buffer.from(COMMIT), at);
      await this.enqueue(() => this.switchTo(out, at, cut, moved));
    } catch (err) {
      await out.close().catch(() => {});
      await rm(path + COMPACT_SUFFIX, { force: true });
      throw err;
    }
  }

  /** The end of a compaction, between two saves: the lines saved since `cut`, then the swap. */
  private async switchTo(out: FileHandle, at: number, cut: number, moved: Map<string, Place>) {
    const log = this.log;
    if (!log) throw new Error('the store is closed');
    const path = join(this.dataDir as string, LOG_FILE);
    const tail = this.logBytes - cut;
    await this.copy(log, cut, tail, out, at);
    await out.sync();
    await out.close();
    // Opened before the rename, so that the store never writes to a file no longer its log.
    const next = await open(path + COMPACT_SUFFIX, 'r+');
    try {
      await rename(path + COMPACT_SUFFIX, path);
    } catch (err) {
      await next.close();
      throw err;
    }
    const index = new Map<string, Place>();
    for (const [key, place] of this.index) {
      const now =
        place.offset >= cut ? { ...place, offset: place.offset - cut + at } : moved.get(key);
      if (now) index.set(key, now);
    }
    this.log = next;
    this.index = index;
    this.logBytes = at + tail;
    await log.close().catch(() => {});
  }

  private async append(out: FileHandle, bytes: Buffer, at: number): Promise<number> {
    await writeAll(out, bytes, at);
    this.bytesWritten += bytes.length;
    return at + bytes.length;
  }

  /** Copies `length` bytes at `from` of `src` to `out` at `to`; the bytes copied. */
  private async copy(src: FileHandle, from: number, length: number, out: FileHandle, to: number) {
    const buffer = Buffer.alloc(Math.min(COPY_CHUNK, Math.max(1, length)));
    let done = 0;
    while (done < length) {
      const want = Math.min(buffer.length, length - done);
      const { bytesRead } = await src.read(buffer, 0, want, from + done);
      if (bytesRead === 0) throw new Error('the log ended before a line it indexes');
      await this.append(out, buffer.subarray(0, bytesRead), to + done);
      done += bytesRead;
    }
    return done;
  }
}

/** Any failure to open the store, as a StoreError that says what is wrong and what to do. */
function asStoreError(err: unknown, dataDir: string): StoreError {
  const recover = `To start with an empty store, move ${dataDir} aside (or remove ${LOG_FILE} from it; the uploads stay); to keep what it held, restore the folder from a copy.`;
  const e = err as NodeJS.ErrnoException;
  const why =
    err instanceof StoreError
      ? err.message
      : e.code === 'ERR_STRING_TOO_LONG'
        ? `${LEGACY_FILE} (written by an earlier version) is larger than the largest string Node can read`
        : e.code && e.path
          ? `${e.syscall ?? 'access'} ${e.path} failed (${e.code})`
          : e.message;
  const hint =
    e.code === 'EACCES' || e.code === 'EPERM'
      ? `Check that this user may read and write ${dataDir} and what it holds.`
      : e.code === 'ENOTDIR' || e.code === 'EEXIST'
        ? `--data-dir must name a folder: ${dataDir} is not one.`
        : recover;
  return new StoreError(`cannot open the emulator's store in ${dataDir}: ${why}`, hint);
}
