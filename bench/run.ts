// `npm run bench`: runs every bench/*.bench.ts and then `npm run bench:editor` (the real-VS Code hover
// probe), or only those named on the command line (`npm run bench -- client`; `editor` names the
// probe). Benchmarks print numbers; they assert nothing (tests assert behaviour). package.json loads
// test/unit/setup/vocabularies.mjs first, so the tokenizer registry reads the compact vocabularies the bundle
// ships, as in the unit tests (Mistral's vocabulary is not an export of its package: a plain require fails).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

function main(): void {
  const only = process.argv.slice(2);
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
    .sort();
  const failed: string[] = [];
  for (const file of files) {
    const name = file.replace(/\.bench\.ts$/, '');
    console.log(`\n## ${name}\n`);
    // Each bench in a fresh process, with this one's flags (tsx's loader, the vocabularies): one bench's heap
    // and collector must not be in the next one's figures (the workspace bench's host thread stands for the
    // extension host, which holds no benchmark garbage; after the tokenize benches in the same process its
    // longest block was 84.9 ms, alone 24–37 ms).
    const child = spawnSync(process.execPath, [...process.execArgv, join(__dirname, 'runOne.ts'), file], {
      stdio: 'inherit',
    });
    if (child.status !== 0) failed.push(name);
  }
  // Here, not chained in package.json: npm appends `-- names` to a script's last command only, so
  // `npm run bench -- client` ran every bench, then the editor probe.
  if (only.length === 0 || only.includes('editor')) {
    console.log('\n## editor\n');
    const editor = spawnSync('npm', ['run', 'bench:editor'], { stdio: 'inherit' });
    if (editor.status !== 0) failed.push('editor');
  }
  if (failed.length > 0) {
    console.error(`\nfailed: ${failed.join(', ')}`);
    process.exitCode = 1;
  }
}

main();
