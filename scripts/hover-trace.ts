// Where the hovers of `npm run bench:editor` wait (#19 goal 3). Reads a traced probe run
// (`PROMPT_LENS_PROBE_TRACE=1 node scripts/hover-probe.mjs`, optionally PROMPT_LENS_PROBE_FILES=a,b) and prints, for
// each prompt's first hovers and, pooled, for every hover of at least THRESHOLD ms before the prompt settled: how long
// the request took to reach the extension host (the probe's own hover provider is called with ours), and what the
// extension host's thread (this extension, VS Code, other extensions, idle) and the workbench's renderer thread did
// meanwhile, from CPU profiles of both on the same monotonic clock.
//   npx tsx scripts/hover-trace.ts [RUN_DIR] [THRESHOLD_MS]
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { busyBetween, type Profile } from '../test/integration/hostProfile';

interface Sample {
  atMs: number;
  ms: number;
  kind: string;
  calledAtMs?: number;
}

const runs = process.argv[2] ?? join(__dirname, '../.vscode-host/runs/hover-probe');
const threshold = Number(process.argv[3] ?? 50);
const FIRST_HOVERS = 4;

const fmt = (busy: Record<string, number>) =>
  Object.entries(busy)
    .filter(([, ms]) => ms >= 1)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, ms]) => `${kind} ${Math.round(ms)}`)
    .join(', ');
const add = (into: Record<string, number>, from: Record<string, number>) => {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
};

interface Pool {
  n: number;
  ms: number;
  host: [Record<string, number>, Record<string, number>];
  renderer: [Record<string, number>, Record<string, number>];
}
const pools: Record<string, Pool> = {};

for (const session of readdirSync(runs).filter((d) => d.startsWith('session-'))) {
  const dir = join(runs, session);
  if (!existsSync(join(dir, 'host-profile.json')) || !existsSync(join(dir, 'renderer-profile.json'))) continue;
  const result = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8'));
  const traced = JSON.parse(readFileSync(join(dir, 'host-profile.json'), 'utf8')) as {
    extensionPath: string;
    profile: Profile;
  };
  const renderer = JSON.parse(readFileSync(join(dir, 'renderer-profile.json'), 'utf8')) as Profile;
  const hostOwners = [
    (url: string) => (url.includes(traced.extensionPath) ? 'ours' : undefined),
    (url: string) => (url.includes('hover-probe') ? 'probe' : undefined),
    (url: string) => /\/extensions\/([^/]+)\//.exec(url)?.[1]?.replace(/^/, 'ext:'),
    (url: string) => (url.startsWith('node:') ? undefined : 'vscode'),
  ];
  const rendererOwners = [() => 'js'];
  const at = (ms: number) => result.t0Us + ms * 1000;
  const windows = (s: Sample) => {
    const reached = s.calledAtMs ?? s.atMs + s.ms;
    return [
      [at(s.atMs), at(reached)],
      [at(reached), at(s.atMs + s.ms)],
    ] as const;
  };
  console.log(
    `\n${result.file}: opened at ${Math.round(result.openedAtMs)} ms, shown at ${Math.round(result.shownAtMs)} ms, figures at ${Math.round(result.firstFiguresAtMs)} ms, settled at ${Math.round(result.settledAtMs)} ms`,
  );
  const samples: Sample[] = [...result.early, ...result.pending];
  for (const s of samples.slice(0, FIRST_HOVERS)) {
    const [before, after] = windows(s);
    console.log(
      `  hover at ${Math.round(s.atMs)} ms took ${Math.round(s.ms)} ms (${s.kind}): reached the host after ${Math.round((s.calledAtMs ?? s.atMs + s.ms) - s.atMs)} ms`,
    );
    console.log(`    until then  host: ${fmt(busyBetween(traced.profile, ...before, hostOwners))}`);
    console.log(`                renderer: ${fmt(busyBetween(renderer, ...before, rendererOwners))}`);
    console.log(`    afterwards  host: ${fmt(busyBetween(traced.profile, ...after, hostOwners))}`);
    console.log(`                renderer: ${fmt(busyBetween(renderer, ...after, rendererOwners))}`);
  }
  for (const s of samples.filter((x) => x.ms >= threshold)) {
    const pool = (pools[s.atMs < 3000 ? 'first 3 s' : 'after 3 s until settled'] ??= {
      n: 0,
      ms: 0,
      host: [{}, {}],
      renderer: [{}, {}],
    });
    pool.n++;
    pool.ms += s.ms;
    windows(s).forEach((w, i) => {
      add(pool.host[i]!, busyBetween(traced.profile, ...w, hostOwners));
      add(pool.renderer[i]!, busyBetween(renderer, ...w, rendererOwners));
    });
  }
}
for (const [phase, pool] of Object.entries(pools)) {
  console.log(
    `\n${phase}: ${pool.n} hovers of ≥ ${threshold} ms, ${Math.round(pool.ms)} ms together (ms of each thread)`,
  );
  console.log(`  until the request reached the host  host: ${fmt(pool.host[0])}`);
  console.log(`                                      renderer: ${fmt(pool.renderer[0])}`);
  console.log(`  from there until answered           host: ${fmt(pool.host[1])}`);
  console.log(`                                      renderer: ${fmt(pool.renderer[1])}`);
}
