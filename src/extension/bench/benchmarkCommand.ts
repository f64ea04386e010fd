import * as vscode from 'vscode';
import { showError, showWarning } from '../notify';
import { log } from '../log';
import type { BenchMessages } from '../../core/bench/benchPrompt';
import type { EndpointConfig } from '../../core/bench/endpoints';
import type { ChatMessage } from '../../core/prompt/types';
import { messageTokenCounter, predictEndpoint } from '../../core/bench/prediction';
import type { BenchResult, UsageCheck } from '../../core/bench/result';
import { correctionFormula, isApproximateTokenizer, updateCorrection } from '../../core/calibrate/tokenCorrection';
import { parseTargetId, resolveTarget, targetTokenizer } from '../../core/estimate';
import { bundledStreamWorkers, runBenchmark, type BenchProgress } from '../../core/bench/runner';
import { endpointRequestCounter, usageCheck } from '../../core/bench/usageCheck';
import { DEFAULT_TOKENIZER, getTokenizer } from '../../core/tokenize/registry';
import type { WorkloadProfile } from '../../core/compare/types';
import type { DocumentAnalysis, PromptAnalyzer } from '../analysis/analyzer';
import { readSettings } from '../settings';
import { DEFAULT_SLO } from '../../core/bench/stats';
import { isPromptDocument } from '../promptDocuments';
import type { ExtensionTables } from '../tables';
import type { ApiKeys } from './apiKeys';
import type { Calibrations } from './calibrations';
import { readEndpoints } from './endpoints';
import { BenchHistory, promptHash } from './history';
import type { HostConsent } from './hostConsent';
import type { LocalSimulator } from './localSimulator';
import { readSentMessages } from './sentMessages';
import type { ResultsPanel } from './resultsPanel';

export interface BenchDeps {
  context: vscode.ExtensionContext;
  keys: ApiKeys;
  consent: HostConsent;
  panel: ResultsPanel;
  tables: ExtensionTables;
  calibrations: Calibrations;
  history: BenchHistory;
  /** The editor's analysis (worker-parsed prompt and workload): what a run sends is what the editor shows. */
  analyzer: PromptAnalyzer;
  /** Runs in flight, so "Stop Benchmark" (and the view's Stop button) can abort them. */
  inFlight: Set<AbortController>;
  /** The simulator started from the extension: an endpoint of this session, beside promptLens.endpoints. */
  simulator: LocalSimulator;
  /** The clock calibration times requests on; unset: performance.now (tests set a simulator's virtual clock). */
  now?: () => number;
}

const LAST_ENDPOINT = 'promptLens.lastEndpoint';

export function untrustedMessage(): string {
  return vscode.l10n.t(
    'Prompt Latency Lens: benchmarking is off in this untrusted workspace — a workspace could point it (and your API key) at a server of its choosing. Trust the workspace to benchmark.',
  );
}

/**
 * The endpoint to use: the named one, the only one, or a pick with the last used first. `session` endpoints
 * (the local simulator) join those of promptLens.endpoints without being written to settings.
 */
export async function chooseEndpoint(
  context: vscode.ExtensionContext,
  given?: string,
  session: EndpointConfig[] = [],
): Promise<EndpointConfig | undefined> {
  const fromSettings = readEndpoints();
  const { problems } = fromSettings;
  const endpoints = [
    ...fromSettings.endpoints,
    ...session.filter((s) => !fromSettings.endpoints.some((e) => e.name === s.name)),
  ];
  for (const p of problems) void showWarning(vscode.l10n.t('Prompt Latency Lens: {0}', p));
  if (given) {
    const found = endpoints.find((e) => e.name === given);
    if (!found)
      void showError(vscode.l10n.t('Prompt Latency Lens: no endpoint named "{0}" in promptLens.endpoints.', given));
    return found;
  }
  if (endpoints.length === 0) {
    void showWarning(
      vscode.l10n.t(
        'Prompt Latency Lens: add an endpoint to promptLens.endpoints first, or run Start Local Simulator.',
      ),
    );
    return undefined;
  }
  const last = context.workspaceState.get<string>(LAST_ENDPOINT);
  const ordered = [...endpoints].sort((a, b) => Number(b.name === last) - Number(a.name === last));
  const chosen =
    ordered.length === 1
      ? ordered[0]
      : (
          await vscode.window.showQuickPick(
            ordered.map((e) => ({ label: e.name, description: `${e.model} · ${e.baseUrl}`, endpoint: e })),
            { placeHolder: vscode.l10n.t('Endpoint to benchmark') },
          )
        )?.endpoint;
  if (chosen) await rememberEndpoint(context, chosen.name);
  return chosen;
}

