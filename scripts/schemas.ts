// Writes schemas/*.schema.json from the zod schemas (src/core/jsonSchemas.ts); contributed to VS Code
// through package.json `contributes.jsonValidation` and documented in docs/json-schemas.md. Also writes
// package.json `contributes.languageModelTools` from the agent tools' definitions and zod inputs, and their
// display names and descriptions into package.nls.json (`languageModelTool.<name>.*` keys).
import { readFileSync, writeFileSync } from 'node:fs';
import { languageModelToolContributions, languageModelToolNls } from '../src/core/agentTools/definitions';
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

const nls = JSON.parse(readFileSync('package.nls.json', 'utf8')) as Record<string, string>;
const kept = Object.entries(nls).filter(([key]) => !key.startsWith('languageModelTool.'));
writeFileSync(
  'package.nls.json',
  `${JSON.stringify(Object.fromEntries([...kept, ...Object.entries(languageModelToolNls())]), null, 2)}\n`,
);
console.log('wrote package.nls.json languageModelTool.* entries');
