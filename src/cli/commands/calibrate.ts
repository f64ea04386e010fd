import { parseArgs } from 'node:util';
import { z } from 'zod';
import { benchMessages, messageTokenCounter } from '../../core/bench';
import { MIN_R2, r2Text, type TtftFit } from '../../core/calibrate/fit';
import { measureCalibration } from '../../core/calibrate/measure';
import { DEFAULT_FRACTIONS } from '../../core/calibrate/prefixes';
import { buildCalibrationFile, calibrationFileText, type CalibrationFile } from '../../core/calibrate/profileFile';
import { parseTargetId, resolveTarget, targetModelId, targetTokenizer } from '../../core/estimate';
import { formatMs } from '../../core/format';
import { parsePrompt } from '../../core/prompt/parse';
import { tokenizerFor } from '../../core/tokenize/models';
import { DEFAULT_TOKENIZER, getTokenizer } from '../../core/tokenize/registry';
import { ENDPOINT_OPTIONS, ENDPOINT_USAGE, resolveApiKey, resolveEndpoint } from '../endpointFlags';
import { describeFsError, EXIT, UsageError, type CliIo } from '../io';
import { MAX_FILE_OPTION, MAX_FILE_USAGE, maxFileBytesFlag, readWholePrompt } from '../promptInput';
import { loadCliTables } from '../tables';
import { flag, intFlag } from './flags';

export const CALIBRATE_USAGE =
  `prompt-lens calibrate FILE ${ENDPOINT_USAGE} [--target ID [--table FILE]] [--lengths 0.25,0.5,1] [--requests N] [--check OTHER_FILE] ` +
  `[--max-tokens M] [--timeout-ms T] [--api-key-env NAME] --out PROFILE.json [--json] ${MAX_FILE_USAGE}`;

const OPTIONS = {
  ...ENDPOINT_OPTIONS,
  target: { type: 'string' },
  table: { type: 'string', multiple: true },
  lengths: { type: 'string', default: DEFAULT_FRACTIONS.join(',') },
  requests: { type: 'string', default: '5' },
  'max-tokens': { type: 'string', default: '16' },
  'timeout-ms': { type: 'string', default: '60000' },
  check: { type: 'string' },
  out: { type: 'string' },
  json: { type: 'boolean', default: false },
  ...MAX_FILE_OPTION,
} as const;

const fractionList = z
  .string()
  .transform((s) => s.split(',').map((p) => Number(p.trim())))
  .refine((list) => list.every((f) => Number.isFinite(f) && f > 0 && f <= 1), {
    error: 'must be a comma-separated list of shares of the prompt, each in (0, 1], e.g. 0.25,0.5,1',
  })
  .refine((list) => new Set(list).size >= 2, { error: 'needs at least two different lengths to fit a line' })
  .transform((list) => [...new Set(list)].sort((a, b) => a - b));

/**
 * Measures cold TTFT at shares of the prompt against an endpoint, fits the latency profile and
 * writes it (the editor's *Import Calibration…* reads the same file). Exit 1 when too few requests
 * succeeded or the fit explains too little (R² below MIN_R2): then nothing is written.
 */
export async function calibrateCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  if (positionals.length !== 1) throw new UsageError(`give exactly one prompt file; usage: ${CALIBRATE_USAGE}`);
  if (values.out === undefined) throw new UsageError(`--out PROFILE.json is required; usage: ${CALIBRATE_USAGE}`);
  const file = positionals[0]!;
  const out = values.out;
  const fractions = flag('lengths', values.lengths, fractionList);
  const requests = flag('requests', values.requests, intFlag(1, 1000));
  const maxTokens = flag('max-tokens', values['max-tokens'], intFlag(2, 100_000));
  const timeoutMs = flag('timeout-ms', values['timeout-ms'], intFlag(1, 24 * 3600 * 1000));

  const endpoint = await resolveEndpoint(values, io, CALIBRATE_USAGE);
  const apiKey = resolveApiKey(values['api-key-env'], io.env);
  const targetId = values.target ?? endpoint.target;
  // The local count uses the target's tokenizer, as the estimates the profile replaces do; without a
  // target, the tokenizer of the model the endpoint serves.
  const target =
    targetId === undefined
      ? undefined
      : resolveTarget(parseTargetId(targetId), await loadCliTables(values.table ?? [], io));
  const localTokenizer = target ? targetTokenizer(target) : tokenizerFor(endpoint.model);
  const localModel = target ? targetModelId(target) : endpoint.model;

  const readMessages = async (path: string) => {
    const read = benchMessages(
      parsePrompt(path, await readWholePrompt(io, path, maxFileBytesFlag(values['max-file-bytes']))),
    );
    if (!read.ok) throw new UsageError(`${path}: ${read.error}`);
    if (read.notSent) io.err(`prompt-lens calibrate: ${path}: ${read.notSent}\n`);
    return read.messages;
  };
  const messages = await readMessages(file);
  const check = values.check === undefined ? undefined : await readMessages(values.check);

  const output = getTokenizer(DEFAULT_TOKENIZER);
  const stop = new AbortController();
  const onInterrupt = () => stop.abort();
  process.once('SIGINT', onInterrupt);
  let measurement;
  try {
    let last = 0;
    measurement = await measureCalibration({
      endpoint,
      ...(apiKey ? { apiKey } : {}),
      messages,
      fractions,
      ...(check ? { check } : {}),
      requests,
      maxTokens,
      timeoutMs,
      countLocal: (messages) => messageTokenCounter(messages)(localTokenizer, localModel),
      countTokens: (t) => output.count(t),
      signal: stop.signal,
      ...(io.now ? { now: io.now } : {}),
      onProgress: (p) => {
        const t = performance.now();
        if (p.done < p.total && t - last < 500) return;
        last = t;
        const ttft = p.lastTtftMs !== undefined ? `, last TTFT ${formatMs(p.lastTtftMs)}` : '';
        io.err(`calibrate: ${p.done}/${p.total} requests${ttft}\n`);
      },
    });
  } finally {
    process.removeListener('SIGINT', onInterrupt);
  }
  if (measurement.cancelled) {
    io.err('prompt-lens calibrate: cancelled; nothing written\n');
    return EXIT.findings;
  }
  const built = buildCalibrationFile({
    endpoint: { name: endpoint.name, kind: endpoint.kind, baseUrl: endpoint.baseUrl, model: endpoint.model },
    ...(target ? { target: target.id } : {}),
    localTokenizer,
    lengths: measurement.lengths,
    tpotMs: measurement.tpotMs,
    date: new Date().toISOString().slice(0, 10),
    ...(measurement.check && values.check !== undefined
      ? { check: { ...measurement.check, prompt: values.check } }
      : {}),
  });
  if (!built.ok) {
    const why = measurement.errors.length > 0 ? ` (${measurement.errors.join('; ')})` : '';
    io.err(`prompt-lens calibrate: calibration of ${endpoint.name} failed: ${built.error}${why}\n`);
    return EXIT.findings;
  }
  const poor = built.file.fit.r2 < MIN_R2;
  if (!poor) {
    try {
      await io.writeFile(out, calibrationFileText(built.file));
    } catch (error) {
      throw new UsageError(`cannot write ${out}: ${describeFsError(error)}`);
    }
  }
  io.out(values.json ? calibrationFileText(built.file) : report(built.file, built.fit, poor ? undefined : out));
  if (poor)
    io.err(
      `prompt-lens calibrate: the fit explains too little of the measured TTFT (R² ${built.file.fit.r2.toFixed(3)} at the medians < ${MIN_R2}); ${out} not written\n`,
    );
  return poor ? EXIT.findings : EXIT.ok;
}