/** The key for an endpoint, once the user has agreed to send it to that host; null = stop. */
export async function keyFor(deps: BenchDeps, endpoint: EndpointConfig): Promise<string | undefined | null> {
  const key = await deps.keys.get(endpoint.name);
  if (key === undefined) return undefined;
  if (await deps.consent.mayReceiveKey(endpoint.name, endpoint.baseUrl)) return key;
  void showWarning(
    vscode.l10n.t(
      'Prompt Latency Lens: not sending the API key for {0} to {1}; the benchmark did not run.',
      endpoint.name,
      new URL(endpoint.baseUrl).origin,
    ),
  );
  return null;
}

/**
 * The prompt a command without a file argument acts on: the active editor's, else the one prompt editor in
 * view (a button in the walkthrough, beside the example prompt, leaves no active text editor).
 */
function shownPromptDocument(): vscode.TextDocument | undefined {
  const active = vscode.window.activeTextEditor?.document;
  if (active) return active;
  const shown = vscode.window.visibleTextEditors.map((e) => e.document).filter(isPromptDocument);
  return shown.length === 1 ? shown[0] : undefined;
}

/** Makes the next pick of an endpoint offer this one first. */
export function rememberEndpoint(context: vscode.ExtensionContext, name: string): Thenable<void> {
  return context.workspaceState.update(LAST_ENDPOINT, name);
}

export interface PromptRun {
  document: vscode.TextDocument;
  messages: ChatMessage[];
  endpoint: EndpointConfig;
  /** The workload the editor's estimates assume (settings, then the file's front matter). */
  profile: WorkloadProfile;
}

/**
 * What every run against an endpoint checks first: a trusted workspace, a prompt document whose
 * variables are all filled, and an endpoint (named, or picked). Each refusal says why.
 */
export async function preparePromptRun(
  deps: BenchDeps,
  uri: vscode.Uri | undefined,
  endpointName: string | undefined,
  purpose: string,
): Promise<PromptRun | undefined> {
  if (!vscode.workspace.isTrusted) {
    void showWarning(untrustedMessage());
    return undefined;
  }
  const document = uri ? await vscode.workspace.openTextDocument(uri) : shownPromptDocument();
  if (!document || !isPromptDocument(document)) {
    void showWarning(vscode.l10n.t('Prompt Latency Lens: open a prompt file to {0}.', purpose));
    return undefined;
  }
  const analysed = await sentMessages(deps.analyzer, document, purpose);
  if (!analysed) return undefined;
  const { analysis, prompt } = analysed;
  if (!prompt.ok) {
    void showError(vscode.l10n.t('Prompt Latency Lens: {0}', prompt.error));
    return undefined;
  }
  if (prompt.notSent) void showWarning(vscode.l10n.t('Prompt Latency Lens: {0}', prompt.notSent));
  const session = deps.simulator.endpoint;
  const endpoint = await chooseEndpoint(deps.context, endpointName, session ? [session] : []);
  return endpoint ? { document, messages: prompt.messages, endpoint, profile: analysis.profile } : undefined;
}

