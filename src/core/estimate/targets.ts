import {
  precisionSchema,
  type BandRow,
  type Efficiency,
  type EngineRow,
  type HardwareRow,
  type ModelRow,
  type Precision,
  type ProviderRow,
  type Scope,
} from './schemas';
import type { Tables } from './tables';
import { closestIds } from './closest';
import { CURRENT_RELEASE, engineRelease, EngineVersionError, type EngineRelease } from './engineVersion';
import { countKey } from '../countKey';
import { tokenizerFor } from '../tokenize/models';
import type { TokenizerId } from '../tokenize/types';

export { closestIds };

/**
 * Target ids:
 *  - self-hosted `MODEL@[Nx]HARDWARE[:PRECISION][:tpNppM][+ENGINE[~VERSION]]`, e.g.
 *    `llama-3.1-70b@4xh100-sxm:fp8+vllm` (N devices; `:tp8pp2` fixes the split, else TP within a node and PP
 *    across nodes; `~VERSION` a release of the engine, see engineVersion.ts).
 *    `HARDWARE xN` (with a space) is accepted too, e.g. `llama-3.1-70b@h100-sxm x4:fp8`.
 *  - provider `PROVIDER/MODEL`, e.g. `openai/gpt-4o`.
 */
export type TargetSpec =
  | {
      kind: 'self-hosted';
      model: string;
      hardware: string;
      gpus: number;
      precision?: Precision;
      engine?: string;
      /** The engine release as written after `~` (a build date, a version or a range id). */
      engineVersion?: string;
      tp?: number;
      pp?: number;
    }
  | { kind: 'provider'; id: string };

/** How the devices split the model: tensor parallel within a stage, pipeline stages in sequence. */
export interface Parallelism {
  tp: number;
  pp: number;
  /** True when derived from the device count (no `:tpNppM`, `--tp` or `--pp`). */
  assumed: boolean;
}

export interface SelfHostedTarget {
  kind: 'self-hosted';
  id: string;
  model: ModelRow;
  hardware: HardwareRow;
  engine: EngineRow;
  /** The engine's efficiency on this hardware (its family's row, else its vendor's). */
  efficiency: Efficiency;
  /** The TTFT range of the engine's class. */
  band: BandRow;
  gpus: number;
  parallel: Parallelism;
  precision: Precision;
  /** Whether the HTTP server's overhead is part of TTFT. */
  scope: Scope;
  /** How the engine was chosen: named in the id, the default, or the vendor's fallback (with why). */
  engineChoice: 'named' | 'default' | 'fallback';
  engineNote?: string;
  /** The engine release range assumed (the current one unless a version was given) and its prefill factor. */
  release: EngineRelease;
}

export type ResolvedTarget =
  SelfHostedTarget | { kind: 'provider'; id: string; provider: ProviderRow; model?: ModelRow };

/** What the user did not name in the target: the engine and the measurement scope. */
export interface TargetAssumptions {
  engine?: string;
  /** The engine release for targets that name none (`--engine-version`, `promptLens.engineVersion`). */
  engineVersion?: string;
  scope?: Scope;
}

/** The engine assumed when neither the target nor the settings name one. */
export const DEFAULT_ENGINE = 'vllm';
/** What a client sees: the editor's and the CLI's default scope. */
export const DEFAULT_SCOPE: Scope = 'http';

/** Bad target: the message names what is wrong and `suggestions` the closest valid ids. */
export class TargetError extends Error {
  constructor(
    message: string,
    readonly suggestions: string[] = [],
  ) {
    super(suggestions.length > 0 ? `${message}; did you mean ${suggestions.join(', ')}?` : message);
  }
}

const SELF_HOSTED =
  /^([^@\s]+)@(?:(\d+)x)?([a-z0-9][a-z0-9._-]*?)(?:\s+x(\d+))?((?::[a-z0-9]+)*)(?:\+([a-z0-9][a-z0-9._-]*)(?:~([a-z0-9][a-z0-9._-]*))?)?$/;
