import { validateConfig } from '../validate/index.js';
import { newFacts } from './restated.js';
import type { Draft } from './types.js';

/**
 * Validates a draft's document and appends the validation issues to what inference reported,
 * leaving out those that restate an inference issue (one fact, one message).
 */
export function finishDraft(raw: Draft): Draft {
  const result = validateConfig(raw.document);
  return { ...raw, issues: [...raw.issues, ...newFacts(raw.issues, result.issues)] };
}
