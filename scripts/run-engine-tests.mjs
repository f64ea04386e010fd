// Runs the engine suites (test/engine) in a scheduling group of their own with a raised weight.
//
// They time a CPU inference engine and check the timings against each other (prefix reuse,
// calibration within 10 %). On a shared machine other people's processes would otherwise decide
// those timings: Linux gives each session's autogroup an equal share of the CPU, so a
// session competing with ten others gets a tenth whatever its own nice value. Started as a session
// of its own (detached), mocha and the engine it starts form one autogroup; nice −19 on that group
// gives them about 70 times the weight of any other group, without starving it (plain CFS, not a
// real-time class). Where that is not permitted (not root) the suites run at normal priority and
// say so. CI's machine is otherwise idle, so there it changes little.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const AUTOGROUP_NICE = -19;
const child = spawn(
  process.execPath,
  ['node_modules/mocha/bin/mocha.js', '--config', 'test/engine/.mocharc.json', ...process.argv.slice(2)],
  { stdio: 'inherit', detached: true },
);
try {
  writeFileSync(`/proc/${child.pid}/autogroup`, String(AUTOGROUP_NICE));
  console.error(`engine tests: own scheduling group at nice ${AUTOGROUP_NICE}`);
} catch (error) {
  console.error(`engine tests: at normal priority (${error.code ?? error.message}): timings follow the machine's load`);
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
