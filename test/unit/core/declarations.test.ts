import assert from 'node:assert/strict';
import { countPrompt } from '../../../src/core/count';
import { parsePrompt } from '../../../src/core/prompt/parse';
import { getTokenizer } from '../../../src/core/tokenize/registry';

// Field names as each format's own tool reads them:
// - `.prompt.yml`: github/gh-models pkg/prompt/prompt.go (`responseFormat`: text | json_object | json_schema;
//   `jsonSchema`: a JSON string holding `name` and `schema`, sent as `response_format.json_schema`).
// - Prompty: microsoft/prompty Prompty.yaml (`model.parameters.response_format` an object, `model.parameters.tools`
//   a list of objects, both sent with the request as written).
const o200k = getTokenizer('o200k_base');

const WEATHER_SCHEMA = {
  name: 'weather',
  schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

function promptYaml(lines: string[]): string {
  return [
    'model: openai/gpt-4o',
    'messages:',
    '  - role: user',
    '    content: Weather in {{city}}?',
    ...lines,
    '',
  ].join('\n');
}

const TOOL = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Get the weather.',
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string', description: 'The city.' },
        unit: { type: 'string', enum: ['c', 'f'] },
      },
      required: ['city'],
    },
  },
};

function prompty(model: string, parameters: Record<string, unknown>): string {
  return [
    '---',
    'model:',
    '  api: chat',
    `  configuration: { type: openai, name: ${model} }`,
    `  parameters: ${JSON.stringify(parameters)}`,
    '---',
    'user:',
    'What is the weather in Paris?',
    '',
  ].join('\n');
}