/** The document's analysis and the messages a run sends (see readSentMessages); says why when there are none. */
async function sentMessages(
  analyzer: PromptAnalyzer,
  document: vscode.TextDocument,
  purpose: string,
): Promise<{ analysis: DocumentAnalysis; prompt: BenchMessages } | undefined> {
  const read = await readSentMessages({
    current: () => analyzer.current(document),
    messages: (analysis) => analyzer.benchMessages(document, analysis),
  });
  if ('analysis' in read) return read;
  const why =
    'unreadable' in read
      ? vscode.l10n.t('Prompt Latency Lens: cannot {0}: the file is {1}.', purpose, read.unreadable)
      : vscode.l10n.t('Prompt Latency Lens: cannot {0}: the file kept changing while it was read.', purpose);
  void showError(why);
  return undefined;
}

/** "Benchmark This Prompt": runs, shows live progress, saves the result, returns it (for tests). */
export async function benchmarkPrompt(
  deps: BenchDeps,
  uri?: vscode.Uri,
  endpointName?: string,
): Promise<BenchResult | undefined> {
  const run = await preparePromptRun(deps, uri, endpointName, vscode.l10n.t('benchmark it'));
  if (!run) return undefined;
  const { document, endpoint, messages, profile } = run;
  const apiKey = await keyFor(deps, endpoint);
  if (apiKey === null) return undefined;

  const { benchmark, engine } = readSettings(document.uri).settings;
  const slo = { ttftMs: profile.ttftMs ?? DEFAULT_SLO.ttftMs, tpotMs: profile.tpotMs ?? DEFAULT_SLO.tpotMs };
  const tokenizer = getTokenizer(DEFAULT_TOKENIZER);
  let predicted: { ttftMs: number; tpotMs: number } | undefined;
  if (endpoint.target) {
    const { tables } = await deps.tables.get();
    const p = predictEndpoint(
      tables,
      endpoint.target,
      messageTokenCounter(messages),
      benchmark.maxTokens,
      (id) => deps.calibrations.profile(id),
      { engine },
    );
    if (p.ok) predicted = { ttftMs: p.ttftMs, tpotMs: p.tpotMs };
    else void showWarning(vscode.l10n.t("Prompt Latency Lens: endpoint {0}'s target: {1}", endpoint.name, p.error));
  }

  const label = vscode.workspace.asRelativePath(document.uri);
  const hash = promptHash(document.getText());
  const { entries: earlier, problems } = await deps.history.list(hash, 1);
  for (const p of problems)
    void showWarning(
      vscode.l10n.t(
        'Prompt Latency Lens: benchmark history file {0} is unreadable ({1}); moved to {2}.',
        p.file,
        p.message,
        p.movedTo,
      ),
    );
  const previous = earlier[0]?.result;
  const base = { prompt: label, endpoint: `${endpoint.name} · ${endpoint.model}`, ...(previous ? { previous } : {}) };
  deps.panel.show({ ...base, running: true, progress: vscode.l10n.t('starting') });

  const measured = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Benchmarking {0} on {1}', label, endpoint.name),
      cancellable: true,
    },
    async (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      deps.inFlight.add(abort);
      let lastUpdate = 0;
      let soFar: BenchResult | undefined;
      const live = (text: string) =>
        deps.panel.update({ ...base, running: true, progress: text, ...(soFar ? { result: soFar } : {}) });
      const onProgress = (p: BenchProgress) => {
        const text = `${p.cache} · ${p.level} · ${p.done}/${p.total}${p.failed ? ` · ${p.failed} failed` : ''}`;
        progress.report({ message: text });
        if (Date.now() - lastUpdate > 250) {
          lastUpdate = Date.now();
          live(text);
        }
      };
      // Each finished level appears in the view's table and charts while the next one runs.
      const onLevel = (result: BenchResult) => {
        soFar = result;
        live(vscode.l10n.t('next level'));
      };
      return runBenchmark({
        endpoint,
        ...(apiKey ? { apiKey } : {}),
        messages,
        maxTokens: benchmark.maxTokens,
        requests: benchmark.requests,
        warmup: benchmark.warmup,
        concurrency: benchmark.concurrency,
        cache: benchmark.cache,
        timeoutMs: benchmark.timeoutMs,
        maxDurationMs: benchmark.timeLimitSeconds * 1000,
        slo,
        signal: abort.signal,
        onProgress,
        onLevel,
        countTokens: (t) => tokenizer.count(t),
        streamWorkers: bundledStreamWorkers(__dirname),
        ...(predicted ? { predicted } : {}),
      }).finally(() => deps.inFlight.delete(abort));
    },
  );
  // The endpoint's billed prompt tokens against the local count of each request sent; saved with the run.
  const counter = endpointRequestCounter(measured.endpoint);
  const usage = counter && (await usageCheck(measured, messages, counter));
  const result = usage ? { ...measured, usage } : measured;
  if (usage) await correctTokens(deps, endpoint, usage, engine);
  try {
    await deps.history.save({ schemaVersion: 1, promptHash: hash, prompt: label, result });
  } catch (error) {
    void showError(
      vscode.l10n.t('Prompt Latency Lens: could not save the benchmark history: {0}', (error as Error).message),
    );
  }
  deps.panel.show({ ...base, running: false, result });
  log.info(benchmarkLogLine(label, endpoint.name, result));
  if (result.partial)
    void showWarning(
      vscode.l10n.t(
        'Prompt Latency Lens: the benchmark stopped early ({0}); the partial result is shown and saved.',
        result.partialReason ?? vscode.l10n.t('cancelled'),
      ),
    );
  return result;
}

