import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { processIo, runCli } from '../../../src/cli/main';
import type { BenchResult } from '../../../src/core/bench/result';
import { parseCalibrationFile, type CalibrationFile } from '../../../src/core/calibrate/profileFile';
import { correctionFormula, correctTokens, fitCorrection } from '../../../src/core/calibrate/tokenCorrection';
import { formatCount, formatMs } from '../../../src/core/format';
import { linearLatencyModel } from '../../../src/core/sim/latencyModel';
import { startSimulator } from '../../../src/core/sim/server';
import { promptHash } from '../../../src/extension/bench/history';
import { headlineLevel, predictionErrorText } from '../../../src/webview/results/model';
import { RESULTS_STRINGS } from '../../../src/webview/results/strings';
import { lockstepClock } from '../../unit/helpers/lockstepClock';
import {
  cleanWorkbench,
  closeSimulatorEndpoint,
  extensionApi,
  hoverTexts,
  openPrompt,
  queryWebviews,
  screenshot,
  waitFor,
  workspaceFile,
} from '../helpers';

async function hoverFor(uri: vscode.Uri): Promise<string> {
  const texts = await hoverTexts(uri, new vscode.Position(1, 1));
  const hover = texts.find((t) => t.includes('Prompt Latency Lens'));
  assert.ok(hover, 'no hover');
  return hover;
}

/** The cold-TTFT cell of the first target row. */
function ttftCell(hover: string): string {
  const row = hover.split('\n').find((l) => l.startsWith('| llama-3.1-8b'));
  return row?.split('|')[2]?.trim() ?? '';
}