describe('declared response formats and tools (.prompt.yml, Prompty)', () => {
  describe('.prompt.yml (GitHub Models)', () => {
    it('responseFormat json_schema with jsonSchema as JSON text becomes the response_format the request sends', () => {
      const text = promptYaml(['responseFormat: json_schema', `jsonSchema: '${JSON.stringify(WEATHER_SCHEMA)}'`]);
      const parsed = parsePrompt('w.prompt.yml', text);
      assert.deepEqual(parsed.errors, []);
      assert.deepEqual(parsed.settings.request, {
        responseFormat: { type: 'json_schema', json_schema: WEATHER_SCHEMA },
      });
      const count = countPrompt(parsed, o200k);
      assert.equal(count.declaredTokens, o200k.count(JSON.stringify(WEATHER_SCHEMA)));
      const plain = countPrompt(parsePrompt('w.prompt.yml', promptYaml([])), o200k);
      assert.equal(count.inputTokens, plain.inputTokens + o200k.count(JSON.stringify(WEATHER_SCHEMA)));
      assert.equal(count.exact, false);
      assert.match((count.approximations ?? []).join('\n'), /response_format counted as its JSON schema text/);
    });

    it('a jsonSchema written out as YAML reads the same as its JSON text', () => {
      const yaml = ['responseFormat: json_schema', 'jsonSchema:', '  name: weather', '  schema:', '    type: object'];
      const parsed = parsePrompt('w.prompt.yml', promptYaml(yaml));
      assert.deepEqual(parsed.settings.request, {
        responseFormat: { type: 'json_schema', json_schema: { name: 'weather', schema: { type: 'object' } } },
      });
    });

    it('responseFormat json_object is declared, adds nothing, and says why the count is approximate', () => {
      const parsed = parsePrompt('w.prompt.yml', promptYaml(['responseFormat: json_object']));
      assert.deepEqual(parsed.settings.request, { responseFormat: { type: 'json_object' } });
      const count = countPrompt(parsed, o200k);
      assert.equal(count.declaredTokens, 0);
      assert.match((count.approximations ?? []).join('\n'), /json_object: no published rule/);
    });

    it('responseFormat text declares nothing (the default)', () => {
      const parsed = parsePrompt('w.prompt.yml', promptYaml(['responseFormat: text']));
      assert.equal(parsed.settings.request, undefined);
      assert.equal(countPrompt(parsed, o200k).exact, true);
    });

    it('a jsonSchema that is not JSON, or lacks name/schema, is a warning on jsonSchema and is not counted', () => {
      for (const [schema, message] of [
        ["'{not json'", /jsonSchema: not JSON/],
        [`'${JSON.stringify({ schema: { type: 'object' } })}'`, /needs a jsonSchema with a `name` and a `schema`/],
      ] as const) {
        const text = promptYaml(['responseFormat: json_schema', `jsonSchema: ${schema}`]);
        const parsed = parsePrompt('w.prompt.yml', text);
        assert.equal(parsed.settings.request, undefined);
        assert.equal(parsed.errors.length, 1);
        assert.match(parsed.errors[0]!.message, message);
        assert.equal(parsed.errors[0]!.severity, 'warning');
        assert.equal(text.slice(parsed.errors[0]!.range.start, parsed.errors[0]!.range.end), schema);
      }
    });

    it('an unknown responseFormat is a schema error naming the field', () => {
      const parsed = parsePrompt('w.prompt.yml', promptYaml(['responseFormat: yaml']));
      assert.ok(parsed.errors.some((e) => e.message.includes('responseFormat')));
    });
  });

  describe('Prompty (model.parameters)', () => {
    it('tools and response_format are the request declarations, counted as the same chat JSON request is', () => {
      const format = { type: 'json_object' };
      const parsed = parsePrompt('w.prompty', prompty('gpt-4o', { tools: [TOOL], response_format: format }));
      assert.deepEqual(parsed.errors, []);
      assert.deepEqual(parsed.settings.request, { tools: [TOOL], responseFormat: format });
      const asJson = parsePrompt(
        'w.json',
        JSON.stringify({
          messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
          tools: [TOOL],
          response_format: format,
        }),
      );
      const a = countPrompt(parsed, o200k);
      const b = countPrompt(asJson, o200k, undefined, 'gpt-4o');
      assert.ok((a.declaredTokens ?? 0) > 0);
      assert.equal(a.declaredTokens, b.declaredTokens);
      assert.equal(a.inputTokens, b.inputTokens);
    });

    it('tools within the cookbook rule on a model it was checked on are exact', () => {
      const count = countPrompt(parsePrompt('w.prompty', prompty('gpt-4o', { tools: [TOOL] })), o200k);
      assert.ok((count.declaredTokens ?? 0) > 0);
      assert.equal(count.exact, true, (count.approximations ?? []).join('; '));
    });

    it('a tool that is not a function tool is named in a warning and left out', () => {
      const parsed = parsePrompt('w.prompty', prompty('gpt-4o', { tools: [{ type: 'code_interpreter' }, TOOL] }));
      assert.deepEqual(parsed.settings.request, { tools: [TOOL] });
      assert.equal(parsed.errors.length, 1);
      assert.match(
        parsed.errors[0]!.message,
        /model\.parameters\.tools\[0\]: a "code_interpreter" tool is not a function tool/,
      );
    });
  });

  describe('≈ where no published rule covers the declaration', () => {
    it('a model the cookbook rule was not checked on', () => {
      const count = countPrompt(parsePrompt('w.prompty', prompty('gpt-4.1', { tools: [TOOL] })), o200k);
      assert.equal(count.exact, false);
      assert.match(
        (count.approximations ?? []).join('\n'),
        /checked on gpt-4o, gpt-4o-mini, gpt-4 and gpt-3\.5-turbo only \(not gpt-4\.1\)/,
      );
    });

    it('schema keywords the rule does not read (items, minimum, nested parameters keys)', () => {
      const tool = structuredClone(TOOL);
      Object.assign(tool.function.parameters.properties, {
        days: { type: 'array', items: { type: 'integer' }, minimum: 1 },
      });
      Object.assign(tool.function.parameters, { $defs: {} });
      const count = countPrompt(parsePrompt('w.prompty', prompty('gpt-4o', { tools: [tool] })), o200k);
      assert.equal(count.exact, false);
      const why = (count.approximations ?? []).join('\n');
      assert.match(why, /does not count get_weather: \$defs; get_weather\.days: items, minimum/);
    });

    it('a tokenizer with no published tool rule counts the tools as their JSON text', () => {
      const claude = getTokenizer('claude');
      const count = countPrompt(parsePrompt('w.prompty', prompty('claude-sonnet-4', { tools: [TOOL] })), claude);
      assert.equal(count.declaredTokens, claude.count(JSON.stringify([TOOL])));
      assert.match(
        (count.approximations ?? []).join('\n'),
        /tools counted as their JSON text: no published rule for claude/,
      );
    });
  });
});
