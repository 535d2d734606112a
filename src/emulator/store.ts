/**
 * The emulator's state: every resource by id, each tagged with its organization. Kept in
 * memory, and (with a data directory) written to `state.json` after every change, by a
 * temporary file and a rename, before the change is answered: a restart loses nothing.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  Asset,
  Channel,
  DataImport,
  Run,
  SavedSearch,
  UserDefinedFunctionVersion,
  View,
} from '../model/index.js';

export interface Owned<T> {
  orgId: string;
  value: T;
}

export interface ImportRecord {
  orgId: string;
  /** The user (of the key) who created it: stamped on what the import creates. */
  userId: string;
  /** The resource as GetDataImport answers it. */
  dataImport: DataImport & { warnings?: string[] };
  /** The document the import was created with (its config key and, for URL imports, url). */
  document: Record<string, unknown>;
  source: 'upload' | 'url';
  /** The secret part of the upload URL. */
  uploadToken: string;
  /** Where the uploaded (or fetched) file is stored, once it is. */
  filePath?: string;
  fileName?: string;
  /** Creation order, for stable listing. */
  seq: number;
}

export interface StateData {
  version: 1;
  seq: number;
  imports: Record<string, ImportRecord>;
  runs: Record<string, Owned<Run>>;
  assets: Record<string, Owned<Asset>>;
  channels: Record<string, Owned<Channel>>;
  views: Record<string, Owned<View>>;
  savedSearches: Record<string, Owned<SavedSearch>>;
  udfVersions: Record<string, Owned<UserDefinedFunctionVersion>>;
  /** Organizations whose sample views, saved search and functions exist. */
  seeded: string[];
}

export function emptyState(): StateData {
  return {
    version: 1,
    seq: 0,
    imports: {},
    runs: {},
    assets: {},
    channels: {},
    views: {},
    savedSearches: {},
    udfVersions: {},
    seeded: [],
  };
}

export class Store {
  data: StateData;
  readonly dataDir: string | undefined;
  private saving: Promise<void> = Promise.resolve();
  private dirty = false;

  private constructor(data: StateData, dataDir: string | undefined) {
    this.data = data;
    this.dataDir = dataDir;
  }

  /** Opens the store: reads `state.json` from `dataDir` when there is one. */
  static async open(dataDir?: string): Promise<Store> {
    if (!dataDir) return new Store(emptyState(), undefined);
    await mkdir(join(dataDir, 'uploads'), { recursive: true });
    let data = emptyState();
    try {
      const text = await readFile(join(dataDir, 'state.json'), 'utf8');
      const parsed = JSON.parse(text) as Partial<StateData>;
      if (parsed && parsed.version === 1) data = { ...emptyState(), ...parsed } as StateData;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    return new Store(data, dataDir);
  }

  nextSeq(): number {
    this.data.seq += 1;
    return this.data.seq;
  }

  /**
   * Persists the state (no-op in memory). Concurrent calls share one write at a time, and
   * a call made while a write runs is covered by the write that follows it.
   */
  save(): Promise<void> {
    if (!this.dataDir) return Promise.resolve();
    this.dirty = true;
    const dir = this.dataDir;
    // A failed write fails its own callers, never the writes after it.
    const write = this.saving
      .catch(() => {})
      .then(async () => {
        if (!this.dirty) return;
        this.dirty = false;
        const tmp = join(dir, 'state.json.tmp');
        try {
          await writeFile(tmp, JSON.stringify(this.data));
          await rename(tmp, join(dir, 'state.json'));
        } catch (err) {
          this.dirty = true;
          throw err;
        }
      });
    this.saving = write;
    return write;
  }
}