const PARALLEL = /^(?:tp(\d+))?(?:pp(\d+))?$/;
const SYNTAX = 'use MODEL@[Nx]HARDWARE[:PRECISION][:tpNppM][+ENGINE[~VERSION]] or PROVIDER/MODEL';

export function parseTargetId(text: string): TargetSpec {
  const trimmed = text.trim();
  if (trimmed.includes('@')) {
    const m = SELF_HOSTED.exec(trimmed);
    if (!m) throw new TargetError(`'${text}' is not a target id; ${SYNTAX}`);
    const [, model = '', prefixCount, hardware = '', suffixCount, qualifiers = '', engine, engineVersion] = m;
    if (prefixCount && suffixCount) throw new TargetError(`'${text}' gives the GPU count twice`);
    let precision: Precision | undefined;
    let split: { tp?: number; pp?: number } = {};
    for (const part of qualifiers.split(':').filter(Boolean)) {
      const parallel = PARALLEL.exec(part);
      if (parallel && (parallel[1] || parallel[2])) {
        split = {
          ...(parallel[1] ? { tp: parseGpuCount(parallel[1], 'tp') } : {}),
          ...(parallel[2] ? { pp: parseGpuCount(parallel[2], 'pp') } : {}),
        };
      } else if (precision === undefined) precision = parsePrecision(part);
      else throw new TargetError(`'${text}' gives the precision twice`);
    }
    const count = prefixCount ?? suffixCount;
    return {
      kind: 'self-hosted',
      model,
      hardware,
      gpus: count ? parseGpuCount(count) : (split.tp ?? 1) * (split.pp ?? 1),
      ...(precision ? { precision } : {}),
      ...split,
      ...(engine ? { engine } : {}),
      ...(engineVersion ? { engineVersion } : {}),
    };
  }
  if (/^[a-z0-9][a-z0-9._-]*\/[a-z0-9][a-z0-9._:-]*$/.test(trimmed)) return { kind: 'provider', id: trimmed };
  throw new TargetError(`'${text}' is not a target id; ${SYNTAX}`);
}

export function parseGpuCount(text: string, what = 'GPU count'): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 1024)
    throw new TargetError(`${what} must be an integer from 1 to 1024, got '${text}'`);
  return n;
}

export function parsePrecision(text: string): Precision {
  const parsed = precisionSchema.safeParse(text);
  if (!parsed.success)
    throw new TargetError(
      `unknown precision '${text}'; use one of ${precisionSchema.options.join(', ')}`,
      closestIds(text, precisionSchema.options),
    );
  return parsed.data;
}

/** `model@[Nx]hardware[:precision][:tpNppM][+engine[~version]]`; the split only when chosen, not assumed. */
export function formatTargetId(spec: {
  model: string;
  hardware: string;
  gpus: number;
  precision?: Precision;
  parallel?: Parallelism;
  engine?: string;
  engineVersion?: string;
}): string {
  const split = spec.parallel && !spec.parallel.assumed ? `:tp${spec.parallel.tp}pp${spec.parallel.pp}` : '';
  const engine = spec.engine ? `+${spec.engine}${spec.engineVersion ? `~${spec.engineVersion}` : ''}` : '';
  return `${spec.model}@${spec.gpus > 1 ? `${spec.gpus}x` : ''}${spec.hardware}${spec.precision ? `:${spec.precision}` : ''}${split}${engine}`;
}

/**
 * Looks the ids up in the tables; unknown ids throw a TargetError listing the closest valid ids (or, for a
 * row skipped for an error, that error). `assume` supplies what the id leaves out: the engine (else vLLM)
 * and the measurement scope (else http).
 */
