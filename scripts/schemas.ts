// Writes schemas/*.schema.json from the zod schemas (src/core/jsonSchemas.ts); contributed to VS Code
// through package.json `contributes.jsonValidation` and documented in docs/json-schemas.md. Also writes
// package.json `contributes.languageModelTools` from the agent tools' definitions and zod inputs.
import { readFileSync, writeFileSync } from 'node:fs';
import { languageModelToolContributions } from '../src/core/agentTools/definitions';
import { JSON_SCHEMA_FILES, jsonSchemaText, type JsonSchemaName } from '../src/core/jsonSchemas';

for (const name of Object.keys(JSON_SCHEMA_FILES) as JsonSchemaName[]) {
  writeFileSync(JSON_SCHEMA_FILES[name].file, jsonSchemaText(name));
  console.log(`wrote ${JSON_SCHEMA_FILES[name].file}`);
}

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { contributes: Record<string, unknown> };
manifest.contributes.languageModelTools = languageModelToolContributions();
// Prettier formats package.json as JSON.stringify does.
writeFileSync('package.json', `${JSON.stringify(manifest, null, 2)}\n`);
console.log('wrote package.json contributes.languageModelTools');