describe('benchmark this prompt', () => {
  let sim: Awaited<ReturnType<typeof startSimulator>>;
  const config = () => vscode.workspace.getConfiguration('promptLens');

  // Known delays: 30 ms prefill base + 20,000 prompt tokens/s, 5 ms per output token.
  const latency = linearLatencyModel({
    prefillBaseMs: 30,
    prefillTokensPerSecond: 20_000,
    tpotBaseMs: 5,
    tpotMsPer1kContext: 0,
    tpotMsPerExtraSequence: 0,
  });
  const simEndpoint = () => ({ name: 'sim', baseUrl: sim.url, model: sim.model, target: 'llama-3.1-8b@1xh100-sxm' });

  before(async () => {
    sim = await startSimulator({ port: 0, latency, defaultMaxTokens: 12 });
    await config().update('endpoints', [simEndpoint()], vscode.ConfigurationTarget.Workspace);
    await config().update('benchmark.requests', 6, vscode.ConfigurationTarget.Workspace);
    await config().update('benchmark.concurrency', [1, 2], vscode.ConfigurationTarget.Workspace);
    await config().update('benchmark.maxTokens', 12, vscode.ConfigurationTarget.Workspace);
  });

  after(() => closeSimulatorEndpoint(sim));

  it('runs against the local simulator, shows the results view and saves the run', async () => {
    await cleanWorkbench();
    const editor = await openPrompt('support.prompt');
    const result = await vscode.commands.executeCommand<BenchResult>(
      'promptLens.benchmarkPrompt',
      editor.document.uri,
      'sim',
    );
    assert.ok(result, 'no result');
    assert.equal(result.partial, false);
    assert.deepEqual(result.modes.map((m) => m.cache).sort(), ['cold', 'warm']);
    const cold = result.modes.find((m) => m.cache === 'cold')!;
    assert.deepEqual(
      cold.levels.map((l) => l.label),
      ['c=1', 'c=2'],
    );
    const level = cold.levels[0]!;
    assert.equal(level.summary.succeeded, 6);
    // The simulator's known delays bound what the client measures.
    assert.ok(level.summary.ttftMs!.p50 >= 30, `TTFT p50 ${level.summary.ttftMs!.p50}`);
    assert.ok(level.summary.tpotMs!.p50 >= 4.5, `TPOT p50 ${level.summary.tpotMs!.p50}`);
    assert.ok(result.prediction?.ttftMs !== undefined, 'the endpoint is mapped to a target, so a prediction is shown');

    const api = await extensionApi();
    const state = api.resultsState();
    assert.equal(state?.running, false);
    assert.equal(state?.result?.startedAt, result.startedAt);

    // The real DOM in Chromium: one table row per mode × level, numbers matching the run.
    const rows = await waitFor(
      'results table in the webview',
      async () => {
        const found = await queryWebviews('bench-rows', '[data-test=levels] tbody tr');
        return found.texts.length === 4 ? found : undefined;
      },
      20_000,
    );
    assert.equal(rows.scripted, false);
    const ttftCell = await queryWebviews('bench-ttft', '[data-test=ttft] .card-value');
    const p50 = Math.round(level.summary.ttftMs!.p50);
    assert.ok(ttftCell.texts[0]?.startsWith(`${p50} ms`), `card shows ${ttftCell.texts[0]}, run p50 ${p50}`);
    const predicted = await queryWebviews('bench-prediction', '[data-test=prediction] .card-value');
    const errorPct = headlineLevel(result)?.level.predictionErrorPct?.ttft;
    assert.ok(errorPct !== undefined, 'the run carries the prediction error');
    assert.equal(
      predicted.texts[0],
      predictionErrorText(errorPct, RESULTS_STRINGS),
      'the predicted-vs-measured card says which way the prediction missed, in words',
    );
    const charts = await queryWebviews('bench-charts', 'figure canvas');
    assert.ok(charts.texts.length >= 3, `expected three charts, found ${charts.texts.length}`);
    // The usage self-check: every request's billed prompt tokens against the local count of what it sent.
    const reported = result.modes.flatMap((m) => m.levels.flatMap((l) => l.requests.filter((r) => r.inputTokens)));
    assert.ok(result.usage, 'the simulator reports usage, so the run carries the self-check');
    assert.equal(result.usage.requests, reported.length);
    assert.equal(result.usage.billed, reported[0]!.inputTokens);
    const usageCard = await queryWebviews('bench-usage', '[data-test=usage] .card-detail');
    assert.ok(
      usageCard.texts[0]?.startsWith(`endpoint billed ${result.usage.billed}, local ${result.usage.local}`),
      `usage card: ${usageCard.texts[0]}`,
    );
    // Legends name each series (4 CDF curves: cold/warm × c=1/c=2) and show no empty "Value: --".
    const legends = await queryWebviews('bench-legends', '.u-legend .u-series');
    assert.ok(legends.texts.length >= 4 + 3 + 1, `legend entries: ${JSON.stringify(legends.texts)}`);
    assert.ok(
      legends.texts.every((t) => t.trim() !== '' && !t.includes('--') && !/^Value/.test(t.trim())),
      `legend entries: ${JSON.stringify(legends.texts)}`,
    );
    await screenshot('benchmark-results');
  });

  it('compares with the previous run of the same prompt', async () => {
    const editor = await openPrompt('support.prompt');
    await config().update('benchmark.cache', 'cold', vscode.ConfigurationTarget.Workspace);
    const result = await vscode.commands.executeCommand<BenchResult>(
      'promptLens.benchmarkPrompt',
      editor.document.uri,
      'sim',
    );
    assert.ok(result);
    const state = (await extensionApi()).resultsState();
    assert.ok(state?.previous, 'the earlier run was loaded from history');
    assert.notEqual(state.previous.startedAt, result.startedAt);
    const previous = await waitFor('previous-run card', async () => {
      const found = await queryWebviews('bench-previous', '[data-test=previous] .card-detail');
      return found.texts.length > 0 ? found : undefined;
    });
    assert.match(previous.texts[0]!, /TTFT p50/);
  });

  it('exports JSON and CSV of the shown run', async () => {
    const dir = workspaceFile('.').fsPath;
    const jsonPath = await vscode.commands.executeCommand<string>(
      'promptLens.exportBenchmark',
      'json',
      join(dir, 'run.json'),
    );
    const csvPath = await vscode.commands.executeCommand<string>(
      'promptLens.exportBenchmark',
      'csv',
      join(dir, 'run.csv'),
    );
    const exported = JSON.parse(readFileSync(jsonPath, 'utf8')) as BenchResult;
    assert.equal(exported.startedAt, (await extensionApi()).resultsState()?.result?.startedAt);
    const lines = readFileSync(csvPath, 'utf8').trim().split('\r\n');
    assert.equal(lines.length - 1, exported.modes.flatMap((m) => m.levels.flatMap((l) => l.requests)).length);
  });

  it('puts an imported vLLM result beside the built-in run, and imports it alone with its verdict', async () => {
    const dir = workspaceFile('.').fsPath;
    const builtIn = (await extensionApi()).resultsState()?.result;
    assert.ok(builtIn && !builtIn.source, 'the built-in run of the tests above is shown');
    // What `vllm bench serve --save-result --save-detailed` writes for one level (times in seconds).
    const vllmPath = join(dir, 'vllm-results.json');
    writeFileSync(
      vllmPath,
      JSON.stringify({
        date: '20261201-120000',
        backend: 'openai-chat',
        model_id: sim.model,
        prompt_lens_cache: 'cold',
        max_concurrency: 2,
        request_rate: 'inf',
        duration: 1.5,
        completed: 6,
        failed: 0,
        request_throughput: 4,
        ttfts: [0.04, 0.05, 0.06, 0.05, 0.07, 0.9],
        itls: Array.from({ length: 6 }, () => Array.from({ length: 11 }, () => 0.006)),
        latencies: [0.106, 0.116, 0.126, 0.116, 0.136, 0.966],
        output_lens: [12, 12, 12, 12, 12, 12],
        errors: ['', '', '', '', '', ''],
      }),
    );
    const compared = await vscode.commands.executeCommand<BenchResult>('promptLens.compareBenchmarkWith', [vllmPath]);
    assert.equal(compared?.source?.tool, 'vllm');
    const state = (await extensionApi()).resultsState();
    assert.equal(state?.result?.startedAt, builtIn.startedAt, 'the built-in run stays A');
    assert.equal(state?.compare?.source?.tool, 'vllm');
    const row = await waitFor('side-by-side table', async () => {
      const found = await queryWebviews('bench-compare', '[data-test=comparison] tbody tr');
      return found.texts.length > 0 ? found : undefined;
    });
    // Only c=2 was measured by both; the cell shows A → B with the difference.
    assert.equal(row.texts.length, 1);
    assert.match(row.texts[0]!, /cold\s*c=2/);
    assert.match(row.texts[0]!, /→ 55 ms \([+-]\d+%\)/);
    await screenshot('imported-beside-built-in');

    const prompt = workspaceFile('support.prompt');
    const imported = await vscode.commands.executeCommand<BenchResult>(
      'promptLens.importBenchmarkResults',
      [vllmPath],
      prompt,
    );
    assert.equal(imported?.source?.tool, 'vllm');
    // Kept in the benchmark history of the prompt it measured, beside that prompt's own runs.
    const history = join(
      (await extensionApi()).historyRoot(),
      'history',
      promptHash((await vscode.workspace.openTextDocument(prompt)).getText()),
    );
    const kept = readdirSync(history)
      .map((f) => JSON.parse(readFileSync(join(history, f), 'utf8')) as { prompt: string; result: BenchResult })
      .filter((e) => e.result.source);
    assert.deepEqual(
      kept.map((e) => [e.prompt, e.result.source?.tool, e.result.startedAt]),
      [['support.prompt', 'vllm', imported.startedAt]],
    );
    const alone = (await extensionApi()).resultsState();
    assert.equal(alone?.compare, undefined);
    const source = await waitFor('imported source line', async () => {
      const found = await queryWebviews('bench-source', '[data-test=source]');
      return found.texts.length > 0 ? found : undefined;
    });
    assert.match(source.texts[0]!, /Imported from vllm \(vllm-results\.json\)/);
    // One of six requests missed TTFT ≤ 500 ms: 83% < 90%, so the verdict fails, as the CLI's would.
    const verdictCard = await queryWebviews('bench-verdict', '[data-test=verdict] .card-value');
    assert.equal(verdictCard.texts[0], 'FAIL');

    writeFileSync(join(dir, 'broken.json'), '{"model_id": 1}');
    const refused = await vscode.commands.executeCommand<BenchResult | undefined>('promptLens.importBenchmarkResults', [
      join(dir, 'broken.json'),
    ]);
    assert.equal(refused, undefined);
    assert.equal((await extensionApi()).resultsState()?.result?.source?.tool, 'vllm', 'a bad file changes nothing');
  });

  it('stops on cancel and keeps the partial result, marked partial', async () => {
    await config().update('benchmark.requests', 200, vscode.ConfigurationTarget.Workspace);
    await config().update('benchmark.concurrency', [1], vscode.ConfigurationTarget.Workspace);
    const editor = await openPrompt('support.prompt');
    const run = vscode.commands.executeCommand<BenchResult>('promptLens.benchmarkPrompt', editor.document.uri, 'sim');
    // Cancel once a request has finished (the live progress says so), not after a guessed delay.
    await waitFor(
      'a finished request',
      async () => {
        const done = /(\d+)\/200/.exec((await extensionApi()).resultsState()?.progress ?? '');
        return done && Number(done[1]) > 0 ? true : undefined;
      },
      30_000,
    );
    // The view got the whole state once ('starting'), then deltas: its progress line moves with the run.
    await waitFor(
      'live progress in the webview',
      async () => {
        const found = await queryWebviews('bench-live', '[data-test=progress]');
        const done = /(\d+)\/200/.exec(found.texts[0] ?? '');
        return done && Number(done[1]) > 0 ? true : undefined;
      },
      30_000,
    );
    await vscode.commands.executeCommand('promptLens.cancelBenchmark');
    const result = await run;
    assert.equal(result.partial, true);
    assert.equal(result.partialReason, 'cancelled');
    const done = result.modes.flatMap((m) => m.levels.flatMap((l) => l.requests)).length;
    assert.ok(done > 0 && done < 200, `kept ${done} finished requests`);
    const badge = await waitFor('partial badge', async () => {
      const found = await queryWebviews('bench-partial', '[data-test=partial]');
      return found.texts.length > 0 ? found : undefined;
    });
    assert.match(badge.texts[0]!, /Partial result/);
  });

  let calibrated: CalibrationFile | undefined;
  it('calibration fits TTFT against prompt length and the hover then uses the measured profile', async () => {
    await config().update('targets', ['llama-3.1-8b@1xh100-sxm'], vscode.ConfigurationTarget.Workspace);
    const editor = await openPrompt('findings/rag-oversized.prompt');
    const before = await hoverFor(editor.document.uri);
    assert.ok(!before.includes('calibrated'), before);
    // The same simulator on virtual time, shared with the extension's calibration: every TTFT it measures is
    // the latency model's exactly, whatever the machine's load.
    const clock = lockstepClock();
    const timed = await startSimulator({ port: 0, latency, defaultMaxTokens: 12, clock: clock.sim });
    const api = await extensionApi();
    let measured: CalibrationFile | undefined;
    try {
      await config().update(
        'endpoints',
        [simEndpoint(), { ...simEndpoint(), name: 'sim-clock', baseUrl: timed.url }],
        vscode.ConfigurationTarget.Workspace,
      );
      api.useCalibrationClock(clock.now);
      measured = await vscode.commands.executeCommand<CalibrationFile | undefined>(
        'promptLens.calibrateEndpoint',
        editor.document.uri,
        'sim-clock',
      );
    } finally {
      api.useCalibrationClock(undefined);
      await timed.close();
      await config().update('endpoints', [simEndpoint()], vscode.ConfigurationTarget.Workspace);
    }
    const calibration = measured;
    assert.ok(calibration, 'calibration saved');
    assert.ok(clock.readings > 0, 'the calibration read the shared clock');
    assert.equal(calibration.tokens.basis, 'usage', 'the simulator reports usage');
    // In the simulator's own tokens the fit is the model's: 30 ms + 0.05 ms per token, R² 1.
    assert.ok(Math.abs(calibration.fit.b - 0.05) < 1e-9, `fit slope ${calibration.fit.b}`);
    assert.ok(Math.abs(calibration.fit.a - 30) < 1e-6, `fit intercept ${calibration.fit.a}`);
    assert.ok(calibration.fit.r2 > 0.999999, `R² ${calibration.fit.r2}`);
    // The simulator prefills 20,000 tokens/s: 0.05 ms per token.
    assert.ok(
      Math.abs(calibration.profile.msPerInputToken - 0.05) < 0.02,
      `slope ${calibration.profile.msPerInputToken}`,
    );
    const after = await waitFor('hover with the calibrated profile', async () => {
      const h = await hoverFor(editor.document.uri);
      return h.includes(`calibrated (${calibration.profile.date})`) ? h : undefined;
    });
    assert.notEqual(ttftCell(after), ttftCell(before), 'the TTFT shown changed');
    calibrated = calibration;
  });

  it('Export Calibration… writes the stored profile; Import Calibration… reads a CLI profile and the hover shows what the CLI estimates', async () => {
    assert.ok(calibrated?.target, 'needs the calibration of the test before');
    const dir = mkdtempSync(join(tmpdir(), 'prompt-lens-calibration-'));
    const exported = await vscode.commands.executeCommand<string | undefined>(
      'promptLens.exportCalibration',
      calibrated.target,
      vscode.Uri.file(join(dir, 'exported.json')),
    );
    assert.equal(exported, join(dir, 'exported.json'));
    const written = parseCalibrationFile(readFileSync(exported, 'utf8'), exported);
    assert.deepEqual(written, { ok: true, value: calibrated });

    // A profile as `prompt-lens calibrate` writes it, three times slower per token.
    const slower = {
      ...calibrated,
      profile: { ...calibrated.profile, msPerInputToken: calibrated.profile.msPerInputToken * 3 },
      fit: { ...calibrated.fit, b: calibrated.fit.b * 3 },
    };
    const path = join(dir, 'slower.json');
    writeFileSync(path, JSON.stringify(slower));
    const imported = await vscode.commands.executeCommand<CalibrationFile | undefined>(
      'promptLens.importCalibration',
      vscode.Uri.file(path),
    );
    assert.deepEqual(imported, slower);
    const prompt = workspaceFile('findings/rag-oversized.prompt').fsPath;
    const out = { text: '' };
    const code = await runCli(['estimate', prompt, '--calibration', path, '--concurrency', String(8), '--json'], {
      ...processIo(),
      out: (t) => void (out.text += t),
      err: () => undefined,
    });
    assert.equal(code, 0);
    const cli = (JSON.parse(out.text) as { coldTtftMs: { p50: number } }).coldTtftMs.p50;
    // The CLI maps the file's count to whole endpoint tokens, the editor applies the map to the
    // profile's terms: the same TTFT up to that rounding.
    // The cell is rounded for display ("3.5 s" is 3,450–3,550 ms): allow half its last digit on top.
    const close = (h: string) => {
      const m = /^([\d.]+) (ms|s)/.exec(ttftCell(h));
      if (!m) return false;
      const unit = m[2] === 's' ? 1000 : 1;
      const halfStep = (unit * 10 ** -(m[1].split('.')[1]?.length ?? 0)) / 2;
      return Math.abs(Number(m[1]) * unit - cli) <= Math.max(1, cli * 0.01) + halfStep;
    };
    let last = '';
    const hover = await waitFor(`hover showing the CLI's ${formatMs(cli)}`, async () => {
      last = await hoverFor(vscode.Uri.file(prompt));
      return close(last) ? last : undefined;
    }).catch((error: Error) => assert.fail(`${error.message}; the CLI printed\n${out.text}\nthe hover:\n${last}`));
    assert.match(hover, new RegExp(`calibrated \\(${slower.profile.date}\\)`));
    // Not a profile: refused with the field named, and the stored one stays.
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...slower, fit: { ...slower.fit, r2: 'high' } }));
    assert.equal(await vscode.commands.executeCommand('promptLens.importCalibration', vscode.Uri.file(bad)), undefined);
    const otherTokenizer = join(dir, 'other.json');
    writeFileSync(
      otherTokenizer,
      JSON.stringify({ ...slower, tokens: { ...slower.tokens, localTokenizer: 'o200k_base' } }),
    );
    assert.equal(
      await vscode.commands.executeCommand('promptLens.importCalibration', vscode.Uri.file(otherTokenizer)),
      undefined,
    );
    assert.deepEqual(
      await vscode.commands.executeCommand(
        'promptLens.exportCalibration',
        calibrated.target,
        vscode.Uri.file(join(dir, 'again.json')),
      ),
      join(dir, 'again.json'),
    );
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'again.json'), 'utf8')), slower);
    rmSync(dir, { recursive: true, force: true });
    await config().update('targets', undefined, vscode.ConfigurationTarget.Workspace);
  });

  it('writes one history file per run (the partial one too) and per imported result in workspace storage', async () => {
    const root = join((await extensionApi()).historyRoot(), 'history');
    assert.ok(existsSync(root), `no history at ${root}`);
    const files = readdirSync(root).flatMap((hash) => readdirSync(join(root, hash)).map((f) => join(root, hash, f)));
    const entries = files.map(
      (f) => JSON.parse(readFileSync(f, 'utf8')) as { schemaVersion: number; result: BenchResult },
    );
    assert.ok(entries.every((e) => e.schemaVersion === 1));
    // Three runs and the imported vLLM result.
    const runs = entries.filter((e) => !e.result.source);
    assert.equal(runs.length, 3);
    assert.deepEqual(
      entries.filter((e) => e.result.source).map((e) => e.result.source?.tool),
      ['vllm'],
    );
    assert.equal(runs.filter((e) => e.result.partial).length, 1);
    // Each saved run keeps its usage self-check, so history shows whether counts matched the bill.
    for (const e of runs) assert.ok(e.result.usage && e.result.usage.requests > 0, 'history entry without usage');
  });

  it("corrects an approximate target's count from the benchmark's billed usage: hover and status bar tooltip say so", async function () {
    // A new primary target re-scans the workspace in the analysis worker before the hover's count (slow under load).
    this.timeout(240_000);
    // Claude has no public tokenizer (≈ o200k × 1.2); the simulator bills its own count of what it was sent.
    const target = 'anthropic/claude-sonnet-4.6';
    // A short run (the cancel test left 200 requests): 6 cold and 6 warm requests at concurrency 1.
    await config().update('benchmark.requests', 6, vscode.ConfigurationTarget.Workspace);
    await config().update('benchmark.concurrency', [1], vscode.ConfigurationTarget.Workspace);
    await config().update('benchmark.cache', 'both', vscode.ConfigurationTarget.Workspace);
    await config().update('targets', [target], vscode.ConfigurationTarget.Workspace);
    await config().update(
      'endpoints',
      [{ name: 'sim-claude', baseUrl: sim.url, model: sim.model, target }],
      vscode.ConfigurationTarget.Workspace,
    );
    try {
      const editor = await openPrompt('support.prompt');
      const before = await hoverFor(editor.document.uri);
      assert.ok(!before.includes('corrected from'), before);
      const result = await vscode.commands.executeCommand<BenchResult>(
        'promptLens.benchmarkPrompt',
        editor.document.uri,
        'sim-claude',
      );
      assert.ok(result?.usage?.samples, 'the run keeps its (local, billed) pairs');
      assert.equal(result.usage.exact, false);
      assert.equal(result.usage.tokenizer, 'claude');
      // The correction the run's pairs give (the first for this endpoint and target: nothing stored before).
      const fit = fitCorrection(result.usage.samples);
      assert.ok(fit, 'a correction fits');
      const requests = result.usage.requests;
      assert.equal(fit.requests, requests);

      let last = '';
      const hover = await waitFor(
        'the corrected count in the hover',
        async () => {
          last = await hoverFor(editor.document.uri);
          return last.includes('corrected from') ? last : undefined;
        },
        90_000,
      ).catch((error: Error) => assert.fail(`${error.message}; last hover:\n${last}`));
      // "local count 1,234" in the footnote: the uncorrected count; the hover's total is it through the fit.
      const local = Number(/local count ([\d,]+)/.exec(hover)?.[1]?.replace(/,/g, ''));
      assert.ok(local > 0, hover);
      const corrected = correctTokens(fit, local);
      const label = `≈${formatCount(corrected)} (corrected from ${formatCount(requests)} requests)`;
      assert.ok(hover.includes(`prompt **${label}** tokens`), hover);
      assert.ok(hover.includes(`to sim-claude: ${correctionFormula({ ...fit })}`), hover);
      // The results view took focus: the status bar follows the active editor, so go back to the prompt.
      await vscode.window.showTextDocument(editor.document);
      const api = await extensionApi();
      const tooltip = await waitFor(
        'the corrected count in the status bar tooltip',
        async () => (api.statusBarTooltip().includes(label) ? api.statusBarTooltip() : undefined),
        60_000,
      ).catch((error: Error) => assert.fail(`${error.message}; tooltip:\n${api.statusBarTooltip()}`));
      assert.ok(
        tooltip.split('\n').some((row) => row.startsWith('| ') && row.includes(label)),
        tooltip,
      );
    } finally {
      await config().update('endpoints', [simEndpoint()], vscode.ConfigurationTarget.Workspace);
      await config().update('targets', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });
});
