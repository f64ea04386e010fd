// `npm run bench`: runs every bench/*.bench.ts (or those named on the command line) and prints figures.
// Benchmarks print numbers; they assert nothing (tests assert behaviour).
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
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
