// The analysis half of bench/findings.bench.ts, in a worker thread as the extension runs it
// (src/extension/analysis/analysis.worker.ts): generates the workspace, indexes it in slices, builds
// the cache groups, computes every file's findings in slices and posts them to the thread that
// started it (the extension host's side), then re-analyses one edited file. Posts its figures last.
// First, as the extension's analysis worker does (Linux only): the host thread wins a core whenever it needs one.
import '../src/extension/analysis/yieldToHost';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { AnalysisEngine } from '../src/core/analysis/engine';
import { loadTables, parseTargetId, resolveTarget, DEFAULT_TARGET_IDS } from '../src/core/estimate';
import { FindingPacker, type PackedFindings } from '../src/core/findings/groupTable';
import { PrefixCacheAnalyser, updateInSlices } from '../src/core/findings/prefixCache';
import { fileFindings } from '../src/core/findings/report';
import { DEFAULT_FINDING_SETTINGS } from '../src/core/findings/settings';
import { findingTarget } from '../src/core/findings/targets';
import type { Finding } from '../src/core/findings/types';
import { parsePrompt } from '../src/core/prompt/parse';
import type { ParsedPrompt } from '../src/core/prompt/types';
import { Slicer } from '../src/core/slicer';
import type { TextEdit } from '../src/core/tokenize/incremental';
import { getTokenizer } from '../src/core/tokenize/registry';
import { generateWorkspace } from './workspaceFiles';

export interface WorkspaceJob {
  files: number;
  sliceMs: number;
}

/** What the worker posts: findings as they are found (each cache group's members once: groupTable.ts), then figures. */
export type WorkspaceMessage =
  | { findings: PackedFindings }
  | {
      done: {
        files: number;
        requestTokens: number;
        indexMs: number;
        groups: number;
        groupsMs: number;
        findings: number;
        findingsMs: number;
        totalMs: number;
        /** CPU time of the process (this worker, and the host thread receiving findings) over the same span. */
        totalCpuMs: number;
        indexCpuMs: number;
        groupsCpuMs: number;
        findingsCpuMs: number;
        /** The longest the worker's event loop was held during index, groups and findings. */
        longestHoldMs: number;
        /** Median over EDITS one-file edits, and the slowest of them. */
        reanalysisMs: number;
        slowestEditMs: number;
        /** The same through the editor's AnalysisEngine (count + findings with positions), after its own scan. */
        editorEditMs: number;
        editorSlowestEditMs: number;
        /** Mean CPU time of the process per edit (the host thread idles meanwhile): what the load does not stretch. */
        editCpuMs: number;
        editorEditCpuMs: number;
      };
    };

/** One-file edits re-analysed after the workspace: each in another file, the median is reported. */
const EDITS = 21;

const port = parentPort;
if (!port) throw new Error('workspaceWorker must run as a worker thread');
const job = workerData as WorkspaceJob;

