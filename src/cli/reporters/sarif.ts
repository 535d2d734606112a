import { CODES, type Issue, isIssueCode } from '../../model/plain.js';
import { VERSION } from '../args.js';
import type { Output } from '../io.js';
import { printable, printableJson } from '../printable.js';
import { describeSource, placeOf, shownIssues } from './_place.js';
import type { FileReport, Reporter, ReporterOptions, Summary } from './types.js';

/** SARIF 2.1.0 levels for our severities. */
const LEVEL = { error: 'error', warning: 'warning', info: 'note' } as const;

export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';

interface SarifRule {
  id: string;
  shortDescription: { text: string };
  help?: { text: string };
  defaultConfiguration: { level: 'error' | 'warning' | 'note' };
}

/**
 * One SARIF 2.1.0 log (a single run of importkit) written at the end: one result per
 * issue, one rule per code with its documentation from the code registry. GitHub code
 * scanning and most CI dashboards read it.
 */
export function sarifReporter(out: Output, options: ReporterOptions): Reporter {
  const results: unknown[] = [];
  const rules: SarifRule[] = [];
  const ruleIndex = new Map<string, number>();
  const artifacts: string[] = [];

  function ruleFor(issue: Issue): number {
    const known = ruleIndex.get(issue.code);
    if (known !== undefined) return known;
    const doc = isIssueCode(issue.code) ? CODES[issue.code] : undefined;
    const rule: SarifRule = {
      id: issue.code,
      shortDescription: { text: doc?.summary ?? issue.code },
      defaultConfiguration: { level: LEVEL[doc?.severity ?? issue.severity] },
    };
    if (doc?.fix) rule.help = { text: doc.fix };
    rules.push(rule);
    ruleIndex.set(issue.code, rules.length - 1);
    return rules.length - 1;
  }

  return {
    write(report: FileReport) {
      if (!artifacts.includes(report.file)) artifacts.push(report.file);
      for (const issue of shownIssues(report.issues, options)) {
        const index = ruleFor(issue);
        results.push(resultOf(report, issue, index));
      }
    },
    end(summary: Summary) {
      const log = {
        $schema: SARIF_SCHEMA_URI,
        version: '2.1.0',
        runs: [
          {
            tool: {
              driver: {
                name: 'importkit',
                version: VERSION,
                informationUri: 'https://www.npmjs.com/package/importkit',
                rules,
              },
            },
            automationDetails: { id: `importkit/${options.command ?? 'lint'}/` },
            artifacts: artifacts.map((a) => ({ location: { uri: toUri(a) } })),
            results,
            invocations: [
              {
                executionSuccessful: true,
                properties: { summary },
              },
            ],
          },
        ],
      };
      out.write(`${printableJson(log)}\n`);
    },
  };
}

/** A path as a SARIF uri-reference: forward slashes, each segment percent-encoded. */
export function toUri(path: string): string {
  return path
    .replace(/\\/g, '/')
    .split('/')
    .map((seg) => encodeURIComponent(seg))
    .join('/');
}

/** One SARIF result: the issue's rule, level, message (with where and hint) and location. */
function resultOf(report: FileReport, issue: Issue, index: number): Record<string, unknown> {
  const place = placeOf(report, issue);
  const region: Record<string, number> = {};
  if (place.line !== undefined) region.startLine = place.line;
  if (place.line !== undefined && place.column !== undefined) region.startColumn = place.column;
  const physicalLocation: Record<string, unknown> = {
    artifactLocation: { uri: toUri(place.file) },
  };
  if (region.startLine !== undefined) physicalLocation.region = region;
  const where = describeSource(issue);
  // The message is shown to people (code scanning, dashboards): names in it are escaped.
  const text = printable(
    [
      issue.message,
      where && place.file !== issue.source?.file ? `(${where})` : undefined,
      issue.hint ? `Hint: ${issue.hint}` : undefined,
    ]
      .filter(Boolean)
      .join(' '),
  );
  return {
    ruleId: issue.code,
    ruleIndex: index,
    level: LEVEL[issue.severity],
    message: { text },
    locations: [
      {
        physicalLocation,
        ...(issue.path
          ? { logicalLocations: [{ fullyQualifiedName: issue.path, kind: 'member' }] }
          : {}),
      },
    ],
  };
}
