/**
 * The store's log file, `store.jsonl`: its lines, reading it back into the state (dropping
 * a commit cut short), and carrying over the `state.json` of earlier versions.
 */
import { createReadStream } from 'node:fs';
import {
  type FileHandle,
  open,
  readFile,
  rename,
  rm,
  stat,
  truncate,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import {
  emptyState,
  type ImportRecord,
  type StateData,
  StoreError,
  TABLES,
} from './store-state.js';

/** The log's file name in the data directory, and the file a compaction writes first. */
export const LOG_FILE = 'store.jsonl';
export const COMPACT_SUFFIX = '.compact';
/** The state file of earlier versions: read once, written into the log, then removed. */
export const LEGACY_FILE = 'state.json';
export const HEADER = `${JSON.stringify({ importkitEmulatorStore: 1 })}\n`;
export const COMMIT = `${JSON.stringify(['commit'])}\n`;

/** Where a record's latest line is in the log. */
export interface Place {
  offset: number;
  length: number;
}

/** Log lines: `["put", table, id, value]`, `["del", table, id]`, `["commit"]`. */
type Op = ['put', string, string, unknown] | ['del', string, string];

/** The key of a record in the log's index; `meta` keys hold `seq` and `seeded`. */
export const keyOf = (table: string, id: string) => `${table}\u0000${id}`;

export interface Line {
  key: string;
  put: boolean;
  bytes: Buffer;
}

export function line(op: Op): Line {
  return {
    key: keyOf(op[1], op[2]),
    put: op[0] === 'put',
    bytes: Buffer.from(`${JSON.stringify(op)}\n`),
  };
}

export async function writeAll(handle: FileHandle, bytes: Buffer, at: number): Promise<void> {
  let done = 0;
  while (done < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, at + done);
    done += bytesWritten;
  }
}

export interface OpenedLog {
  data: StateData;
  handle: FileHandle;
  bytes: number;
  index: Map<string, Place>;
}

/** Reads the log (creating it when there is none) and opens it for appending. */
export async function openLog(path: string): Promise<OpenedLog> {
  const exists = await stat(path).then(
    () => true,
    (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return false;
      throw err;
    },
  );
  if (!exists) {
    // Written whole and renamed into place: a log is never there without its header.
    await writeFile(path + COMPACT_SUFFIX, HEADER);
    await rename(path + COMPACT_SUFFIX, path);
    const handle = await open(path, 'r+');
    return { data: emptyState(), handle, bytes: HEADER.length, index: new Map() };
  }
  const replay = new Replay();
  await replay.read(path);
  if (replay.end < replay.size) await truncate(path, replay.end);
  return {
    data: replay.state(),
    handle: await open(path, 'r+'),
    bytes: replay.end,
    index: replay.index,
  };
}

/**
 * Rebuilds the state from the log, line by line (never the whole file as one string): a
 * commit's lines take effect at its commit line. What follows the last commit line is a
 * write cut short, dropped; a whole line that is not a log line is damage, an error.
 */
class Replay {
  size = 0;
  /** Where the last commit ends: the log's good length. */
  end = 0;
  index = new Map<string, Place>();
  private tables = new Map<string, Map<string, unknown>>();
  private pending: Array<{ op: Op; place: Place }> = [];
  private lineNo = 0;