export function resolveTarget(spec: TargetSpec, tables: Tables, assume: TargetAssumptions = {}): ResolvedTarget {
  if (spec.kind === 'provider') {
    const provider = lookup(tables, 'providers', spec.id, 'provider model');
    return { kind: 'provider', id: provider.id, provider, ...modelOf(provider, tables) };
  }
  const model = lookup(tables, 'models', spec.model, 'model');
  const hardware = lookup(tables, 'hardware', spec.hardware, 'hardware');
  const precision = spec.precision ?? defaultPrecision(model);
  if (!offers(model, precision)) {
    throw new TargetError(
      `model '${model.id}' is not offered at ${precision}; supported: ${model.precisions.join(', ')}`,
    );
  }
  const choice = chooseEngine(spec.engine, assume.engine, hardware, tables);
  const parallel = parallelism(spec, choice.engine, hardware);
  const version = spec.engineVersion ?? assume.engineVersion;
  let release: EngineRelease;
  try {
    release = engineRelease(choice.engine, version, hardware, precision);
  } catch (error) {
    if (error instanceof EngineVersionError) throw new TargetError(error.message);
    throw error;
  }
  return {
    kind: 'self-hosted',
    id: formatTargetId({
      model: model.id,
      hardware: hardware.id,
      gpus: spec.gpus,
      precision,
      parallel,
      engine: choice.engine.id,
      ...(version !== undefined ? { engineVersion: version } : {}),
    }),
    model,
    hardware,
    ...choice,
    band: tables.bands.get(choice.engine.class) as BandRow, // loadTables drops engines whose class has no band
    gpus: spec.gpus,
    parallel,
    precision,
    scope: assume.scope ?? DEFAULT_SCOPE,
    release,
  };
}

/** The first listed precision is the model's native one; fp16 is offered wherever bf16 is. */
function defaultPrecision(model: ModelRow): Precision {
  return model.precisions[0] ?? 'bf16';
}

function offers(model: ModelRow, precision: Precision): boolean {
  return model.precisions.includes(precision) || (precision === 'fp16' && model.precisions.includes('bf16'));
}

/** The engine's efficiency on the hardware: its family's entry, else its vendor's; undefined where it does not run. */
export function engineEfficiency(engine: EngineRow, hardware: HardwareRow, tables: Tables): Efficiency | undefined {
  const source = engine.efficiencyFrom ? tables.engines.get(engine.efficiencyFrom) : engine;
  return source?.efficiency?.[hardware.family] ?? source?.efficiency?.[hardware.vendor];
}

function chooseEngine(
  named: string | undefined,
  preferred: string | undefined,
  hardware: HardwareRow,
  tables: Tables,
): Pick<SelfHostedTarget, 'engine' | 'efficiency' | 'engineChoice' | 'engineNote'> {
  const runsHere = (engine: EngineRow) => engineEfficiency(engine, hardware, tables);
  const unsupported = (engine: EngineRow) => {
    const here = [...tables.engines.values()].filter((e) => runsHere(e)).map((e) => e.id);
    return new TargetError(
      `${engine.name} (${engine.id}) has no efficiency row for ${hardware.vendor} hardware (${hardware.id}); engines for it: ${here.join(', ') || 'none'}`,
    );
  };
  if (named !== undefined) {
    const engine = lookup(tables, 'engines', named, 'engine');
    const efficiency = runsHere(engine);
    if (!efficiency) throw unsupported(engine);
    return { engine, efficiency, engineChoice: 'named' };
  }
  const wanted = lookup(tables, 'engines', preferred ?? DEFAULT_ENGINE, 'engine');
  const efficiency = runsHere(wanted);
  if (efficiency) return { engine: wanted, efficiency, engineChoice: 'default' };
  const fallback = [...tables.engines.values()].find((e) => e.defaultFor.includes(hardware.vendor) && runsHere(e));
  if (!fallback) throw unsupported(wanted);
  return {
    engine: fallback,
    efficiency: runsHere(fallback) as Efficiency,
    engineChoice: 'fallback',
    engineNote: `${wanted.name} does not run on ${hardware.vendor} hardware: ${fallback.name} assumed`,
  };
}

