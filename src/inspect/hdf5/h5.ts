import fs from 'node:fs';
import type * as H5 from 'h5wasm/node';

/**
 * Loading h5wasm's Node build, lazily, and calling it safely.
 *
 * h5wasm reads files in place through Emscripten's NODERAWFS (plain host paths, its own
 * positioned reads), so it cannot read through our ByteSource: callers check the signature,
 * superblock and size through the byte source first, then hand the path to h5wasm.
 * The HDF5 library prints its error stack to file descriptor 2 when a call fails; `quietly`
 * captures that text (the calls are synchronous) so a bad file gives one clear message,
 * never a screen of diagnostics.
 */
export type H5Module = (typeof H5)['default'];

let loaded: Promise<H5Module> | undefined;
let generation = 0;

/** The h5wasm module, loaded on first use (about 80 MB of wasm heap and 0.4 s). */
export function loadH5(): Promise<H5Module> {
  if (!loaded) {
    const specifier =
      generation === 0
        ? 'h5wasm/node'
        : `${import.meta.resolve('h5wasm/node')}?instance=${generation}`;
    loaded = (async () => {
      const mod = (await import(specifier)) as typeof H5;
      await mod.default.ready;
      return mod.default;
    })();
    loaded.catch(() => {
      loaded = undefined;
    });
  }
  return loaded;
}

/**
 * Drops the loaded instance after the wasm code trapped (its memory may be inconsistent):
 * the next inspection loads a fresh instance.
 */
export function discardH5(): void {
  loaded = undefined;
  generation += 1;
}

/** True for errors that mean the wasm instance itself failed (trap, abort), not the file. */
export function isWasmFailure(err: unknown): boolean {
  if (err instanceof Error && err.name === 'RuntimeError') return true;
  const message = err instanceof Error ? err.message : String(err);
  return /^(Aborted|abort)\b|RuntimeError|memory access out of bounds|unreachable/.test(message);
}

export interface Quiet<T> {
  value?: T;
  error?: unknown;
  /** What the HDF5 library printed while `fn` ran. */
  diagnostics: string;
}

/**
 * Runs a synchronous h5wasm call with file descriptor 2 captured. Never throws: the error,
 * if any, and the diagnostics text are returned.
 */
export function quietly<T>(fn: () => T): Quiet<T> {
  const original = fs.writeSync;
  let diagnostics = '';
  const patched = (fd: number, buffer: unknown, ...rest: unknown[]): number => {
    if (fd !== 2) return (original as (...a: unknown[]) => number)(fd, buffer, ...rest);
    if (typeof buffer === 'string') {
      diagnostics += buffer;
      return Buffer.byteLength(buffer);
    }
    if (ArrayBuffer.isView(buffer)) {
      const offset = typeof rest[0] === 'number' ? rest[0] : 0;
      const length = typeof rest[1] === 'number' ? rest[1] : buffer.byteLength - offset;
      diagnostics += Buffer.from(buffer.buffer, buffer.byteOffset + offset, length).toString(
        'utf8',
      );
      return length;
    }
    return 0;
  };
  (fs as { writeSync: unknown }).writeSync = patched;
  try {
    return { value: fn(), diagnostics };
  } catch (error) {
    return { error, diagnostics };
  } finally {
    (fs as { writeSync: unknown }).writeSync = original;
  }
}

/** The most specific reason in an HDF5 error stack (its last `minor:` line), if any. */
export function lastReason(diagnostics: string): string | undefined {
  const minors = [...diagnostics.matchAll(/minor:\s*(.+)/g)].map((m) => m[1]?.trim() ?? '');
  const details = [...diagnostics.matchAll(/#\d+:.*?\bin \w+\(\): (.+)/g)].map(
    (m) => m[1]?.trim() ?? '',
  );
  const detail = details.at(-1);
  const minor = minors.at(-1);
  if (detail && minor) return `${detail}: ${minor.toLowerCase()}`;
  return detail ?? minor;
}
