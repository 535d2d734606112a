/**
 * What the tools that read data files do, as plain library calls (the same ones the
 * command line makes), run in a worker thread of their own (`apart.ts`): a call that
 * reads a 1 GB file, or a hostile one, is bounded in time and memory and ended at once
 * when the client cancels it, while the server goes on. Values cross the thread as
 * structured clones: profiles, drafts and issues are plain data.
 */
import { checkAsConfigured, checkReads } from '../check/index.js';
import { writeFileSafely } from '../files/index.js';
import { inferBatch, inferConfig } from '../infer/index.js';
import {
  type BaseProfile,
  containerKind,
  detectFormat,
  formatById,
  type InspectOptions,
  inspectFile,
  leftOutByContent,
  leftOutByName,
  openContainer,
} from '../inspect/index.js';
import type { ImportDocument } from '../model/index.js';
import type { Issue } from '../model/plain.js';
import { isKnownZone, normalizeCsv } from '../normalize/index.js';
import { buildPreview, isoTime, type TimeView } from '../preview/index.js';
import { fail } from './failure.js';
import {
  dialectOf,
  inferOptionsOf,
  type ReadArgs,
  refuseOptionsOfOtherFormats,
} from './options.js';

/** Progress of a job: done of total (bytes, rows or files, as the library counts them). */
export type Progress = (done: number, total: number) => void;

/** A data file or folder as the sandbox resolved it. */
export interface DataInput {
  path: string;
  shown: string;
}

/** A config document with its text and names, and the data file it imports. */
export interface ConfiguredInput {
  document: ImportDocument;
  text: string;
  configName: string;
  data: DataInput;
  full: boolean;
  delimiter?: string | undefined;
  headerRow?: number | undefined;
}

/** One member of a folder or an archive, as `inspect` lists it. */
export interface MemberOut {
  path: string;
  size: number;
  format?: string;
  /** Why a batch leaves it out (a hidden file, not a data format ...). */
  leftOut?: string;
}

export type Inspected =
  | { kind: 'file'; profile: BaseProfile }
  | { kind: 'batch'; container: string; members: MemberOut[] };

/** What a folder or an archive holds: each member with its format, or why a batch leaves it out. */
async function inspectContainer(data: DataInput, progress: Progress): Promise<Inspected> {
  const kind = await containerKind(data.path);
  if (!kind) throw new Error(`${data.shown} is not a folder or an archive`);
  const container = await openContainer(data.path, kind, data.shown);
  const members: MemberOut[] = [];
  try {
    await container.walk(async (member, open) => {
      const named = leftOutByName(member.path);
      if (named) {
        members.push({ path: member.path, size: member.size, leftOut: named });
      } else {
        const source = await open();
        const found = await detectFormat(source);
        const why = leftOutByContent(member.path, found.format, found.by);
        members.push({
          path: member.path,
          size: member.size,
          format: found.format,
          ...(why ? { leftOut: why } : {}),
        });
      }
      progress(members.length, container.count ?? 0);
    }, 1);
  } finally {
    await container.close();
  }
  members.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { kind: 'batch', container: kind, members };
}

/** The time axis as the preview page shows it, as data: times in RFC 3339, the verdict. */
export interface TimeAxis {
  format: string;
  first: string;
  last: string;
  medianStepMs: number | undefined;
  /** What is wrong with the axis (bad) or that it is right, in the page's words. */
  findings: Array<{ text: string; bad: boolean; code?: string }>;
  /** No finding is bad and the first and last times fall between 1990 and 2100. */
  ok: boolean;
}

function timeAxis(view: TimeView): TimeAxis {
  return {
    format: view.format,
    first: isoTime(view.first),
    last: isoTime(view.last),
    medianStepMs: view.medianStep,
    findings: view.findings.map((f) => ({ ...f })),
    ok: !view.findings.some((f) => f.bad) && !view.firstBad && !view.lastBad,
  };
}

