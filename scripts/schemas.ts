// Writes schemas/*.schema.json from the zod schemas (src/core/jsonSchemas.ts); contributed to VS Code
// through package.json `contributes.jsonValidation` and documented in docs/json-schemas.md.
import { writeFileSync } from 'node:fs';
import { JSON_SCHEMA_FILES, jsonSchemaText, type JsonSchemaName } from '../src/core/jsonSchemas';

for (const name of Object.keys(JSON_SCHEMA_FILES) as JsonSchemaName[]) {
  writeFileSync(JSON_SCHEMA_FILES[name].file, jsonSchemaText(name));
  console.log(`wrote ${JSON_SCHEMA_FILES[name].file}`);
}
