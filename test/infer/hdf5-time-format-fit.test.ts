/**
 * An HDF5 config has one `timeFormat` for every time dataset it reads. Infer judges each
 * of its draft's time datasets against that format as check does (formats/hdf5/time-issues.ts),
 * so a draft that cannot be imported as written says so itself: a format given to infer that
 * reads none of the file's times is the draft's error. A file whose time datasets hold text
 * and numbers, or numbers of two units, gets a draft of the channels one format reads, and
 * a warning for each time dataset left out with its channels (the other format's draft
 * imports those). And check does not pass numbers under a text format.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Group } from 'h5wasm';
import h5wasm from 'h5wasm/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkConfig } from '../../src/check/index.js';
import { inferConfig } from '../../src/infer/index.js';
import type { ImportDocument } from '../../src/model/index.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-h5-time-fit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  await h5wasm.ready;
});

const T0 = 1_709_294_400; // 2024-03-01T12:00:00Z
const seconds = Float64Array.from({ length: 8 }, (_, i) => T0 + i);
const values = Float64Array.from({ length: 8 }, (_, i) => i / 4);

/** A file of the datasets given (name → data), written with h5wasm. */
function written(name: string, datasets: Record<string, unknown>): string {
  const path = join(dir, name);
  const f = new h5wasm.File(path, 'w');
  const groups = new Map<string, Group>();
  for (const [at, data] of Object.entries(datasets)) {
    const slash = at.lastIndexOf('/');
    const name = at.slice(0, Math.max(0, slash));
    let group: Group = f;
    if (name !== '') {
      group = groups.get(name) ?? f.create_group(name);
      groups.set(name, group);
    }
    group.create_dataset({ name: at.slice(slash + 1), data: data as never });
  }
  f.close();
  return path;
}

const errorsOf = (issues: ReadonlyArray<{ code: string; severity: string; path: string }>) =>
  issues.filter((i) => i.severity === 'error').map((i) => `${i.code} ${i.path}`);

describe('infer judges every time dataset against the one format it drafts', () => {
  test('text times beside numeric ones: the channels of the times not read are left out', async () => {
    const path = written('text-and-numbers.h5', {
      time: Array.from(seconds, (s) => new Date(s * 1000).toISOString()),
      speed: values,
      'g/time': seconds,
      'g/speed': values,
    });
    const draft = await inferConfig(path);
    const config = (draft.document as ImportDocument).hdf5Config;
    const text = config?.timeFormat === 'TIME_FORMAT_ABSOLUTE_RFC3339';
    const [kept, other] = text ? ['/time', '/g/time'] : ['/g/time', '/time'];
    expect(errorsOf(draft.issues)).toEqual([]);
    expect(config?.data?.map((e) => e.timeDataset)).toEqual([kept]);
    const left = draft.issues.filter((i) => i.code === 'hdf5_time_dataset_left_out');
    expect(left).toMatchObject([
      {
        severity: 'warning',
        path: '/hdf5Config/data',
        source: { dataset: other },
        hint: `Import them with a config of their own: importkit infer with --time-format ${text ? 'ABSOLUTE_UNIX_SECONDS' : 'ABSOLUTE_RFC3339'}.`,
      },
    ]);
    expect(left[0]?.message).toContain(
      `${other} and the channel it times (${other.replace('time', 'speed')}) are left out`,
    );
    expect(left[0]?.message).toContain('time_not_parseable');
    // Check finds nothing wrong with the draft; the other format's draft imports the rest.
    expect(
      errorsOf(await checkConfig(draft.document as ImportDocument, path, { full: true })),
    ).toEqual([]);
    const rest = await inferConfig(path, {
      timeFormat: text ? 'ABSOLUTE_UNIX_SECONDS' : 'ABSOLUTE_RFC3339',
    });
    expect(errorsOf(rest.issues)).toEqual([]);
    expect((rest.document as ImportDocument).hdf5Config?.data?.map((e) => e.timeDataset)).toEqual([
      other,
    ]);
  });

  test('seconds beside nanoseconds: the draft takes one unit, and leaves the other out', async () => {
    const path = written('two-units.h5', {
      time: seconds,
      speed: values,
      'g/time': BigInt64Array.from(seconds, (s) => BigInt(s) * 1_000_000_000n),
      'g/speed': values,
    });
    const draft = await inferConfig(path);
    expect(errorsOf(draft.issues)).toEqual([]);
    expect((draft.document as ImportDocument).hdf5Config?.data).toHaveLength(1);
    expect(draft.issues.map((i) => i.code)).toContain('hdf5_time_dataset_left_out');
    expect(draft.issues.find((i) => i.code === 'hdf5_time_dataset_left_out')?.message).toContain(
      'time_wrong_unit',
    );
    expect(
      errorsOf(await checkConfig(draft.document as ImportDocument, path, { full: true })),
    ).toEqual([]);
  });

  test('a format given that reads the times in another unit is an error of the draft', async () => {
    const path = written('given.h5', { time: seconds, speed: values });
    const given = await inferConfig(path, { timeFormat: 'TIME_FORMAT_ABSOLUTE_UNIX_MICROSECONDS' });
    expect(errorsOf(given.issues)).toEqual(['time_wrong_unit /hdf5Config/timeFormat']);
    // Not given, the unit is read off the values, and nothing is wrong.
    expect(errorsOf((await inferConfig(path)).issues)).toEqual([]);
  });
});

test('check: numeric times under a text format do not fit', async () => {
  const path = written('numbers-as-text.h5', { time: seconds, speed: values });
  const doc = {
    hdf5Config: {
      timeFormat: 'TIME_FORMAT_ABSOLUTE_RFC3339' as const,
      data: [
        {
          timeDataset: '/time',
          valueDataset: '/speed',
          channelConfig: { name: 'speed', dataType: 'CHANNEL_DATA_TYPE_DOUBLE' as const },
        },
      ],
    },
  };
  for (const full of [false, true]) {
    const issues = await checkConfig(doc, path, { full });
    expect(issues.filter((i) => i.severity === 'error')).toMatchObject([
      {
        code: 'time_not_parseable',
        path: '/hdf5Config/timeFormat',
        message: "the time of '/time' holds float values, which ABSOLUTE_RFC3339 does not read",
      },
    ]);
  }
  // The same file under its unit fits.
  const unix = {
    hdf5Config: { ...doc.hdf5Config, timeFormat: 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS' as const },
  };
  expect(errorsOf(await checkConfig(unix, path, { full: true }))).toEqual([]);
});
