/**
 * Writes the JSON Schemas generated from the zod model to schemas/, and the document
 * validator compiled from them to src/validate/ (`npm run schemas`; run `npm run build`
 * after it). A test regenerates both in memory and fails when the committed files differ.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSchemas } from '../src/model/json-schema.js';
import { SCHEMA_FILES, type SchemaName, schemaText } from '../src/model/schema-files.js';
import { VALIDATOR_FILE, validatorText } from '../src/validate/standalone.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = join(root, 'schemas');
mkdirSync(dir, { recursive: true });
const schemas = generateSchemas();
for (const name of Object.keys(SCHEMA_FILES) as SchemaName[]) {
  const file = join(dir, SCHEMA_FILES[name]);
  writeFileSync(file, schemaText(schemas[name]));
  console.log(`wrote schemas/${SCHEMA_FILES[name]}`);
}
writeFileSync(join(root, VALIDATOR_FILE), validatorText(schemas.document));
console.log(`wrote ${VALIDATOR_FILE}`);