/**
 * The split of `gpus` devices. Tensor-parallel engines default to the largest TP that divides the count
 * within a node, and pipeline stages across nodes; layer-splitting engines (llama.cpp) only have stages.
 */
export function parallelism(
  spec: { gpus: number; tp?: number; pp?: number },
  engine: EngineRow,
  hardware: HardwareRow,
): Parallelism {
  const { gpus } = spec;
  if (spec.tp !== undefined || spec.pp !== undefined) {
    const tp = spec.tp ?? gpus / (spec.pp ?? 1);
    const pp = spec.pp ?? gpus / tp;
    if (!Number.isInteger(tp) || !Number.isInteger(pp) || tp * pp !== gpus)
      throw new TargetError(`tp ${tp} × pp ${pp} does not match ${gpus} device(s)`);
    if (engine.split === 'layer' && tp > 1)
      throw new TargetError(`${engine.name} splits a model by layers: it has no tensor parallelism (use pp)`);
    return checkLinks({ tp, pp, assumed: false }, hardware);
  }
  if (engine.split === 'layer') return checkLinks({ tp: 1, pp: gpus, assumed: true }, hardware);
  let tp = Math.min(gpus, hardware.gpusPerNode);
  while (gpus % tp !== 0) tp -= 1;
  return checkLinks({ tp, pp: gpus / tp, assumed: true }, hardware);
}

function checkLinks(parallel: Parallelism, hardware: HardwareRow): Parallelism {
  if (parallel.tp * parallel.pp > 1 && hardware.interconnectBandwidth === undefined)
    throw new TargetError(
      `hardware '${hardware.id}' gives no interconnectBandwidth, which ${parallel.tp * parallel.pp} devices need (add it to the row)`,
    );
  return parallel;
}

/**
 * A provider model served from an open-weight row we know (e.g. groq/llama-3.3-70b-versatile) gets that row's
 * tokenizer.
 */
function modelOf(provider: ProviderRow, tables: Tables): { model?: ModelRow } {
  const model =
    tables.models.get(provider.model) ?? [...tables.models.values()].find((m) => provider.model.startsWith(m.id));
  return model ? { model } : {};
}

type Lists = Pick<Tables, 'models' | 'hardware' | 'engines' | 'providers'>;
type RowOf<L extends keyof Lists> = Lists[L] extends Map<string, infer R> ? R : never;

function lookup<L extends keyof Lists>(tables: Tables, list: L, id: string, what: string): RowOf<L> {
  const row = (tables[list] as Map<string, RowOf<L>>).get(id);
  if (row !== undefined) return row;
  const skipped = tables.skipped.get(`${list}:${id}`);
  if (skipped !== undefined) throw new TargetError(`${what} '${id}' was skipped: ${skipped}`);
  throw new TargetError(`unknown ${what} '${id}'`, closestIds(id, [...tables[list].keys()]));
}

/** The tokenizer id a target's model uses (as the tables name it; the registry may approximate it). */
export function targetTokenizerId(target: ResolvedTarget): string {
  if (target.kind === 'self-hosted') return target.model.tokenizer;
  return target.provider.tokenizer ?? target.model?.tokenizer ?? target.provider.model;
}

/** The model a target's server renders requests for (its chat template, see countChat): self-hosted or provider's. */
export function targetModelId(target: ResolvedTarget): string {
  return target.kind === 'self-hosted' ? target.model.id : target.provider.model;
}

/** What a target's count of a prompt is kept under (see countKey): its tokenizer and chat template. */
export function targetCountKey(target: ResolvedTarget): string {
  return countKey(targetTokenizer(target), targetModelId(target));
}

