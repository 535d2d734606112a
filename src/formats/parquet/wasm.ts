/**
 * parquet-wasm, loaded once per thread from one compiled module per process. Its Node build
 * compiles its wasm when imported, in each thread that imports it: a worker reading row
 * groups (jobs.ts) compiled the 5 MB module again, and V8's optimizing compiler
 * took 30-40 MiB of memory a thread while it did, beside a copy of the code. Its web build
 * takes the compiled module instead (`initSync`): this thread compiles it, the workers get
 * it (a WebAssembly.Module crosses to a worker without a copy) and share its code.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

export type ParquetWasm = typeof import('parquet-wasm/esm');

/** `WebAssembly.compile` (Node's global; the project's TypeScript libs declare only its types). */
const wasmCompile = (bytes: Uint8Array): Promise<WebAssembly.Module> =>
  (
    globalThis as unknown as {
      WebAssembly: { compile(b: Uint8Array): Promise<WebAssembly.Module> };
    }
  ).WebAssembly.compile(bytes);

let loaded: Promise<{ pw: ParquetWasm; module: WebAssembly.Module }> | undefined;

/**
 * parquet-wasm, initialized with `module` (a worker's, compiled by the thread that started
 * it) or with the module compiled here on the first call; and that module.
 */
export function parquetWasm(
  module?: WebAssembly.Module,
): Promise<{ pw: ParquetWasm; module: WebAssembly.Module }> {
  loaded ??= (async () => {
    const pw = await import('parquet-wasm/esm');
    const compiled =
      module ??
      (await wasmCompile(
        await readFile(
          createRequire(import.meta.url).resolve('parquet-wasm/esm/parquet_wasm_bg.wasm'),
        ),
      ));
    pw.initSync({ module: compiled });
    return { pw, module: compiled };
  })();
  return loaded;
}