  async read(path: string): Promise<void> {
    let carry: Buffer[] = [];
    let offset = 0;
    for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
      let start = 0;
      for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
        const bytes = Buffer.concat([...carry, chunk.subarray(start, nl + 1)]);
        carry = [];
        this.line(bytes, offset);
        offset += bytes.length;
        start = nl + 1;
      }
      if (start < chunk.length) carry.push(chunk.subarray(start));
    }
    this.size = offset + carry.reduce((n, b) => n + b.length, 0);
    if (this.lineNo === 0 && this.size > 0)
      this.damaged(1, 'it is not an importkit emulator store');
  }

  private line(bytes: Buffer, offset: number): void {
    this.lineNo += 1;
    const text = bytes.toString('utf8');
    if (this.lineNo === 1) {
      if (text !== HEADER)
        this.damaged(1, 'it is not an importkit emulator store (no store header)');
      this.end = offset + bytes.length;
      return;
    }
    let op: unknown;
    try {
      op = JSON.parse(text);
    } catch {
      this.damaged(this.lineNo, 'it is not JSON');
    }
    if (Array.isArray(op) && op.length === 1 && op[0] === 'commit') {
      this.commit(offset + bytes.length);
      return;
    }
    if (!isOp(op)) this.damaged(this.lineNo, 'it is not a record of the store');
    this.pending.push({ op, place: { offset, length: bytes.length } });
  }

  private commit(end: number): void {
    for (const { op, place } of this.pending) {
      const [kind, table, id] = op;
      const rows = this.tables.get(table) ?? new Map<string, unknown>();
      this.tables.set(table, rows);
      if (kind === 'put') {
        rows.set(id, op[3]);
        this.index.set(keyOf(table, id), place);
      } else {
        rows.delete(id);
        this.index.delete(keyOf(table, id));
      }
    }
    this.pending = [];
    this.end = end;
  }

  private damaged(lineNo: number, why: string): never {
    throw new StoreError(`${LOG_FILE} is damaged at line ${lineNo}: ${why}`, '');
  }

  /** The state the committed lines make: each import with its document. */
  state(): StateData {
    const data = emptyState();
    const rows = (t: string) => this.tables.get(t) ?? new Map<string, unknown>();
    for (const table of TABLES) {
      const into = data[table] as Record<string, unknown>;
      for (const [id, value] of rows(table)) into[id] = value;
    }
    const documents = rows('documents');
    for (const [id, rec] of Object.entries(data.imports)) {
      const document = documents.get(id);
      if (!document)
        throw new StoreError(`${LOG_FILE} holds data import ${id} without its document`, '');
      rec.document = document as Record<string, unknown>;
    }
    const meta = rows('meta');
    data.seq = Number(meta.get('seq') ?? 0);
    data.seeded = (meta.get('seeded') as string[] | undefined) ?? [];
    return data;
  }
}

const LOG_TABLES = new Set<string>([...TABLES, 'documents', 'meta']);

function isOp(v: unknown): v is Op {
  if (!Array.isArray(v) || typeof v[1] !== 'string' || typeof v[2] !== 'string') return false;
  if (!LOG_TABLES.has(v[1])) return false;
  return (v[0] === 'put' && v.length === 4) || (v[0] === 'del' && v.length === 3);
}

/**
 * A data directory of an earlier version holds `state.json`: its state is written into a
 * new log (by a temporary file and a rename), then it is removed.
 */
export async function carryOverLegacy(dataDir: string): Promise<void> {
  const legacy = join(dataDir, LEGACY_FILE);
  const path = join(dataDir, LOG_FILE);
  const text = await readFile(legacy, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (text === undefined) return;
  if (
    await stat(path).then(
      () => true,
      () => false,
    )
  )
    return;
  let parsed: Partial<StateData> & { version?: number };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    throw new StoreError(`${LEGACY_FILE} (written by an earlier version) is not JSON`, '');
  }
  if (parsed?.version !== 1) {
    throw new StoreError(
      `${LEGACY_FILE} (written by an earlier version) is not an emulator state`,
      '',
    );
  }
  const data: StateData = { ...emptyState(), ...parsed };
  delete (data as { version?: number }).version;
  const tmp = path + COMPACT_SUFFIX;
  const out = await open(tmp, 'w');
  try {
    let at = 0;
    const put = async (bytes: Buffer) => {
      await writeAll(out, bytes, at);
      at += bytes.length;
    };
    await put(Buffer.from(HEADER));
    for (const table of TABLES) {
      for (const [id, rec] of Object.entries(data[table])) {
        if (table === 'imports') {
          const imp = rec as ImportRecord;
          for (const key of Object.keys(imp.document))
            delete (imp.dataImport as Record<string, unknown>)[key];
          await put(line(['put', 'documents', id, imp.document]).bytes);
          await put(line(['put', table, id, { ...imp, document: undefined }]).bytes);
        } else {
          await put(line(['put', table, id, rec]).bytes);
        }
      }
    }
    await put(line(['put', 'meta', 'seq', data.seq]).bytes);
    await put(line(['put', 'meta', 'seeded', data.seeded]).bytes);
    await put(Buffer.from(COMMIT));
    await out.sync();
  } finally {
    await out.close();
  }
  await rename(tmp, path);
  await rm(legacy, { force: true });
}
