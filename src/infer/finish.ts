import { inSchemaOrder, validateConfig } from '../validate/index.js';
import { newFacts } from './restated.js';
import type { Draft } from './types.js';

/**
 * Every draft's last step: its document in canonical key order (the order `fmt` writes, so
 * a draft is canonical as written, YAML or JSON), validated, with the validation issues
 * appended to what inference reported, leaving out those that restate an inference issue
 * (one fact, one message).
 */
export function finishDraft(raw: Draft): Draft {
  const document = inSchemaOrder(raw.document);
  const result = validateConfig(document);
  return { ...raw, document, issues: [...raw.issues, ...newFacts(raw.issues, result.issues)] };
}
