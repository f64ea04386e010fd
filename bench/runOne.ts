// Runs one bench/*.bench.ts in this process (bench/run.ts starts a fresh process for each).
import { join } from 'node:path';

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file?.endsWith('.bench.ts')) throw new Error(`usage: runOne.ts NAME.bench.ts (got ${file ?? 'nothing'})`);
  const mod = (await import(join(__dirname, file))) as { run: () => Promise<void> };
  await mod.run();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