async function analyse(): Promise<void> {
  const files = generateWorkspace(job.files);
  const tokenizer = getTokenizer('o200k_base');
  const costModel = findingTarget(resolveTarget(parseTargetId(DEFAULT_TARGET_IDS[0]), loadTables().tables), {
    concurrency: 1,
    outputTokens: 0,
  }).model;
  const analyser = new PrefixCacheAnalyser({
    tokenizer,
    costModel,
    settings: DEFAULT_FINDING_SETTINGS.cache,
    rag: DEFAULT_FINDING_SETTINGS.rag,
  });
  // The longest stretch this loop could not answer anything else (a hover's count) during the analysis.
  const held = monitorEventLoopDelay({ resolution: 1 });
  held.enable();
  const started = performance.now();
  const cpuStart = cpuMs();
  const parsed = new Map<string, ParsedPrompt>();
  await updateInSlices(
    analyser,
    (function* () {
      // Parsed one at a time, inside the slices, as the scan does.
      for (const f of files) {
        const p = parsePrompt(f.path, f.text);
        parsed.set(f.path, p);
        yield { file: f.path, text: f.text, parsed: p };
      }
    })(),
    job.sliceMs,
  );
  const indexMs = performance.now() - started;
  const indexCpuMs = cpuMs() - cpuStart;

  // Each cache group is computed once, when the first of its files' findings asks for it, inside the slices.
  let at = performance.now();
  let cpuAt = cpuMs();
  let findings = 0;
  let batch: Finding[] = [];
  const slicer = new Slicer(job.sliceMs);
  const options = { tokenizer, costModel, settings: DEFAULT_FINDING_SETTINGS, analyser };
  const packer = new FindingPacker(analyser);
  for (const f of files) {
    const found = fileFindings({ ...options, file: f.path, text: f.text, parsed: parsed.get(f.path)! }).findings;
    findings += found.length;
    batch.push(...found);
    // Each slice's findings go to the host as the engine's replies do, so it pays for receiving them.
    if (slicer.due()) {
      port!.postMessage({ findings: packer.pack(batch) } satisfies WorkspaceMessage);
      batch = [];
      await slicer.pause();
    }
  }
  if (batch.length > 0) port!.postMessage({ findings: packer.pack(batch) } satisfies WorkspaceMessage);
  const findingsMs = performance.now() - at;
  const findingsCpuMs = cpuMs() - cpuAt;
  at = performance.now();
  cpuAt = cpuMs();
  const groups = analyser.groups().length;
  const groupsMs = performance.now() - at;
  const groupsCpuMs = cpuMs() - cpuAt;

  const totalMs = performance.now() - started;
  const totalCpuMs = cpuMs() - cpuStart;
  held.disable();

  // One edit at a time in EDITS files (each in a cache group of ~250): the median is the figure, the slowest printed.
  const edits: number[] = [];
  const editsCpu = cpuMs();
  for (let k = 0; k < EDITS; k++) {
    const changed = files[Math.floor(files.length / 2) + 1 + k]!;
    const edited = changed.text.replace('user:\n', 'user:\nPlease be brief. ');
    at = performance.now();
    const editedParse = parsePrompt(changed.path, edited);
    analyser.update(changed.path, edited, editedParse);
    fileFindings({ ...options, file: changed.path, text: edited, parsed: editedParse });
    edits.push(performance.now() - at);
  }
  const editCpuMs = (cpuMs() - editsCpu) / EDITS;
  edits.sort((a, b) => a - b);
  const reanalysisMs = edits[Math.floor(EDITS / 2)]!;
  const slowestEditMs = edits[EDITS - 1]!;

  const requestTokens = files.reduce((n, f) => n + (analyser.promptTokens(f.path) ?? 0), 0);
  const editor = await editorEdits(files);

  port!.postMessage({
    done: {
      files: files.length,
      requestTokens,
      indexMs,
      groups,
      groupsMs,
      findings,
      findingsMs,
      totalMs,
      totalCpuMs,
      indexCpuMs,
      groupsCpuMs,
      findingsCpuMs,
      longestHoldMs: held.max / 1e6,
      reanalysisMs,
      slowestEditMs,
      editCpuMs,
      editorEditMs: editor.median,
      editorSlowestEditMs: editor.slowest,
      editorEditCpuMs: editor.cpuMs,
    },
  } satisfies WorkspaceMessage);
}

/**
 * One-character edits of one document as the editor's analysis worker handles them (engine.ts: the incremental
 * count, then findings with related files' positions) after its workspace scan of the same files: median and slowest.
 */
async function editorEdits(files: ReadonlyArray<{ path: string; text: string }>) {
  const { tables } = loadTables();
  const targetId = DEFAULT_TARGET_IDS[0];
  const engine = new AnalysisEngine();
  engine.configure({
    tables,
    targets: [resolveTarget(parseTargetId(targetId), tables)],
    findings: DEFAULT_FINDING_SETTINGS,
    variablePatterns: [],
    disabledFormats: [],
    workload: { concurrency: 1, outputTokens: 0 },
  });
  await engine.scan(targetId, files);
  const doc = files[Math.floor(files.length / 2)]!;
  const request = (text: string, version: number, edits: TextEdit[]) => ({
    key: 'doc',
    file: doc.path,
    fileName: doc.path,
    text,
    version,
    edits,
  });
  let text = doc.text;
  await engine.count(request(text, 0, []));
  await engine.findings('doc', 0);
  const times: number[] = [];
  const cpuStart = cpuMs();
  for (let version = 1; version <= EDITS; version++) {
    const offset = text.indexOf('user:\n') + 'user:\n'.length;
    text = `${text.slice(0, offset)}x${text.slice(offset)}`;
    const at = performance.now();
    await engine.count(request(text, version, [{ offset, removed: 0, inserted: 'x' }]));
    const result = await engine.findings('doc', version);
    times.push(performance.now() - at);
    // The document is in a cache group of the scanned files: else this measured an empty workspace.
    if (!result?.findings.some((f) => f.code === 'prefix-cache'))
      throw new Error('editor edit: no prefix-cache finding');
  }
  const cpu = (cpuMs() - cpuStart) / EDITS;
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(EDITS / 2)]!, slowest: times[EDITS - 1]!, cpuMs: cpu };
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

void analyse();
