/**
 * The tools, in one table: a tool is a row. The order is the loop that works (inspect →
 * infer → check → preview → fix → submit); submit and status are listed only when the
 * server was started with --allow-submit.
 */
import type { ToolDef } from '../tool.js';
import { checkTool, lintTool, previewTool } from './config.js';
import { inferTool, inspectTool, normalizeTool } from './data.js';
import { explainIssueTool, schemaTool } from './reference.js';
import { statusTool, submitTool } from './service.js';

export const TOOLS: readonly ToolDef[] = [
  inspectTool,
  inferTool,
  lintTool,
  checkTool,
  previewTool,
  explainIssueTool,
  schemaTool,
  normalizeTool,
];

/** The tools that send data to the platform or read its imports: only with --allow-submit. */
export const SUBMIT_TOOLS: readonly ToolDef[] = [submitTool, statusTool];
