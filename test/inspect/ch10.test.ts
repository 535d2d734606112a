/**
 * CH10 inspection: TMATS attributes read by lines, the channels a record really lists,
 * and the walk over the packet headers (what it reads, sampled and whole, and what it
 * makes of damage).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import {
  ch10Packet,
  claimedSourcesBytes,
  offsetOfPacket,
  type PacketSpec,
  recording,
  START_MS,
  timeBody,
  tmatsBody,
  tmatsOf,
} from '../../scripts/fixtures/ch10.js';
import { inspectCh10, inspectCh10Source, parseTmats } from '../../src/formats/ch10/inspect.js';
import { countingSource, memorySource } from '../../src/inspect/byte-source.js';
import { InspectError } from '../../src/inspect/profile.js';
import { repoRoot } from '../helpers/paths.js';

const fixtures = join(repoRoot, 'fixtures', 'ch10');
const MiB = 1 << 20;

describe('TMATS attributes, read by lines', () => {
  test('comment lines without a semicolon end there: the program name after them is kept', async () => {
    const profile = await inspectCh10(join(fixtures, 'comment-lines.ch10'));
    expect(profile.tmats.programName).toBe('NIGHT-SORTIE');
    expect(profile.tmats.attributes['G\\COM']).toBe('second comment line, no semicolon either');
    expect(profile.channels.map((c) => [c.channelId, c.name, c.dataType])).toEqual([
      [1, 'IRIG-TIME', 'TIMIN'],
      [3, 'PCM-MAIN', 'PCMIN'],
    ]);
  });

  test('several attributes on a line, continuation lines and text that is no code', () => {
    const text = [
      'G\\PN:P;G\\106:17;',
      'G\\COM:first line',
      'continued: not an attribute',
      'G\\TA:a value: with colons ;',
      '  R-1\\ID:REC ;',
      'nocode:x;',
      '',
    ].join('\n');
    expect(parseTmats(text)).toEqual({
      'G\\PN': 'P',
      'G\\106': '17',
      'G\\COM': 'first line',
      'G\\TA': 'a value: with colons',
      'R-1\\ID': 'REC',
    });
  });

  test('any attributes, written with or without the semicolon before a line end, read back', () => {
    const code = fc
      .tuple(
        fc.constantFrom('G', 'R-1', 'R-12', 'C-3', 'P-1'),
        fc.stringMatching(/^[A-Z][A-Z0-9]{0,4}(-[0-9]{1,3}){0,2}$/),
      )
      .map(([g, rest]) => `${g}\\${rest}`);
    const value = fc.stringMatching(/^[A-Za-z0-9 .,:/_-]{0,20}$/).map((v) => v.trim());
    const entry = fc.tuple(code, value, fc.constantFrom(';\r\n', ';\n', ';', '\r\n', '\n'));
    fc.assert(
      fc.property(fc.uniqueArray(entry, { selector: ([c]) => c, maxLength: 30 }), (entries) => {
        // An attribute without a line end after it needs its semicolon.
        const text = entries
          .map(
            ([c, v, end], k) =>
              `${c}:${v}${k === entries.length - 1 || end.includes('\n') ? end : ';'}`,
          )
          .join('');
        expect(parseTmats(text)).toEqual(Object.fromEntries(entries.map(([c, v]) => [c, v])));
      }),
    );
  });
});

describe('the channels a TMATS record lists', () => {
  test('a recorder that claims 65,535 sources (R-1\\N) and lists one has one channel', async () => {
    const bytes = claimedSourcesBytes(1);
    const profile = await inspectCh10Source(memorySource(bytes, 'claim.ch10'));
    expect(profile.tmats.attributes['R-1\\N']).toBe('65535');
    expect(profile.channels).toEqual([
      { recorder: 'R-1', channelId: 2, name: 'R-1 source 1', dataType: 'PCMIN' },
    ]);
  });

  test('more channels than a recording has channel IDs: a coded error, not a profile', async () => {
    const attributes: Array<[string, string]> = [['G\\PN', 'TOO-MANY']];
    for (let n = 1; n <= 65_536; n++) attributes.push([`R-1\\TK1-${n}`, String(n % 65_536)]);
    const bytes = recording(tmatsBody(attributes), []);
    const err = await inspectCh10Source(memorySource(bytes, 'many.ch10')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InspectError);
    expect((err as InspectError).issue).toMatchObject({
      code: 'ch10_too_many_channels',
      severity: 'error',
      message:
        'many.ch10: the TMATS record lists more than 65535 channels, more than the channel IDs a recording has',
    });
  });
});

/**
 * A recording of `packets` data packets of `bytes` each on channel 3, a time packet every
 * 50, with the header of packet `damaged` (when given) no longer matching its checksum and
 * the last `cut` bytes left out.
 */