function report(file: CalibrationFile, fit: TtftFit, written: string | undefined): string {
  const { tokens, profile } = file;
  const n = tokens.basis === 'usage' ? "the endpoint's prompt tokens (usage)" : `local ${tokens.localTokenizer} tokens`;
  const terms = [
    `${fit.a.toFixed(1)} ms`,
    `${fit.b.toFixed(4)} ms·n`,
    ...(fit.c !== undefined ? [`${fit.c.toExponential(3)} ms·n²`] : []),
  ];
  const lines = [
    `Calibrated ${file.endpoint.name} (${file.endpoint.baseUrl}, model ${file.endpoint.model})${file.target ? ` for ${file.target}` : ''}`,
    `TTFT ≈ ${terms.join(' + ')}   (${fit.model}; a ${fit.a.toFixed(2)}, b ${fit.b.toFixed(5)}${fit.c !== undefined ? `, c ${fit.c.toExponential(3)}` : ''}; ${r2Text(fit)}, RMSE ${formatMs(fit.rmseMs)})`,
    `  n = ${n}`,
    `TPOT ${formatMs(profile.tpotMs)} (median of ${file.tpotSamples})`,
    '',
    '  share   local tok   n tok   ok/sent   median TTFT   p10–p90 TTFT      fit        residual',
    ...file.lengths.map(
      (l, i) =>
        `  ${pad(`${Math.round(l.fraction * 100)}%`, 6)}  ${pad(String(l.localTokens), 9)}   ${pad(String(l.tokens), 5)}   ${pad(`${l.requests - l.failed}/${l.requests}`, 7)}   ${pad(formatMs(l.medianTtftMs), 11)}   ${pad(spread(fit.residuals[i]!), 15)}   ${pad(formatMs(l.fitTtftMs), 9)}  ${signed(l.residualMs)} ms (${signed((l.residualMs / l.fitTtftMs) * 100)}%)`,
    ),
  ];
  if (tokens.basis === 'usage')
    lines.push(
      '',
      `Token map: endpoint tokens ≈ ${tokens.tokenMap.intercept.toFixed(1)} + ${tokens.tokenMap.perLocalToken.toFixed(4)} × local ${tokens.localTokenizer} tokens`,
    );
  if (file.check) {
    const c = file.check;
    const error = (predicted: number) =>
      c.medianTtftMs === null ? '' : ` (${signed((predicted / c.medianTtftMs - 1) * 100)}%)`;
    lines.push(
      '',
      `Check, ${c.prompt} (not fitted): ${c.requests - c.failed}/${c.requests} ok, median cold TTFT ${c.medianTtftMs === null ? 'not measured' : formatMs(c.medianTtftMs)} at ${c.tokens} tokens`,
      `  predicted ${formatMs(c.predictedTtftMs)}${error(c.predictedTtftMs)} from its ${tokens.basis === 'usage' ? 'reported' : 'counted'} tokens` +
        (tokens.basis === 'usage'
          ? `, ${formatMs(c.predictedFromLocalMs)}${error(c.predictedFromLocalMs)} from its local count (${c.localTokens} → ${c.mappedTokens} tokens)`
          : ''),
    );
  }
  lines.push('', written ? `Wrote ${written}` : 'Not written.');
  return `${lines.join('\n')}\n`;
}

const pad = (s: string, width: number) => s.padStart(width);
/** "340–666 ms", "0.9 s–1.3 s": the middle 80 % of a length's TTFTs. */
function spread(r: TtftFit['residuals'][number]): string {
  const [low, high] = [formatMs(r.p10Ms), formatMs(r.p90Ms)];
  const [value, unit] = low.split(' ');
  return unit === high.split(' ')[1] ? `${value}–${high}` : `${low}–${high}`;
}
const signed = (v: number) => `${v >= 0 ? '+' : ''}${v.toFixed(1)}`;
