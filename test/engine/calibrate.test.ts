import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { processIo, runCli } from '../../src/cli/main';
import type { BenchResult } from '../../src/core/bench/result';
import { MIN_R2 } from '../../src/core/calibrate/fit';
import { promptTokenCounter } from '../../src/core/count';
import { parsePrompt } from '../../src/core/prompt/parse';
import { parseCalibrationFile, type CalibrationFile } from '../../src/core/calibrate/profileFile';
import {
  estimate,
  loadTables,
  parseTargetId,
  resolveTarget,
  targetModelId,
  targetTokenizerId,
} from '../../src/core/estimate';
import { Calibrations } from '../../src/extension/bench/calibrations';
import { sharedEngine } from './shared';
import type { LlamaEngine } from './llamaEngine';

/** Runs the CLI in this process against the real file system; returns its exit code and output. */
async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = { stdout: '', stderr: '' };
  const code = await runCli(args, {
    ...processIo(),
    out: (t) => void (out.stdout += t),
    err: (t) => void (out.stderr += t),
  });
  return { code, ...out };
}

/** Deterministic prose: `sentences` sentences from a small word list, as a retrieved document would read. */
function prose(sentences: number, seed: number): string {
  const words =
    'the river model latency token cache prompt engine server request budget context answer user system document quickly slowly measured every first second'.split(
      ' ',
    );
  let x = seed;
  const next = () => ((x = (x * 1103515245 + 12345) % 2147483648), x / 2147483648);
  return Array.from({ length: sentences }, () => {
    const s = Array.from({ length: 6 + Math.floor(next() * 8) }, () => words[Math.floor(next() * words.length)]!).join(
      ' ',
    );
    return `${s[0]!.toUpperCase()}${s.slice(1)}.`;
  }).join(' ');
}

/** A support prompt: a short system message and a question over a retrieved document of `sentences` sentences. */
const promptFile = (sentences: number) =>
  `system:\nYou answer questions about the document below. Be brief.\nuser:\n<document>\n${prose(sentences, 7)}\n</document>\nWhat does the document say about latency?\n`;

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Requests per length in the first calibration of the test (see its comment for why this many). */
const REQUESTS = 20;

/**
 * How a profile's check misses the goal, if it does: the prediction from the engine's tokens within
 * 10 % of the measured median, and from the local count within 10 % plus the token map's own error
 * (idle machine: −8.2 % from the engine's tokens, −10.2 % from the local count mapped 2.3 % short).
 */
function goalMisses(profile: CalibrationFile): string[] {
  const check = profile.check!;
  const measured = check.medianTtftMs!;
  const error = (predicted: number) => predicted / measured - 1;
  const mapError = Math.abs(check.mappedTokens / check.tokens - 1);
  const misses: string[] = [];
  if (Math.abs(error(check.predictedTtftMs)) > 0.1)
    misses.push(`predicted ${check.predictedTtftMs.toFixed(1)} ms, measured median ${measured.toFixed(1)} ms`);
  if (Math.abs(error(check.predictedFromLocalMs)) > 0.1 + mapError)
    misses.push(
      `predicted ${check.predictedFromLocalMs.toFixed(1)} ms from the local count (map ${(mapError * 100).toFixed(1)} % off), measured median ${measured.toFixed(1)} ms`,
    );
  return misses;
}

