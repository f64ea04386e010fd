// Imported before built-CLI runs by builtCli.ts: writes the process's CPU time (ms) to the file named
// by PROMPT_LENS_TEST_CPU_FILE at exit, so tests bound the work a run does, not the machine's load.
import { writeFileSync } from 'node:fs';
const file = process.env.PROMPT_LENS_TEST_CPU_FILE;
if (file)
  process.on('exit', () => {
    const used = process.cpuUsage();
    writeFileSync(file, String((used.user + used.system) / 1000));
  });
