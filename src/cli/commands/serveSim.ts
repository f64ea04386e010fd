import { parseArgs } from 'node:util';
import { parseTargetId, resolveTarget } from '../../core/estimate';
import { DEFAULT_LATENCY_PARAMS, linearLatencyModel, type SimLatencyModel } from '../../core/sim/latencyModel';
import { startSimulator } from '../../core/sim/server';
import { targetLatencyModel } from '../../core/sim/targetLatency';
import { EXIT, UsageError, type CliIo } from '../io';
import { loadCliTables } from '../tables';
import { flag, intFlag, numberFlag } from './flags';

export const SERVE_SIM_USAGE =
  'prompt-lens serve-sim [--port P] [--model NAME] [--target ID [--table FILE]] [--prefill-tokens-per-s N] [--prefill-base-ms MS] [--tpot-ms MS] [--output-tokens N]';

/** Serves the simulated endpoint on 127.0.0.1 until Ctrl-C. */
export async function serveSimCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      port: { type: 'string', default: '8765' },
      model: { type: 'string' },
      target: { type: 'string' },
      table: { type: 'string', multiple: true },
      'prefill-tokens-per-s': { type: 'string', default: String(DEFAULT_LATENCY_PARAMS.prefillTokensPerSecond) },
      'prefill-base-ms': { type: 'string', default: String(DEFAULT_LATENCY_PARAMS.prefillBaseMs) },
      'tpot-ms': { type: 'string', default: String(DEFAULT_LATENCY_PARAMS.tpotBaseMs) },
      'output-tokens': { type: 'string', default: '64' },
    },
    allowPositionals: false,
    strict: true,
  });
  if (positionals.length) throw new UsageError(`unexpected argument; usage: ${SERVE_SIM_USAGE}`);
  const latency: SimLatencyModel = values.target
    ? targetLatencyModel(resolveTarget(parseTargetId(values.target), await loadCliTables(values.table ?? [], io)))
    : linearLatencyModel({
        ...DEFAULT_LATENCY_PARAMS,
        prefillTokensPerSecond: flag('prefill-tokens-per-s', values['prefill-tokens-per-s'], numberFlag(0, 1e9)),
        prefillBaseMs: flag('prefill-base-ms', values['prefill-base-ms'], numberFlag(-1, 1e6)),
        tpotBaseMs: flag('tpot-ms', values['tpot-ms'], numberFlag(-1, 1e6)),
      });
  const port = flag('port', values.port, intFlag(0, 65535));
  const defaultMaxTokens = flag('output-tokens', values['output-tokens'], intFlag(1, 100_000));

  let sim;
  try {
    const model = values.model ?? values.target;
    sim = await startSimulator({
      port,
      ...(model ? { model } : {}),
      latency,
      defaultMaxTokens,
      log: (line) => io.out(`${line}\n`),
    });
  } catch (error) {
    throw new UsageError(
      `cannot listen on 127.0.0.1:${port}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  io.err(
    `Try: prompt-lens bench PROMPT_FILE --base-url ${sim.url} --model ${sim.model}   (Ctrl-C stops the simulator)\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await sim.close();
  return EXIT.ok;
}
