/**
 * The formats' own functions that the library's Node API offers by name (`inspectCsv`,
 * `inferTdms`, `checkUlog` ...), for callers who know their file's format. Only the public
 * entry (`src/node.ts`) imports this file: everything else reaches a format through the
 * table (`index.ts`), which loads no format's code until it is needed.
 */
export { inferCh10 } from './ch10/infer.js';
export { inspectCh10 } from './ch10/inspect.js';
export { inspectCsv } from './csv/inspect.js';
export { inspectHdf5 } from './hdf5/inspect.js';
export { inspectParquet } from './parquet/inspect.js';
export { checkTdms } from './tdms/check.js';
export { inferTdms } from './tdms/infer.js';
export { inspectTdms } from './tdms/inspect.js';
export type { UlogCheckOptions } from './ulog/check.js';
export { checkUlog } from './ulog/check.js';
export { inferUlog } from './ulog/infer.js';
export { inspectUlog } from './ulog/inspect.js';
