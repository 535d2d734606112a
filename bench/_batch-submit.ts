/**
 * `submit` of a generated folder against the emulator: the client (`importFile`: the batch
 * check, in a worker thread that ends before the upload, then the folder streamed as a
 * deflated zip) runs in a child process that loads the
 * client alone (`_batch-submit-child.ts`), so its peak RSS is its own; the emulator runs here. Beside it, in the same run: the system's `zip -r` of
 * the same folder (or, without `zip`, a stored-only zip stream of it).
 *
 * Size: IMPORTKIT_BENCH_SUBMIT_MB (default 200). For the figures:
 *   IMPORTKIT_BENCH_SUBMIT_MB=1024 nice npm run bench -- batch
 *   IMPORTKIT_BENCH_SUBMIT_MB=2048 nice npm run bench -- batch
 * (IMPORTKIT_BENCH_BATCH=submit skips the inference part.)
 */
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import yazl from 'yazl';
import { startEmulator } from '../src/emulator/index.js';
import { inferBatch } from '../src/infer/batch.js';
import type { ImportDocument } from '../src/model/document.js';
import { dataDir, fmtBytes, MiB, table } from './_measure.js';
import { reportSpeed } from './_speed.js';

const FILES = 16;
const ROWS_PER_CHUNK = 5_000;

/** One CSV of about `bytes`: nanosecond times, two values; written in chunks. */
async function writeCsv(path: string, bytes: number, seed: number): Promise<void> {
  const out = createWriteStream(path);
  out.write('time_ns,temp,pressure\n');
  let written = 0;
  let row = 0;
  while (written < bytes) {
    const lines: string[] = [];
    for (let i = 0; i < ROWS_PER_CHUNK; i += 1, row += 1) {
      const t = 1_700_000_000_000_000_000n + BigInt(row) * 1_000_000n;
      lines.push(`${t},${((row * 37 + seed) % 1000) / 10},${100_000 + ((row * 7919) % 5000)}`);
    }
    const text = `${lines.join('\n')}\n`;
    written += text.length;
    if (!out.write(text)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
}

/** The folder of FILES CSVs (sizes summing to `mb` MiB) and its batch config, made once. */
async function prepare(mb: number): Promise<{ folder: string; config: string }> {
  const folder = join(dataDir(), `submit-${mb}mb`);
  const config = `${folder}.json`;
  if (!existsSync(config)) {
    for (let i = 0; i < FILES; i += 1) {
      const sub = join(folder, `day-${i % 4}`);
      mkdirSync(sub, { recursive: true });
      await writeCsv(join(sub, `run-${i}.csv`), Math.floor((mb * MiB) / FILES), i);
    }
    const draft = await inferBatch(folder, { jobs: 2 });
    writeFileSync(config, JSON.stringify(draft.document));
  }
  return { folder, config };
}

function runChild(
  folder: string,
  config: string,
  url: string,
): Promise<{ checkMs: number; uploadMs: number; checkRss: number; rss: number; id: string }> {
  const child = fileURLToPath(new URL('./_batch-submit-child.js', import.meta.url));
  const proc = spawn(process.execPath, [child, folder, config, url], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  proc.stdout.on('data', (c) => {
    out += c;
  });
  return new Promise((resolve, reject) => {
    proc.on('error', reject);
    proc.on('exit', (code) => {
      if (code !== 0) reject(new Error(`the submit child exited with ${code}`));
      else resolve(JSON.parse(out.trim().split('\n').at(-1) as string));
    });
  });
}

/** The baseline: `zip -r` of the folder, or a stored-only zip stream when there is no zip. */
async function baseline(folder: string, files: string[]): Promise<{ what: string; ms: number }> {
  const hasZip = spawnSync('zip', ['-v'], { stdio: 'ignore' }).status === 0;
  const start = performance.now();
  if (hasZip) {
    const out = `${folder}.baseline.zip`;
    await rm(out, { force: true });
    const r = spawnSync('zip', ['-r', '-q', out, '.'], { cwd: folder, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`zip exited with ${r.status}`);
    const ms = performance.now() - start;
    await rm(out, { force: true });
    return { what: 'system zip -r (deflate, to disk)', ms };
  }
  const zip = new yazl.ZipFile();
  for (const f of files) zip.addFile(join(folder, f), f, { compress: false });
  zip.end();
  const sink = new Writable({ write: (_c, _e, cb) => cb() });
  await pipeline(zip.outputStream, sink);
  return { what: 'stored-only zip stream (yazl, no zip here)', ms: performance.now() - start };
}

export async function benchSubmit(): Promise<void> {
  const mb = Number(process.env.IMPORTKIT_BENCH_SUBMIT_MB ?? 200);
  const { folder, config } = await prepare(mb);
  const document = JSON.parse(readFileSync(config, 'utf8')) as ImportDocument;
  const files = Object.keys(document.batchConfig?.fileConfigs ?? {});
  let bytes = 0;
  for (const f of files) bytes += (await stat(join(folder, f))).size;
  const emu = await startEmulator({ apiKeys: { 'bench-key': 'bench' } });
  let run: Awaited<ReturnType<typeof runChild>>;
  let status: string | undefined;
  let zipped = 0;
  try {
    run = await runChild(folder, config, emu.url);
    const rec = emu.store.data.imports[run.id];
    zipped = rec?.filePath ? (await stat(rec.filePath)).size : 0;
    await emu.idle();
    status = emu.store.data.imports[run.id]?.dataImport.status;
  } finally {
    await emu.close();
  }
  const base = await baseline(folder, files);
  const rate = (ms: number) => `${(bytes / MiB / (ms / 1000)).toFixed(1)} MiB/s`;
  table(
    ['run', 'input', 'time', 'throughput', 'peak RSS', 'note'],
    [
      [
        'submit folder (importkit client → emulator)',
        fmtBytes(bytes),
        `${(run.uploadMs / 1000).toFixed(2)} s`,
        rate(run.uploadMs),
        fmtBytes(run.rss),
        `check ${(run.checkMs / 1000).toFixed(2)} s before (peak RSS by then ${fmtBytes(run.checkRss)}); zip sent ${fmtBytes(zipped)}; import ${status?.replace('DATA_IMPORT_STATUS_', '')}`,
      ],
      [base.what, fmtBytes(bytes), `${(base.ms / 1000).toFixed(2)} s`, rate(base.ms), '-', ''],
    ],
  );
  console.log(
    `\nsubmit / baseline time: ${(run.uploadMs / base.ms).toFixed(2)} (goal: client peak RSS < 150 MB)`,
  );
  reportSpeed({
    key: 'submit',
    ours: `${fmtBytes(bytes)} in ${(run.uploadMs / 1000).toFixed(2)} s, client peak ${fmtBytes(run.rss)}`,
    baseline: `${(base.ms / 1000).toFixed(2)} s`,
    ratio: base.ms / run.uploadMs,
    peakRss: run.rss,
  });
}