/**
 * An approximate target's count corrected by what its endpoint billed: the run's (local, billed) pairs join the
 * ones stored for the endpoint's target, the correction is fitted again and every estimate of that target uses it.
 * Only when the run counted with the target's own tokenizer and that tokenizer is an approximation: an exact
 * tokenizer's difference is the self-check's to explain (a template, a server-side system prompt).
 */
async function correctTokens(
  deps: BenchDeps,
  endpoint: EndpointConfig,
  usage: UsageCheck,
  engine: string,
): Promise<void> {
  if (!endpoint.target || !usage.samples || !isApproximateTokenizer(usage.tokenizer)) return;
  try {
    const { tables } = await deps.tables.get();
    const target = resolveTarget(parseTargetId(endpoint.target), tables, { engine });
    if (targetTokenizer(target) !== usage.tokenizer) {
      log.info(
        `no token correction for ${target.id}: the run counted with ${usage.tokenizer}, not ${targetTokenizer(target)}`,
      );
      return;
    }
    const correction = updateCorrection(deps.calibrations.correction(target.id), {
      tokenizer: usage.tokenizer,
      endpoint: { name: endpoint.name, baseUrl: endpoint.baseUrl, model: endpoint.model },
      samples: usage.samples,
      date: new Date().toISOString(),
    });
    if (!correction) return;
    await deps.calibrations.setCorrection(target.id, correction);
    log.info(
      `token correction of ${target.id} (${usage.tokenizer}) from ${correction.requests} requests to ${endpoint.name}: ${correctionFormula(correction)}`,
    );
    deps.analyzer.invalidate();
  } catch (error) {
    log.error('token correction not saved', error);
  }
}

/** One line per run for the output channel: what ran, how many failed, and the first (already redacted) error. */
function benchmarkLogLine(prompt: string, endpoint: string, result: BenchResult): string {
  const requests = result.modes.flatMap((m) => m.levels.flatMap((l) => l.requests));
  const failed = requests.filter((r) => !r.ok);
  const first = failed.find((r) => r.error?.message)?.error?.message;
  return `benchmark of ${prompt} on ${endpoint}: ${requests.length} requests, ${failed.length} failed${
    result.partial ? ` (partial: ${result.partialReason ?? 'cancelled'})` : ''
  }${first ? `; first error: ${first}` : ''}`;
}
