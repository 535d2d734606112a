/**
 * Writes the JSON Schemas generated from the zod model to schemas/ (`npm run schemas`).
 * A test regenerates them in memory and fails when the committed files differ.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  generateSchemas,
  SCHEMA_FILES,
  type SchemaName,
  schemaText,
} from '../src/validate/schemas.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'schemas');
mkdirSync(dir, { recursive: true });
const schemas = generateSchemas();
for (const name of Object.keys(SCHEMA_FILES) as SchemaName[]) {
  const file = join(dir, SCHEMA_FILES[name]);
  writeFileSync(file, schemaText(schemas[name]));
  console.log(`wrote schemas/${SCHEMA_FILES[name]}`);
}
