/**
 * A config checked against its data file as importkit reports it (the command line's
 * `check`, `lint --data`, `preview` and `submit`, and the MCP server's tools): the check's
 * issues, less those about a field the validator already rejects, each placed on the
 * config line its pointer names, and in a batch named by its member.
 */
import { containerKind } from '../inspect/index.js';
import type { ImportDocument } from '../model/index.js';
import type { Issue } from '../model/plain.js';
import { parseConfigSource, validateConfig } from '../validate/index.js';
import { checkBatch } from './batch.js';
import { checkFile } from './dispatch.js';
import { configOfDocument } from './document.js';
import type { CheckOptions } from './options.js';

/**
 * Checks a config document (canonical: camelCase, full enum names) against the data file
 * it will import: a batch member by member, one file through the format table. Issues
 * about the data carry `source: { file, row, line, column, dataset }` and a `path` into
 * the document. Throws InspectError when the file cannot be read.
 */
export async function checkConfig(
  document: ImportDocument,
  dataPath: string,
  options: CheckOptions = {},
): Promise<Issue[]> {
  if (configOfDocument(document)?.key === 'batchConfig') {
    return checkBatch(document.batchConfig ?? {}, dataPath, options);
  }
  return checkFile(document, dataPath, options);
}

/** Where the document came from and how its data file is named, for the issues. */
export interface CheckedNames {
  /** The config as written (YAML or JSON): issues are placed on its lines. */
  text: string;
  /** The config's name as shown. */
  configName: string;
  /** The data file, folder or archive as shown: issues about the data name it. */
  dataName: string;
}

export interface PlacedCheckOptions extends CheckOptions {
  /** What checks the data (default `checkConfig`; `submit` checks a batch apart). */
  check?: (document: ImportDocument, dataPath: string, options: CheckOptions) => Promise<Issue[]>;
}

/**
 * Checks a validated document against its data file and places each issue: on the config
 * line its pointer names, with the data file as shown (`dataName`), a batch's member
 * named in its message. Throws InspectError when the file cannot be read.
 */
export async function checkAsConfigured(
  document: ImportDocument,
  dataPath: string,
  names: CheckedNames,
  options: PlacedCheckOptions = {},
): Promise<Issue[]> {
  const { check = checkConfig, ...checkOptions } = options;
  const found = await check(document, dataPath, checkOptions);
  // A field the validator already rejects (firstDataRow -1, a misspelt key) says nothing
  // reliable about the data: its data findings would only repeat the error in other words.
  const rejected =
    found.length === 0
      ? []
      : validateConfig(document)
          .issues.filter((i) => i.severity === 'error')
          .map((i) => i.path);
  const relevant = found.filter(
    (i) => !rejected.some((p) => i.path === p || i.path.startsWith(`${p}/`)),
  );
  const named =
    'batchConfig' in document
      ? await namingMembers(relevant, names.dataName, dataPath)
      : relevant.map((i) =>
          i.source ? { ...i, source: { ...i.source, file: names.dataName } } : i,
        );
  return placed(named, names.text, names.configName);
}

/**
 * Each issue on the config line its pointer names. The text is read with positions only
 * when an issue needs one: that reading costs far more than the check of a wide file's
 * metadata (3 s for a config of 10,000 channels), and a config that fits needs none.
 */
function placed(issues: Issue[], text: string, configName: string): Issue[] {
  if (issues.every((i) => i.line !== undefined)) return issues;
  const source = parseConfigSource(text, { filename: configName }).documents.find(
    (d) => d.value !== undefined,
  );
  return issues.map((i) => {
    const out: Issue = { ...i };
    if (source && out.line === undefined) {
      const p = source.locate(out.path);
      out.line = p.line;
      out.column = p.column;
    }
    return out;
  });
}

/**
 * A batch's issues name their member. The reporters place an issue on the config line its
 * pointer names, and members that share a default config share that line, so the message
 * starts with the member's path inside the folder or archive (`runs/a.csv: ...`), unless it
 * already does; every reporter prints the message. The source names the member as the
 * user can find it: `campaign/runs/a.csv` in a folder, `campaign.zip!/runs/a.csv` in an
 * archive.
 */
async function namingMembers(
  issues: readonly Issue[],
  dataName: string,
  dataPath: string,
): Promise<Issue[]> {
  const folder = (await containerKind(dataPath)) === 'folder';
  return issues.map((i) => {
    const member = i.source?.file;
    if (i.source === undefined || member === undefined) return i;
    const file = folder ? `${dataName.replace(/\/+$/, '')}/${member}` : `${dataName}!/${member}`;
    const message = i.message.startsWith(member) ? i.message : `${member}: ${i.message}`;
    return { ...i, message, source: { ...i.source, file } };
  });
}
