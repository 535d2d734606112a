/**
 * A worker thread of a parallel Parquet `--full` check (jobs.ts). It gets the file,
 * its columns and the runs with their shared counter when it starts (`workerData`), loads
 * parquet-wasm, waits for the code the first thread compiles (untilWarm), then claims and
 * reads runs, posting each run's tallies, until none is left; then it posts `end`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type FromParquetWorker, type Lane, runLane, untilWarm } from './jobs.js';
import { parquetWasm } from './wasm.js';

const port = parentPort;
if (port) {
  const send = (m: FromParquetWorker) => port.postMessage(m);
  const lane = workerData as Lane;
  parquetWasm(lane.module)
    .then(() => untilWarm(lane))
    .then(() => runLane(lane, (k, result) => send({ k, result })))
    .then(() => send({ end: true }))
    // The main thread reads a run left with no result itself (and meets the error there).
    .catch((e: unknown) => send({ end: true, error: e instanceof Error ? e.message : String(e) }));
}