/** The registry tokenizer that counts for a target (exact, or the approximation standing in). */
export function targetTokenizer(target: ResolvedTarget): TokenizerId {
  return tokenizerFor(targetTokenizerId(target));
}

/**
 * "llama-3.1-70b · 4×h100-sxm · vLLM · HTTP · TP 4" or "openai/gpt-4o": how every surface names a target,
 * self-hosted ones with the engine and scope they assume.
 */
export function targetLabel(target: ResolvedTarget): string {
  if (target.kind === 'provider') return target.id;
  return `${target.model.id} · ${target.gpus > 1 ? `${target.gpus}×` : ''}${target.hardware.id}${target.precision !== target.model.precisions[0] ? ` ${target.precision}` : ''} · ${assumptionLabel(target)}`;
}

/**
 * What an estimate assumes beyond the target's name, in the words every surface uses:
 * "vLLM · HTTP" or "llama.cpp (Apple fallback) · engine only · PP 2". Providers assume nothing here.
 */
export function assumptionLabel(target: ResolvedTarget): string {
  if (target.kind === 'provider') return '';
  const { tp, pp } = target.parallel;
  const split =
    tp * pp > 1 ? ` · ${[tp > 1 ? `TP ${tp}` : '', pp > 1 ? `PP ${pp}` : ''].filter(Boolean).join(' × ')}` : '';
  const chosen = target.engineChoice === 'fallback' ? ` (${target.hardware.vendor} fallback)` : '';
  // An earlier release range is part of what the figure assumes; the current one is the default and goes unsaid.
  const release = target.release.range !== CURRENT_RELEASE ? ` ~${target.release.given ?? target.release.range}` : '';
  return `${target.engine.name}${release}${chosen} · ${target.scope === 'http' ? 'HTTP' : 'engine only'}${split}`;
}

/**
 * Whether a target id as written (a calibration profile's, perhaps without `+ENGINE`) names the resolved
 * target: both resolve to the same id under the same assumptions.
 */
export function namesTarget(
  id: string,
  target: ResolvedTarget,
  tables: Tables,
  assume: TargetAssumptions = {},
): boolean {
  try {
    return resolveTarget(parseTargetId(id), tables, assume).id === target.id;
  } catch (error) {
    if (error instanceof TargetError) return false;
    throw error;
  }
}

/** Targets used until the user picks some: a common self-hosted deployment and a common API. */
export const DEFAULT_TARGET_IDS = ['llama-3.1-70b@4xh100-sxm', 'openai/gpt-4o'] as const;

/**
 * What a model name (a prompt's `model:`, a `--model` flag) names in the tables, case-insensitively:
 * a provider row (by its id or its model name) and an open-weight model row, either or both.
 */
export function lookupModelName(name: string, tables: Tables): { provider?: ProviderRow; model?: ModelRow } {
  const wanted = name.trim().toLowerCase();
  const provider =
    tables.providers.get(wanted) ?? [...tables.providers.values()].find((p) => p.model.toLowerCase() === wanted);
  const model = tables.models.get(wanted);
  return { ...(provider ? { provider } : {}), ...(model ? { model } : {}) };
}

/**
 * The target a prompt's front matter names (`model: gpt-4o`, `model: openai/gpt-4o`,
 * `model: llama-3.1-70b`), or undefined when it names nothing the tables know. A bare self-hosted
 * model runs on the primary target's hardware when that is self-hosted, else on one H100.
 */
export function targetIdForModel(name: string, tables: Tables, primary?: ResolvedTarget): string | undefined {
  const { provider, model } = lookupModelName(name, tables);
  if (provider) return provider.id;
  if (!model) return undefined;
  const like = primary?.kind === 'self-hosted' ? primary : undefined;
  return formatTargetId({
    model: model.id,
    hardware: like?.hardware.id ?? 'h100-sxm',
    gpus: like?.gpus ?? 1,
    ...(like?.engineChoice === 'named' ? { engine: like.engine.id } : {}),
  });
}
