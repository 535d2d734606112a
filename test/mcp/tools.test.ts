/**
 * The MCP server through a real client (the SDK's Client over stdio, spawning the real
 * binary): the tools and resources listed, and for each format's fixture inspect → infer →
 * check → preview answering what the library answers for the same calls.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkAsConfigured } from '../../src/check/index.js';
import { inferBatch, inferConfig } from '../../src/infer/index.js';
import { containerKind, formatById, inspectFile } from '../../src/inspect/index.js';
import type { Issue } from '../../src/model/plain.js';
import { buildPreview } from '../../src/preview/index.js';
import { runCli } from '../helpers/cli.js';
import { buildForMcp, type McpSession, startMcp } from '../helpers/mcp.js';
import { repoRoot } from '../helpers/paths.js';

const fixtures = join(repoRoot, 'fixtures');
let out: string;
let mcp: McpSession;

beforeAll(async () => {
  await buildForMcp();
  out = await mkdtemp(join(tmpdir(), 'importkit-mcp-tools-'));
  mcp = await startMcp(['--root', fixtures, '--out', out]);
}, 240_000);

afterAll(async () => {
  await mcp?.close();
  await rm(out, { recursive: true, force: true });
});

/** An issue as the tools answer it (the JSON reporter's fields and the place in the data). */
function asAnswered(i: Issue): Record<string, unknown> {
  const { file: _, ...rest } = i;
  return JSON.parse(JSON.stringify(rest)) as Record<string, unknown>;
}

/** A resource's text (the server answers text, not blobs). */
function textOf(contents: ReadonlyArray<{ text: string } | { blob: string }>): string {
  const [first] = contents;
  return first !== undefined && 'text' in first ? first.text : '';
}

describe('importkit mcp lists', () => {
  test('the read-only tools, each with an input and an output schema', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'inspect',
      'infer',
      'lint',
      'check',
      'preview',
      'explain_issue',
      'schema',
      'normalize',
    ]);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type).toBe('object');
      expect(t.annotations?.readOnlyHint).toBe(true);
    }
  });

  test('the schemas, the issue codes, the config pages and the agents guide as resources', async () => {
    const { resources } = await mcp.client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toContain('importkit://docs/agents.md');
    expect(uris).toContain('importkit://issue-codes');
    expect(uris).toContain('importkit://docs/configs/csv.md');
    expect(uris).toContain('importkit://schemas/document.schema.json');
    expect(uris).toHaveLength(3 + 8 + 8);
    const codes = await mcp.client.readResource({ uri: 'importkit://issue-codes' });
    const rows = JSON.parse(textOf(codes.contents)) as Array<{ code: string; fix: string }>;
    expect(rows.find((r) => r.code === 'path_outside_roots')?.fix).toMatch(/--root/);
    const page = await mcp.client.readResource({ uri: 'importkit://docs/configs/csv.md' });
    expect(textOf(page.contents)).toBe(
      await readFile(join(repoRoot, 'docs/configs/csv.md'), 'utf8'),
    );
  });
});

/** One fixture of each format (and a batch), by its path under fixtures/. */
const CASES = [
  'preview/channels.csv',
  'preview/channels.parquet',
  'preview/channels.h5',
  'preview/channels.tdms',
  'preview/channels.ulg',
  'ch10/recorder.ch10',
  'batch/campaign.zip',
];

describe.each(CASES)(
  '%s: inspect → infer → check → preview answer what the library answers',
  (file) => {
    const path = join(fixtures, file);

    test('inspect', async () => {
      const answer = await mcp.call('inspect', { path: file, limit: 1000 });
      expect(answer.isError).toBe(false);
      if ((await containerKind(path)) !== undefined) {
        expect(answer.value.kind).toBe('batch');
        expect(answer.value.members.total).toBeGreaterThan(0);
        return;
      }
      let profile = await inspectFile(path);
      const shown = formatById(profile.format)?.inspectWithSamples;
      if (shown) profile = await shown(path);
      expect(answer.value.format).toBe(profile.format);
      expect(answer.value.size).toBe(profile.file.size);
      expect(answer.value.rowCount).toBe(profile.rowCount);
      expect(answer.value.fields.total).toBe(profile.fields.length);
      expect(
        answer.value.fields.items.map((f: { name?: string; path?: string }) => f.name ?? f.path),
      ).toEqual(profile.fields.map((f) => f.name ?? f.path));
      expect(answer.value.issues.items).toEqual(profile.issues.map(asAnswered));
    });

    test('infer, check and preview of the draft', async () => {
      const batch = (await containerKind(path)) !== undefined;
      const draft = batch ? await inferBatch(path) : await inferConfig(path);
      const inferred = await mcp.call('infer', { path: file, limit: 1000 });
      expect(inferred.isError).toBe(false);
      expect(inferred.value.document).toEqual(JSON.parse(JSON.stringify(draft.document)));
      expect(inferred.value.evidence.items).toEqual(JSON.parse(JSON.stringify(draft.evidence)));
      expect(inferred.value.issues.items).toEqual(draft.issues.map(asAnswered));
      const draftPath = inferred.value.draft as string;
      expect(draftPath.startsWith(out)).toBe(true);
      const text = await readFile(draftPath, 'utf8');

      const names = { text, configName: draftPath, dataName: file };
      const expected = await checkAsConfigured(draft.document, path, names);
      const checked = await mcp.call('check', { configPath: draftPath, data: file, limit: 1000 });
      expect(checked.isError).toBe(false);
      expect(checked.value.issues.items).toEqual(expected.map(asAnswered));
      expect(checked.value.fits).toBe(!expected.some((i) => i.severity === 'error'));

      if (batch) return;
      const shown = await mcp.call('preview', { configPath: draftPath, data: file });
      expect(shown.isError).toBe(false);
      const built = await buildPreview({
        document: draft.document,
        dataPath: path,
        dataName: file,
        configText: text,
        configName: draftPath,
        issues: expected,
      });
      expect(shown.value.page).toBe(join(out, `${file.split('/').pop()}.preview.html`));
      expect((await readFile(shown.value.page, 'utf8')).length).toBeGreaterThan(1000);
      expect([shown.value.rows, shown.value.complete, shown.value.notes]).toEqual([
        built.rows,
        built.complete,
        built.notes,
      ]);
      expect(shown.value.time?.first ?? null).toBe(
        built.time ? new Date(built.time.first).toISOString() : null,
      );
    });
  },
);

describe('a wrong config', () => {
  test('check answers the issues `importkit check --reporter json` prints', async () => {
    const args = ['preview/wrong-unit.csv.yaml', 'preview/channels.csv'];
    const cli = await runCli(fixtures, ['check', ...args, '--reporter', 'json']);
    const printed = JSON.parse(cli.stdout) as {
      files: Array<{ issues: Array<Record<string, unknown>> }>;
    };
    const answer = await mcp.call('check', { configPath: args[0], data: args[1] });
    expect(answer.isError).toBe(false);
    expect(answer.value.fits).toBe(false);
    const asPrinted = answer.value.issues.items.map((i: Record<string, unknown>) => ({
      code: i.code,
      severity: i.severity,
      path: i.path,
      message: i.message,
      hint: i.hint ?? null,
      line: i.line ?? null,
      column: i.column ?? null,
    }));
    expect(asPrinted).toEqual(printed.files[0]?.issues);
    expect(asPrinted.length).toBeGreaterThan(0);
  });
});
