// `npm run bench`: runs every bench/*.bench.ts and then `npm run bench:editor` (the real-VS Code hover
// probe), or only those named on the command line (`npm run bench -- client`; `editor` names the
// probe). Benchmarks print numbers; they assert nothing (tests assert behaviour). package.json loads
// test/unit/setup/vocabularies.mjs first, so the tokenizer registry reads the compact vocabularies the bundle
// ships, as in the unit tests (Mistral's vocabulary is not an export of its package: a plain require fails).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
    .sort();
  for (const file of files) {
    console.log(`\n## ${file.replace(/\.bench\.ts$/, '')}\n`);
    const mod = (await import(join(__dirname, file))) as { run: () => Promise<void> };
    await mod.run();
  }
  // Here, not chained in package.json: npm appends `-- names` to a script's last command only, so
  // `npm run bench -- client` ran every bench, then the editor probe.
  if (only.length === 0 || only.includes('editor')) {
    console.log('\n## editor\n');
    const editor = spawnSync('npm', ['run', 'bench:editor'], { stdio: 'inherit' });
    if (editor.status !== 0) process.exitCode = editor.status ?? 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
