/**
 * The issue-code registry: every code with its severity and documentation, by area.
 * Issues take their severity from here (`model/make-issue.ts`); docs/issue-codes.md is generated from it.
 */
import type { CodeDoc } from './_types.js';
import { batchCodes } from './batch.js';
import { ch10Codes } from './ch10.js';
import { checkCodes } from './check.js';
import { cliCodes } from './cli.js';
import { clientCodes } from './client.js';
import { csvCodes } from './csv.js';
import { hdf5Codes } from './hdf5.js';
import { inferCodes } from './infer.js';
import { inspectCodes } from './inspect.js';
import { mcpCodes } from './mcp.js';
import { parquetCodes } from './parquet.js';
import { tdmsCodes } from './tdms.js';
import { ulogCodes } from './ulog.js';
import { validateCodes } from './validate.js';

export type { CodeDoc } from './_types.js';

/**
 * Every issue code importkit reports, by area, with its documentation. One registry:
 * docs/issue-codes.md is generated from it and a test fails when they drift.
 */
export const CODE_AREAS = {
  validate: validateCodes,
  inspect: inspectCodes,
  infer: inferCodes,
  csv: csvCodes,
  parquet: parquetCodes,
  hdf5: hdf5Codes,
  tdms: tdmsCodes,
  ch10: ch10Codes,
  ulog: ulogCodes,
  check: checkCodes,
  batch: batchCodes,
  client: clientCodes,
  cli: cliCodes,
  mcp: mcpCodes,
} as const;

export const CODES = {
  ...validateCodes,
  ...inspectCodes,
  ...inferCodes,
  ...csvCodes,
  ...parquetCodes,
  ...hdf5Codes,
  ...tdmsCodes,
  ...ch10Codes,
  ...ulogCodes,
  ...checkCodes,
  ...batchCodes,
  ...clientCodes,
  ...cliCodes,
  ...mcpCodes,
} as const satisfies Record<string, CodeDoc>;

export type IssueCode = keyof typeof CODES;

export function isIssueCode(code: string): code is IssueCode {
  return Object.hasOwn(CODES, code);
}