function longRecording(packets: number, bytes: number, damaged?: number, cut = 0): Uint8Array {
  const specs: PacketSpec[] = [];
  for (let k = 0; k < packets; k++) {
    const at = k / 100;
    if (k % 50 === 0)
      specs.push({ channelId: 1, dataType: 0x11, at, body: timeBody(START_MS + at * 1000) });
    specs.push({ channelId: 3, dataType: 0x09, at, body: new Uint8Array(bytes).fill(k & 0xff) });
  }
  const channels = [
    { id: 1, name: 'IRIG-TIME', type: 'TIMIN' },
    { id: 3, name: 'PCM-MAIN', type: 'PCMIN' },
  ];
  const out = recording(tmatsBody(tmatsOf(channels)), specs);
  if (damaged !== undefined) {
    const at = offsetOfPacket(out, damaged);
    out[at + 22] = (out[at + 22] as number) ^ 0x5a;
  }
  return out.subarray(0, out.byteLength - cut);
}

/**
 * A time packet, then `packets` Ethernet packets (0x68) of `frames` frames each; a frame
 * carries two whole 40-byte packets of another recorder (channels 0x101, 0x102), streamed
 * over UDP, between frame bytes.
 */
function streamedRecording(frames: number, packets: number): Uint8Array {
  const frame = new Uint8Array(140).fill(0x11);
  frame.set(ch10Packet(0x101, 0x09, new Uint8Array(16)), 58);
  frame.set(ch10Packet(0x102, 0x09, new Uint8Array(16)), 98);
  const body = new Uint8Array(140 * frames);
  for (let k = 0; k < frames; k++) body.set(frame, 140 * k);
  const specs: PacketSpec[] = [{ channelId: 1, dataType: 0x11, at: 0, body: timeBody(START_MS) }];
  for (let k = 0; k < packets; k++) specs.push({ channelId: 3, dataType: 0x68, at: k / 10, body });
  const channels = [
    { id: 1, name: 'IRIG-TIME', type: 'TIMIN' },
    { id: 3, name: 'NET', type: 'ETHIN' },
  ];
  return recording(tmatsBody(tmatsOf(channels)), specs);
}