/** The jobs, by name: each a library call (or two) and nothing of its own. */
export const JOBS = {
  /** `importkit inspect`: the profile (with samples, as the command prints it), or a batch's members. */
  async inspect(
    input: { data: DataInput; args: ReadArgs },
    progress: Progress,
  ): Promise<Inspected> {
    if ((await containerKind(input.data.path)) !== undefined)
      return inspectContainer(input.data, progress);
    const options: InspectOptions = dialectOf(input.args);
    await refuseOptionsOfOtherFormats(input.data.path, input.data.shown, options);
    if (input.args.full === true) {
      options.full = true;
      options.onProgress = progress;
    }
    let profile = await inspectFile(input.data.path, options);
    const shown = formatById(profile.format)?.inspectWithSamples;
    if (shown) profile = await shown(input.data.path);
    return {
      kind: 'file',
      profile: { ...profile, file: { ...profile.file, path: input.data.shown } },
    };
  },

  /** `importkit infer`: a file's draft, or a folder's or an archive's batch draft. */
  async infer(input: { data: DataInput; args: ReadArgs; defaults: boolean }, progress: Progress) {
    const options = inferOptionsOf(input.args);
    if ((await containerKind(input.data.path)) !== undefined) {
      const draft = await inferBatch(input.data.path, {
        ...options,
        defaults: input.defaults,
        onFiles: progress,
      });
      return {
        document: draft.document,
        kind: draft.kind,
        evidence: draft.evidence,
        issues: draft.issues,
      };
    }
    await refuseOptionsOfOtherFormats(input.data.path, input.data.shown, options);
    const draft = await inferConfig(input.data.path, {
      ...options,
      ...(options.full ? { onProgress: progress } : {}),
    });
    return {
      document: draft.document,
      kind: draft.kind,
      evidence: draft.evidence,
      issues: draft.issues,
    };
  },

  /** `importkit check`: the config's data issues as the command reports them, and what was read. */
  async check(input: ConfiguredInput, progress: Progress) {
    const dialect = dialectOf(input);
    if ((await containerKind(input.data.path)) === undefined)
      await refuseOptionsOfOtherFormats(input.data.path, input.data.shown, dialect);
    const issues = await checkAsConfigured(
      input.document,
      input.data.path,
      { text: input.text, configName: input.configName, dataName: input.data.shown },
      {
        full: input.full,
        ...dialect,
        ...(input.full ? { onProgress: progress } : {}),
      },
    );
    return { issues, reads: checkReads(input.document, input.full) };
  },

  /** `importkit preview`: checks, builds the page and writes it to `output`. */
  async preview(
    input: ConfiguredInput & { output: string; issues: Issue[] },
    progress: Progress,
  ): Promise<{
    issues: Issue[];
    rows: number;
    complete: boolean;
    notes: string[];
    time: TimeAxis | undefined;
  }> {
    const { issues: checked } = await JOBS.check(input, progress);
    const issues = [...input.issues, ...checked];
    const built = await buildPreview({
      document: input.document,
      dataPath: input.data.path,
      dataName: input.data.shown,
      configText: input.text,
      configName: input.configName,
      issues,
      full: input.full,
      ...(input.full ? { onProgress: progress } : {}),
    });
    await writeFileSafely(input.output, built.html);
    return {
      issues,
      rows: built.rows,
      complete: built.complete,
      notes: built.notes,
      time: built.time ? timeAxis(built.time) : undefined,
    };
  },

  /** `importkit normalize`: writes the copy, then infers its draft. */
  async normalize(
    input: {
      data: DataInput;
      output: string;
      args: ReadArgs & { timezone?: string | undefined; firstDataRow?: number | undefined };
    },
    progress: Progress,
  ) {
    const { timezone, firstDataRow } = input.args;
    if (timezone !== undefined && !isKnownZone(timezone))
      throw fail(
        'tool_argument_invalid',
        `timezone '${timezone}' is not a time zone`,
        'e.g. Europe/Berlin, UTC',
      );
    const report = await normalizeCsv(input.data.path, input.output, {
      ...dialectOf(input.args),
      ...(timezone !== undefined ? { timezone } : {}),
      ...(firstDataRow !== undefined ? { firstDataRow } : {}),
      onProgress: progress,
    });
    const draft = await inferConfig(input.output);
    return { report, issues: draft.issues };
  },
};

export type JobName = keyof typeof JOBS;
export type JobInput<J extends JobName> = Parameters<(typeof JOBS)[J]>[0];
export type JobOutput<J extends JobName> = Awaited<ReturnType<(typeof JOBS)[J]>>;
