import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { JSON_SCHEMA_FILES, jsonSchemaOf, jsonSchemaText, type JsonSchemaName } from '../../../src/core/jsonSchemas';
import { BUILTIN_SOURCES, loadTables } from '../../../src/core/estimate/tables';
import { loadEndpointsFile } from '../../../src/core/bench/endpoints';

const root = join(__dirname, '../../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const manifest = JSON.parse(read('package.json')) as {
  contributes: { jsonValidation: Array<{ fileMatch: string[]; url: string }> };
};
const names = Object.keys(JSON_SCHEMA_FILES) as JsonSchemaName[];
const validator = (name: JsonSchemaName) =>
  new Ajv({ allErrors: true, strict: false, validateFormats: false }).compile(jsonSchemaOf(name));

describe('JSON schemas of the hand-edited files (generated from the zod schemas)', () => {
  for (const name of names) {
    it(`${JSON_SCHEMA_FILES[name].file} is what \`npm run schemas\` writes today`, () => {
      assert.equal(read(JSON_SCHEMA_FILES[name].file), jsonSchemaText(name), 'run `npm run schemas`');
    });

    it(`package.json contributes ${JSON_SCHEMA_FILES[name].file} through jsonValidation`, () => {
      assert.ok(manifest.contributes.jsonValidation.some((v) => v.url === `./${JSON_SCHEMA_FILES[name].file}`));
    });
  }

  it('the built-in tables are valid tables files', () => {
    const valid = validator('tables');
    for (const source of BUILTIN_SOURCES)
      assert.ok(valid(source.data), `${source.name}: ${JSON.stringify(valid.errors)}`);
  });

  it('a misspelt key, a wrong type and a missing field in a tables file are errors', () => {
    const valid = validator('tables');
    const row = (BUILTIN_SOURCES.find((s) => s.name.includes('models'))?.data as { models: Record<string, unknown>[] })
      .models[0];
    assert.ok(row);
    const { contextWindow, ...withoutWindow } = row;
    assert.ok(!valid({ models: [{ ...withoutWindow, contextWindw: contextWindow }] }));
    const messages = (valid.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
    assert.ok(messages.includes('/models/0 must NOT have additional properties'), messages.join('\n'));
    assert.ok(messages.includes("/models/0 must have required property 'contextWindow'"), messages.join('\n'));
    assert.ok(!valid({ models: [{ ...row, contextWindow: '128k' }] }));
    assert.ok(!valid({ model: [] }), 'an unknown list name');
    assert.ok(valid({ $schema: './tables.schema.json', models: [row] }));
    const { problems } = loadTables([{ name: 'mine', data: { $schema: './tables.schema.json', models: [row] } }]);
    assert.deepEqual(problems, [], 'the loader accepts what the schema allows');
  });

  it('the example endpoints file is valid in both shapes the CLI reads, and agrees with the loader', () => {
    const valid = validator('endpoints');
    const list = JSON.parse(read('examples/endpoints.json')) as unknown[];
    assert.ok(valid(list), JSON.stringify(valid.errors));
    assert.ok(valid({ endpoints: list }), JSON.stringify(valid.errors));
    assert.ok(loadEndpointsFile(JSON.stringify({ endpoints: list }), 'x').ok);
    const bad = [{ name: 'a', baseUrl: 'http://127.0.0.1:1/v1', model: 'm', kind: 'openai' }];
    assert.ok(!valid(bad));
    assert.ok(!loadEndpointsFile(JSON.stringify(bad), 'x').ok);
    assert.ok(!valid([{ name: 'a', baseUrl: 'http://127.0.0.1:1/v1', model: 'm', header: {} }]), 'misspelt headers');
    assert.ok(!valid([{ name: 'a', model: 'm' }]), 'baseUrl missing');
  });
});