describe('the walk over the packet headers', () => {
  // About 3.5 MiB: 3,400 packets of 1 KiB and 68 time packets, packet 1,700 damaged
  // (about 1.7 MiB in), the last packet cut.
  const long = longRecording(3400, 1000, 1700, 100);

  test('sampled: the headers in the first and last MiB, no more; the damage between is not seen', async () => {
    const source = countingSource(memorySource(long, 'long.ch10'));
    const profile = await inspectCh10Source(source, { sampleBytes: MiB });
    expect(profile.issues.map((i) => i.code)).toEqual(['ch10_last_packet_incomplete']);
    expect(profile.packets.read).toBe('sampled');
    const [head, tail] = profile.packets.ranges as [[number, number], [number, number]];
    expect(head[0]).toBe(0);
    expect(head[1]).toBeGreaterThanOrEqual(MiB);
    expect(head[1]).toBeLessThan(MiB + 1100);
    expect(tail).toEqual([long.byteLength - MiB, long.byteLength]);
    expect(source.bytesRead).toBeGreaterThanOrEqual(2 * MiB);
    expect(source.bytesRead).toBeLessThan(2 * MiB + 4096);
  });

  test('sampled: packets another recorder streamed, carried whole in packet data, are not the tail', async () => {
    // Where the tail's first MiB starts inside an Ethernet packet's data, the two streamed
    // packets of a frame chain, then stop where their frame does.
    const bytes = streamedRecording(1800, 12);
    const profile = await inspectCh10Source(memorySource(bytes, 'net.ch10'), { sampleBytes: MiB });
    expect(profile.packets.read).toBe('sampled');
    expect(profile.issues).toEqual([]);
    expect(profile.inventory.map((c) => [c.channelId, c.packets])).toEqual([
      [0, 1],
      [1, 1],
      // The packets of the head's MiB and of the tail's, from the first header chaining to the end.
      [3, 9],
    ]);
    // The headers read in the tail: from that packet's (the two streamed ones passed over).
    const tail = profile.packets.ranges[1] as [number, number];
    expect(tail).toEqual([offsetOfPacket(bytes, 10), bytes.byteLength]);
  });

  test('whole: after damage, packets another recorder streamed in the damaged packet are not taken up', async () => {
    // The third Ethernet packet's header is damaged: the rest of its data holds streamed
    // packets, which chain for two, then stop where their frame does.
    const bytes = streamedRecording(200, 6);
    // Packets: TMATS, time, then the Ethernet ones; the third Ethernet packet is packet 4.
    const damaged = offsetOfPacket(bytes, 4);
    bytes[damaged] = 0; // its sync pattern
    const profile = await inspectCh10Source(memorySource(bytes, 'net.ch10'));
    expect(profile.packets.read).toBe('all');
    expect(profile.issues.map((i) => [i.code, i.source?.offset])).toEqual([
      ['ch10_packet_damaged', damaged],
    ]);
    expect(profile.inventory.map((c) => [c.channelId, c.packets])).toEqual([
      [0, 1],
      [1, 1],
      [3, 5],
    ]);
  });

  test('whole: every header, the damage reported and walked past, the file read once', async () => {
    const source = countingSource(memorySource(long, 'long.ch10'));
    const profile = await inspectCh10Source(source);
    expect(profile.issues.map((i) => [i.code, i.source?.offset])).toEqual([
      ['ch10_packet_damaged', offsetOfPacket(long, 1700)],
      ['ch10_last_packet_incomplete', offsetOfPacket(long, 3468)],
    ]);
    expect(profile.packets.read).toBe('all');
    // TMATS, 68 time packets, 3,400 data packets less the damaged one and the cut one.
    expect(profile.packets.headers).toBe(1 + 68 + 3400 - 2);
    expect(source.bytesRead).toBeLessThan(long.byteLength * 1.01);
  });

  test('packets larger than 64 KiB: their headers are read alone, their data never', async () => {
    const big = longRecording(20, 256 * 1024);
    const source = countingSource(memorySource(big, 'video.ch10'));
    const profile = await inspectCh10Source(source);
    expect(profile.issues).toEqual([]);
    expect(profile.inventory.map((c) => [c.channelId, c.packets])).toEqual([
      [0, 1],
      [1, 1],
      [3, 20],
    ]);
    // The first MiB (the head every inspection reads), then a header (36 bytes) a packet.
    expect(big.byteLength).toBeGreaterThan(4 * MiB);
    expect(source.bytesRead).toBeLessThan(MiB + 20 * 36);
  });

  test('any bytes written over the packets after the TMATS record: a profile, never a throw', async () => {
    const whole = readFileSync(join(fixtures, 'recorder.ch10'));
    const tmatsEnd = offsetOfPacket(whole, 1);
    const known = [
      'ch10_packet_damaged',
      'ch10_last_packet_incomplete',
      'ch10_no_time_packets',
      'ch10_channel_without_packets',
      'ch10_channel_not_in_tmats',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            fc.integer({ min: tmatsEnd, max: whole.byteLength - 1 }),
            fc.integer({ min: 0, max: 255 }),
          ),
          {
            minLength: 1,
            maxLength: 8,
          },
        ),
        fc.integer({ min: tmatsEnd, max: whole.byteLength }),
        async (writes, end) => {
          const bytes = new Uint8Array(whole.subarray(0, end));
          for (const [at, v] of writes) if (at < end) bytes[at] = v;
          const profile = await inspectCh10Source(memorySource(bytes, 'x.ch10'));
          for (const i of profile.issues) expect(known).toContain(i.code);
          expect(profile.packets.headers).toBeLessThanOrEqual(16);
          expect(profile.packets.read).toBe('all');
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('a file on disk', () => {
  const dir = mkdtempSync(join(tmpdir(), 'importkit-ch10-disk-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('inspected by its path (two read buffers that take turns) as from memory', async () => {
    await fc.assert(
      fc.asyncProperty(
        // 2.3 to 4.4 MiB of packets of 200 B to 3 KiB: three windows or more, each read into
        // the buffer of the one before last; a damaged header and a cut end, or not.
        fc.integer({ min: 200, max: 3000 }),
        fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
        fc.integer({ min: 0, max: 150 }),
        async (bytes, damaged, cut) => {
          const packets = Math.ceil((2.3 * MiB + ((bytes * 7) % MiB)) / (bytes + 24));
          const at = damaged === null ? undefined : 2 + Math.floor(damaged * (packets - 3));
          const data = longRecording(packets, bytes, at, cut);
          const path = join(dir, 'rec.ch10');
          writeFileSync(path, data);
          const fromMemory = await inspectCh10Source(memorySource(data, path));
          expect(await inspectCh10(path)).toEqual(fromMemory);
          expect(fromMemory.packets.read).toBe('all');
        },
      ),
      { numRuns: 8 },
    );
  });
});
