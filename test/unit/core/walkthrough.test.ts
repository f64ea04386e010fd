import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { localised as english, packaged, ROOT as root } from '../helpers/packaging';

/**
 * The Getting Started walkthrough (#25 item 2): the five steps, each with media that exists and
 * is packaged, and completion events on commands and settings that exist. Built-in commands are listed
 * here; the real-VS Code suite (marketplace) checks that the host knows them.
 */
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  contributes: {
    commands: Array<{ command: string }>;
    configuration: { properties: Record<string, unknown> };
    walkthroughs: Array<{
      id: string;
      steps: Array<{
        id: string;
        description: string;
        media: { image?: string; altText?: string; markdown?: string; svg?: string };
        completionEvents: string[];
      }>;
    }>;
  };
};

/** Built-in VS Code commands the walkthrough links to. */
const BUILT_IN_COMMANDS = ['workbench.actions.view.problems', 'workbench.action.openSettings'];

const localised = (value: string) => english(value) ?? assert.fail(`${value} is not in package.nls.json`);

/** Every `command:ID` link of a step's description (arguments after `?`). */
const commandLinks = (description: string) => [...description.matchAll(/\(command:([\w.]+)/g)].map((m) => m[1]!);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('manifest: the Getting Started walkthrough', () => {
  const [walkthrough] = manifest.contributes.walkthroughs;
  const contributed = new Set(manifest.contributes.commands.map((c) => c.command));
  const known = (command: string) => contributed.has(command) || BUILT_IN_COMMANDS.includes(command);

  it('has the issue’s steps in order: hover, target, findings, benchmark, compare', () => {
    assert.equal(manifest.contributes.walkthroughs.length, 1);
    assert.deepEqual(
      walkthrough!.steps.map((s) => s.id),
      ['hover', 'target', 'findings', 'benchmark', 'compare'],
    );
  });

  it('every step’s media exists and is packaged; images have alt text', () => {
    for (const step of walkthrough!.steps) {
      const { image, markdown, svg, altText } = step.media;
      const paths = [image, markdown, svg].filter((p): p is string => p !== undefined);
      assert.equal(paths.length, 1, `${step.id}: one medium`);
      for (const path of paths) {
        readFileSync(join(root, path)); // exists
        assert.ok(packaged(path), `${step.id}: ${path} is not in the VSIX (.vscodeignore)`);
      }
      if (image) assert.ok(localised(altText ?? assert.fail(`${step.id}: image without altText`)).length > 10);
    }
  });

  it('every step has a button to a command that exists, and completes on a command, setting or context that exists', () => {
    const sources = sourceFiles(join(root, 'src/extension')).map((f) => readFileSync(f, 'utf8'));
    for (const step of walkthrough!.steps) {
      const links = commandLinks(localised(step.description));
      assert.ok(links.length > 0, `${step.id}: no command button`);
      for (const command of links) assert.ok(known(command), `${step.id}: links to unknown command ${command}`);
      assert.ok(step.completionEvents.length > 0, `${step.id}: no completion event`);
      for (const event of step.completionEvents) {
        const [kind, name] = event.split(/:(.*)/s) as [string, string];
        if (kind === 'onCommand') assert.ok(known(name), `${step.id}: ${event} names an unknown command`);
        else if (kind === 'onSettingChanged')
          assert.ok(name in manifest.contributes.configuration.properties, `${step.id}: ${event}: no such setting`);
        else if (kind === 'onContext')
          assert.ok(
            sources.some((s) => s.includes(`'${name}'`) && /'setContext'/.test(s)),
            `${step.id}: ${event}: no module sets this context key`,
          );
        else assert.fail(`${step.id}: ${event}: not a command, setting or context event`);
      }
    }
  });

  it('the example prompt that Open an Example Prompt opens is packaged', () => {
    const source = readFileSync(join(root, 'src/extension/commands/example.ts'), 'utf8');
    const path = /EXAMPLE_PROMPT = '([^']+)'/.exec(source)?.[1] ?? assert.fail('EXAMPLE_PROMPT not found');
    readFileSync(join(root, path));
    assert.ok(packaged(path));
    assert.ok(contributed.has('promptLens.openExamplePrompt'));
  });
});
