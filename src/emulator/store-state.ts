/**
 * The emulator's state: its tables of records, each tagged with its organization; and the
 * error of a store that cannot be opened.
 */
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
  /**
   * The resource as GetDataImport answers it, without its config: the config is kept once,
   * in `document` (routes answer with both, `answerOf`).
   */
  dataImport: DataImport;
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
  /** Strict mode: why the import ends FAILED (the config held what the platform drops). */
  refusal?: string;
}

export interface StateData {
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

/** The tables of records a change marks (`Store.touch`). */
export type Table = Exclude<keyof StateData, 'seq' | 'seeded'>;
export const TABLES: readonly Table[] = [
  'imports',
  'runs',
  'assets',
  'channels',
  'views',
  'savedSearches',
  'udfVersions',
];

export function emptyState(): StateData {
  return {
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

/** A store that cannot be opened: what is wrong, and what to do about it. */
export class StoreError extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}