describe('calibration against the real engine', () => {
  let engine: LlamaEngine;
  let dir: string;
  let profile: CalibrationFile;
  const TARGET = 'llama-3.1-8b@h100-sxm';
  before(async () => {
    engine = await sharedEngine();
    dir = mkdtempSync(join(tmpdir(), 'prompt-lens-calibrate-'));
    // ≈ 500 and ≈ 1,000 of the engine's (byte) tokens.
    writeFileSync(join(dir, 'one.prompt'), promptFile(5));
    writeFileSync(join(dir, 'two.prompt'), promptFile(12));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * One `calibrate` run with the check prompt and `requests` a length; asserts what must hold of
   * every run and returns its profile, or why calibrate refused to write one when its fit explained
   * too little of the medians (R² < 0.8).
   */
  async function calibrateOnce(
    requests: number,
  ): Promise<{ profile: CalibrationFile; stdout: string } | { refused: string }> {
    const out = join(dir, 'profile.json');
    const r = await cli([
      'calibrate',
      join(dir, 'one.prompt'),
      '--base-url',
      engine.baseUrl,
      '--model',
      engine.model,
      '--target',
      TARGET,
      '--requests',
      String(requests),
      '--check',
      join(dir, 'two.prompt'),
      '--out',
      out,
    ]);
    const refused = /the fit explains too little[^\n]*/.exec(r.stderr)?.[0];
    if (r.code === 1 && refused) return { refused };
    assert.equal(r.code, 0, r.stderr);
    const loaded = parseCalibrationFile(readFileSync(out, 'utf8'), out);
    assert.ok(loaded.ok, JSON.stringify(loaded));
    const p = loaded.value;
    assert.equal(p.tokens.basis, 'usage', "the engine reports usage, so the fit is in the engine's tokens");
    assert.equal(p.target, 'llama-3.1-8b@h100-sxm:bf16+vllm', 'the resolved id, naming the default engine');
    assert.equal(p.tokens.localTokenizer, 'llama3');
    assert.deepEqual(
      p.lengths.map((l) => [l.fraction, l.requests, l.failed]),
      [
        [0.25, requests, 0],
        [0.5, requests, 0],
        [1, requests, 0],
      ],
    );
    const bytes = Buffer.byteLength(readFileSync(join(dir, 'one.prompt'), 'utf8'));
    assert.ok(Math.abs(p.lengths[2]!.tokens - bytes) < 40, `${p.lengths[2]!.tokens} tokens for ${bytes} bytes`);
    assert.ok(p.fit.r2 >= MIN_R2, `R² ${p.fit.r2}`);
    assert.ok(p.profile.msPerInputToken > 0 && p.profile.tpotMs > 0);
    // The printed fit and one residual row per length, as written.
    assert.match(r.stdout, new RegExp(`R² ${p.fit.r2.toFixed(3)}`));
    assert.match(r.stdout, new RegExp(`a ${p.fit.a.toFixed(2)}, b ${p.fit.b.toFixed(5)}`));
    for (const l of p.lengths)
      assert.match(
        r.stdout,
        new RegExp(`${Math.round(l.fraction * 100)}%\\s+${l.localTokens}\\s+${l.tokens}\\s+${requests}/${requests}`),
      );
    assert.match(r.stdout, /n = the endpoint's prompt tokens \(usage\)/);
    const check = p.check!;
    assert.equal(check.failed, 0);
    assert.ok(
      check.tokens > 1.8 * p.lengths[2]!.tokens,
      `${check.tokens} tokens is about twice ${p.lengths[2]!.tokens}`,
    );
    // The engine counts bytes, the local tokenizer (llama3) words: the map is a line fitted on the
    // calibration prompt's prefixes, so another text may land a few percent off it.
    assert.ok(
      Math.abs(check.mappedTokens / check.tokens - 1) < 0.05,
      `${check.mappedTokens} mapped vs ${check.tokens} reported`,
    );
    return { profile: p, stdout: r.stdout };
  }

  it('calibrate fits cold TTFT over the lengths, prints the fit and residuals, writes the profile, and predicts a prompt twice as long within 10%', async () => {
    // The goal: calibrated on one prompt, the cold TTFT of a prompt twice as long. It is measured in
    // the same rounds as the calibration lengths (a change of load falls on both) and never fitted.
    // One TTFT on this CPU engine varies by ±10–15 % from request to request on a quiet shared
    // 2-core machine, and far more on a host stealing CPU (87–281 ms at one length at 23 % steal),
    // and extrapolating to twice the longest length magnifies the noise of the fitted medians about
    // 2.7×: with 9 requests a length, an unchanged engine and client missed 10 % in 1 of 6 runs
    // (−16.8 % once in CI; a block bootstrap over 50 measured rounds put it at 17–20 %). 20 requests
    // a length bring that to about 5–12 % on a quiet host; a second calibration, run only when the
    // first misses, has twice the requests and must then hold the goal itself: a prediction that is
    // really off misses twice. A refusal gets the same one second chance.
    const first = await calibrateOnce(REQUESTS);
    const firstMisses = 'refused' in first ? [first.refused] : goalMisses(first.profile);
    let run = first;
    if (firstMisses.length > 0) {
      process.stderr.write(`      (first calibration missed: ${firstMisses.join('; ')}; calibrating once more)\n`);
      run = await calibrateOnce(2 * REQUESTS);
    }
    assert.ok(!('refused' in run), 'refused' in run ? run.refused : '');
    const misses = goalMisses(run.profile);
    profile = run.profile;
    const check = profile.check!;
    const measured = check.medianTtftMs!;
    const error = (predicted: number) => predicted / measured - 1;
    process.stderr.write(
      `      (${profile.fit.model} fit a ${profile.fit.a.toFixed(1)} ms, b ${profile.fit.b.toFixed(4)} ms/token, R² ${profile.fit.r2.toFixed(3)} at the medians, ${profile.fit.r2Requests?.toFixed(3)} over requests; residuals ${profile.lengths.map((l) => `${l.residualMs.toFixed(1)} ms (p10–p90 ${l.p10TtftMs?.toFixed(0)}–${l.p90TtftMs?.toFixed(0)})`).join(', ')}; ` +
        `2× prompt, ${check.tokens} tokens: measured median ${measured.toFixed(1)} ms, predicted ${check.predictedTtftMs.toFixed(1)} ms (${(error(check.predictedTtftMs) * 100).toFixed(1)}%) from its tokens, ` +
        `${check.predictedFromLocalMs.toFixed(1)} ms (${(error(check.predictedFromLocalMs) * 100).toFixed(1)}%) from its llama3 count via the map (${check.mappedTokens} tokens))\n`,
    );
    assert.deepEqual(misses, []);
  });

  it("estimate --calibration predicts what calibrate reported, from the file's local count and from --tokens in the endpoint's tokens", async () => {
    assert.ok(profile?.check, 'needs the profile of the test before');
    const two = join(dir, 'two.prompt');
    const fromFile = await cli(['estimate', two, '--calibration', join(dir, 'profile.json'), '--json']);
    assert.equal(fromFile.code, 0, fromFile.stderr);
    const file = JSON.parse(fromFile.stdout) as {
      coldTtftMs: { p50: number };
      inputTokens: number;
      calibrated: boolean;
    };
    assert.equal(file.calibrated, true);
    assert.equal(file.inputTokens, profile.check.mappedTokens);
    assert.ok(Math.abs(file.coldTtftMs.p50 - profile.check.predictedFromLocalMs) < 1e-6);
    const fromTokens = await cli([
      'estimate',
      '--tokens',
      String(profile.check.tokens),
      '--calibration',
      join(dir, 'profile.json'),
      '--json',
    ]);
    assert.equal(fromTokens.code, 0, fromTokens.stderr);
    assert.ok(
      Math.abs(
        (JSON.parse(fromTokens.stdout) as { coldTtftMs: { p50: number } }).coldTtftMs.p50 -
          profile.check.predictedTtftMs,
      ) < 1e-6,
    );

    // A benchmark of that prompt sends what calibrate sent for it: the engine reports the same tokens.
    const bench = await cli([
      'bench',
      two,
      '--base-url',
      engine.baseUrl,
      '--model',
      engine.model,
      '--cache',
      'cold',
      '--concurrency',
      '1',
      '--requests',
      '5',
      '--max-tokens',
      '16',
      '--json',
    ]);
    assert.equal(bench.code, 0, bench.stderr);
    const requests = (JSON.parse(bench.stdout) as BenchResult).modes[0]!.levels[0]!.requests;
    assert.ok(
      requests.every((q) => q.ok && q.inputTokens === profile.check!.tokens && q.outputTokensSource === 'usage'),
    );
    process.stderr.write(
      `      (the same prompt benchmarked afterwards: median cold TTFT ${median(requests.map((q) => q.ttftMs!)).toFixed(1)} ms)\n`,
    );
  });

  it('bench measures the engine cold and warm at concurrency 1 and 2: usage on every request, the prefix cache really warm', async () => {
    const r = await cli([
      'bench',
      join(dir, 'one.prompt'),
      '--base-url',
      engine.baseUrl,
      '--model',
      engine.model,
      '--cache',
      'both',
      '--concurrency',
      '1,2',
      '--requests',
      '4',
      '--max-tokens',
      '8',
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const result = JSON.parse(r.stdout) as BenchResult;
    const requests = result.modes.flatMap((m) => m.levels.flatMap((l) => l.requests));
    assert.equal(requests.length, 16);
    for (const q of requests) {
      assert.ok(q.ok, JSON.stringify(q.error));
      assert.equal(q.outputTokens, 8);
      assert.equal(q.outputTokensSource, 'usage');
    }
    // Cold requests carry a nonce of their own; warm ones are the prompt as it is.
    const warmTokens = result.modes[1]!.levels[0]!.requests[0]!.inputTokens!;
    assert.ok(result.modes[0]!.levels[0]!.requests.every((q) => q.inputTokens! > warmTokens));
    const speedups = result.cacheSpeedup ?? [];
    process.stderr.write(
      `      (prefix-cache speedup: ${speedups.map((s) => `${s.label} ${s.speedup.toFixed(1)}×`).join(', ')})\n`,
    );
    assert.equal(speedups.length, 2);
    for (const s of speedups)
      assert.ok(s.speedup > 3, `${s.label}: cold ${s.coldTtftP50Ms} ms, warm ${s.warmTtftP50Ms} ms`);
  });

  it("round trip: the editor's store imports the CLI's profile and estimates what the CLI estimates", async () => {
    assert.ok(profile, 'needs the profile of the first test');
    const file = join(dir, 'two.prompt');
    const cliEstimate = await cli(['estimate', file, '--calibration', join(dir, 'profile.json'), '--json']);
    const fromCli = JSON.parse(cliEstimate.stdout) as {
      target: string;
      coldTtftMs: { p50: number };
      tpotMs: { p50: number };
    };
    assert.equal(fromCli.target, profile.target, 'the profile names its target, so the CLI estimates for it');

    // What Import Calibration… stores, and what the hover then computes: the target's own count (its
    // tokenizer and its model's chat template, as every surface counts since #22).
    const data = new Map<string, unknown>();
    const state = {
      keys: () => [...data.keys()],
      get: (k: string) => data.get(k),
      update: async (k: string, v: unknown) => void data.set(k, v),
    };
    const calibrations = new Calibrations(state as unknown as vscode.Memento);
    await calibrations.set(profile.target!, profile);
    const target = resolveTarget(parseTargetId(TARGET), loadTables().tables);
    const count = promptTokenCounter(parsePrompt(file, readFileSync(file, 'utf8')))(
      targetTokenizerId(target),
      targetModelId(target),
    );
    const inEditor = estimate(target, { inputTokens: count.tokens, calibration: calibrations.profile(target.id)! });
    assert.ok(
      Math.abs(inEditor.coldTtftMs.p50 - fromCli.coldTtftMs.p50) < 0.01 * fromCli.coldTtftMs.p50,
      `${inEditor.coldTtftMs.p50} vs ${fromCli.coldTtftMs.p50}`,
    );
    assert.equal(inEditor.tpotMs.p50, fromCli.tpotMs.p50);
  });
});
