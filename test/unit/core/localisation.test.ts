import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Localisation of the manifest (#25 item 4): every user-visible string of package.json is a %key%
 * placeholder that package.nls.json resolves, and package.nls.json holds no key nothing uses.
 */
const root = join(__dirname, '../../..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, unknown>;

type Json = Record<string, unknown>;
const asObjects = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

/** [where, value] of every string VS Code shows to users, by the manifest's schema. */
function userVisibleStrings(m: Json): Array<[string, unknown]> {
  const found: Array<[string, unknown]> = [
    ['displayName', m.displayName],
    ['description', m.description],
  ];
  const capabilities = (m.capabilities ?? {}) as Record<string, Json>;
  for (const [name, capability] of Object.entries(capabilities))
    if ('description' in capability) found.push([`capabilities.${name}.description`, capability.description]);
  const c = m.contributes as Json;
  for (const command of asObjects(c.commands)) {
    found.push([`${String(command.command)}.title`, command.title]);
    if ('category' in command) found.push([`${String(command.command)}.category`, command.category]);
  }
  const configurations = Array.isArray(c.configuration) ? (c.configuration as Json[]) : [c.configuration as Json];
  for (const configuration of configurations) {
    found.push(['configuration.title', configuration.title]);
    for (const [key, property] of Object.entries(configuration.properties as Record<string, Json>)) {
      for (const field of ['description', 'markdownDescription', 'deprecationMessage', 'markdownDeprecationMessage'])
        if (field in property) found.push([`${key}.${field}`, property[field]]);
      for (const field of ['enumDescriptions', 'markdownEnumDescriptions'])
        for (const [i, text] of ((property[field] ?? []) as unknown[]).entries())
          found.push([`${key}.${field}[${i}]`, text]);
    }
  }
  for (const walkthrough of asObjects(c.walkthroughs)) {
    found.push([`walkthrough ${String(walkthrough.id)}.title`, walkthrough.title]);
    found.push([`walkthrough ${String(walkthrough.id)}.description`, walkthrough.description]);
    for (const step of asObjects(walkthrough.steps)) {
      found.push([`step ${String(step.id)}.title`, step.title]);
      found.push([`step ${String(step.id)}.description`, step.description]);
      const media = step.media as Json;
      if ('altText' in media) found.push([`step ${String(step.id)}.altText`, media.altText]);
    }
  }
  for (const tool of asObjects(c.languageModelTools)) {
    found.push([`languageModelTool ${String(tool.name)}.displayName`, tool.displayName]);
    found.push([`languageModelTool ${String(tool.name)}.userDescription`, tool.userDescription]);
  }
  for (const group of Object.values((c.viewsContainers ?? {}) as Record<string, Json[]>))
    for (const container of group) found.push([`viewsContainer ${String(container.id)}.title`, container.title]);
  for (const group of Object.values((c.views ?? {}) as Record<string, Json[]>))
    for (const view of group) found.push([`view ${String(view.id)}.name`, view.name]);
  return found;
}

describe('manifest: localisation (package.nls.json)', () => {
  const strings = userVisibleStrings(manifest);

  it('no contributed title or description is a literal: each is a %key% that package.nls.json resolves', () => {
    assert.ok(strings.length > 80, `only ${strings.length} strings found: the walk missed the contributions`);
    for (const [where, value] of strings) {
      assert.equal(typeof value, 'string', `${where}: missing`);
      const key = /^%([^%\s]+)%$/.exec(value as string)?.[1];
      assert.ok(key, `${where} is a literal: ${JSON.stringify(value)}`);
      assert.equal(typeof nls[key], 'string', `${where}: %${key}% is not in package.nls.json`);
      assert.ok((nls[key] as string).trim().length > 0, `${where}: %${key}% is empty`);
    }
  });

  it('package.nls.json has no key that the manifest does not use', () => {
    const used = new Set(strings.map(([, value]) => /^%(.+)%$/.exec(value as string)?.[1]));
    assert.deepEqual(
      Object.keys(nls).filter((k) => !used.has(k)),
      [],
    );
  });

  it('finds a literal title and a literal tool name (the check can fail)', () => {
    const tampered = structuredClone(manifest) as Json;
    asObjects((tampered.contributes as Json).commands)[0]!.title = 'Open an Example Prompt';
    asObjects((tampered.contributes as Json).languageModelTools)[0]!.displayName = 'Prompt latency and cost';
    const literal = userVisibleStrings(tampered).filter(([, v]) => !/^%[^%\s]+%$/.test(v as string));
    assert.deepEqual(
      literal.map(([where]) => where),
      ['promptLens.openExamplePrompt.title', 'languageModelTool promptLens_analyzePrompt.displayName'],
    );
  });
});
