/**
 * `importkit lint` on 1,000 generated config files in one call (in-process `run`), beside
 * bare ajv validation of the same documents already parsed, and beside the minimal
 * pipeline a linter cannot skip (read + YAML parse + ajv). Target: ≥ 2,000 files/s.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { run } from '../src/cli/run.js';
import { validateConfigText } from '../src/validate/index.js';
import { shapeValidator } from '../src/validate/shape.js';
import { best, dataDir, table } from './_measure.js';

const N = 1000;

/** A deterministic config of one of five kinds, 3 to 20 channels. */
function config(i: number): Record<string, unknown> {
  const channels = 3 + (i % 18);
  const channel = (c: number) => ({
    name: `ch_${i}_${c}`,
    units: c % 2 ? 'm/s' : 'V',
    dataType: c % 5 === 0 ? 'CHANNEL_DATA_TYPE_INT_32' : 'CHANNEL_DATA_TYPE_DOUBLE',
  });
  switch (i % 5) {
    case 0: {
      const cols: Record<string, unknown> = {};
      for (let c = 0; c < channels; c++) cols[String(c + 2)] = channel(c);
      return {
        csvConfig: {
          assetName: `rig-${i % 7}`,
          runName: `run ${i}`,
          firstDataRow: 2,
          timeColumn: { columnNumber: 1, format: 'TIME_FORMAT_ABSOLUTE_RFC3339' },
          dataColumns: cols,
        },
      };
    }
    case 1:
      return {
        parquetConfig: {
          assetName: `rig-${i % 7}`,
          flatDataset: {
            timeColumn: { path: 'ts', format: 'TIME_FORMAT_ABSOLUTE_UNIX_NANOSECONDS' },
            dataColumns: Array.from({ length: channels }, (_, c) => ({
              path: `c${c}`,
              channelConfig: channel(c),
            })),
          },
          footerOffset: String(1_000_000 + i),
          footerLength: 4096,
        },
      };
    case 2:
      return {
        hdf5Config: {
          assetName: `rig-${i % 7}`,
          timeFormat: 'TIME_FORMAT_RELATIVE_SECONDS',
          relativeStartTime: '2024-05-01T12:00:00Z',
          data: Array.from({ length: channels }, (_, c) => ({
            timeDataset: '/time',
            valueDataset: `/values/v${c}`,
            channelConfig: channel(c),
          })),
        },
      };
    case 3:
      return {
        tdmsConfig: {
          assetName: `rig-${i % 7}`,
          runId: `run-${i}`,
          importFileProperties: true,
          data: Array.from({ length: channels }, (_, c) => ({
            groupName: 'g',
            channelName: `c${c}`,
            channelConfig: channel(c),
          })),
        },
      };
    default:
      return {
        ulogConfig: {
          assetName: `drone-${i % 3}`,
          relativeStartTime: '2024-05-01T12:00:00Z',
          data: Array.from({ length: channels }, (_, c) => ({
            messageName: 'sensor_accel',
            instance: '0',
            fieldName: `f${c}`,
            channelConfig: channel(c),
          })),
        },
      };
  }
}

const rate = (ms: number) => Math.round((N / ms) * 1000);

/** Least CPU time (user + system, ms) of `n` runs: steadier than wall time on a busy machine. */
async function cpuBest(n: number, fn: () => unknown): Promise<number> {
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const before = process.cpuUsage();
    await fn();
    const d = process.cpuUsage(before);
    least = Math.min(least, (d.user + d.system) / 1000);
  }
  return least;
}

/** Writes the configs in one format, lints them, and measures the baselines on the same files. */
async function measureFormat(ext: 'yaml' | 'json') {
  const dir = join(dataDir(), `lint-configs-${ext}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (let i = 0; i < N; i++) {
    const file = join(dir, `config-${String(i).padStart(4, '0')}.${ext}`);
    const c = config(i);
    writeFileSync(file, ext === 'yaml' ? stringify(c) : `${JSON.stringify(c, null, 2)}\n`);
    files.push(file);
  }
  const texts = files.map((f) => readFileSync(f, 'utf8'));
  const docs = texts.map((t) => parse(t) as unknown);
  const ajv = shapeValidator();
  const sink = { write: (_: string) => {} };
  const io = { stdout: sink, stderr: sink, env: {}, cwd: dir };

  // Warm up once (compiles ajv, loads the command), then best of 5.
  await run(['lint', '--reporter', 'json', dir], io);
  const lintRun = () => run(['lint', '--reporter', 'json', dir], io);
  const lint = await best(5, lintRun);
  if (lint.value !== 0)
    throw new Error(`lint exited with ${lint.value}: the configs should be valid`);
  const validatorRun = () => {
    for (let i = 0; i < N; i++) {
      if (!validateConfigText(texts[i] as string, { filename: files[i] as string }).ok) {
        throw new Error('invalid');
      }
    }
  };
  const validator = await best(5, validatorRun);
  const minimalRun = () => {
    for (const f of files) if (!ajv(parse(readFileSync(f, 'utf8')))) throw new Error('invalid');
  };
  const minimal = await best(5, minimalRun);
  const bareRun = () => {
    for (const d of docs) if (!ajv(d)) throw new Error('invalid');
  };
  const bare = await best(5, bareRun);
  const cpu = [
    await cpuBest(3, lintRun),
    await cpuBest(3, validatorRun),
    await cpuBest(3, minimalRun),
    await cpuBest(3, bareRun),
  ];
  const bytes = texts.reduce((n, t) => n + t.length, 0);
  console.log(
    `\n### ${N} ${ext.toUpperCase()} files, ${Math.round(bytes / N)} bytes each on average\n`,
  );
  const rows: Array<[string, number, number]> = [
    ['importkit lint (one call, JSON reporter)', lint.ms, cpu[0] as number],
    ['validateConfigText on the texts (no I/O)', validator.ms, cpu[1] as number],
    ['baseline: read + yaml.parse + ajv', minimal.ms, cpu[2] as number],
    ['baseline: bare ajv on the parsed documents', bare.ms, cpu[3] as number],
  ];
  table(
    ['what', 'wall ms', 'files/s', 'lint ÷ this', 'CPU ms', 'files/CPU-s', 'lint ÷ this (CPU)'],
    rows.map(([name, ms, c]) => [
      name,
      ms.toFixed(1),
      rate(ms),
      (lint.ms / ms).toFixed(2),
      c.toFixed(1),
      rate(c),
      ((cpu[0] as number) / c).toFixed(2),
    ]),
  );
  console.log(
    `\nlint: ${rate(lint.ms)} files/s (target ≥ 2,000), ${(lint.ms / bare.ms).toFixed(1)}× bare ajv; peak RSS ${Math.round(lint.peakRss / 1048576)} MiB`,
  );
}

await measureFormat('yaml');
await measureFormat('json');
