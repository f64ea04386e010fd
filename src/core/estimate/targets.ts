import { distance } from 'fastest-levenshtein';
import {
  precisionSchema,
  type EfficiencyClass,
  type HardwareRow,
  type ModelRow,
  type Precision,
  type ProviderRow,
} from './schemas';
import type { Tables } from './tables';
import { tokenizerFor } from '../tokenize/models';
import type { TokenizerId } from '../tokenize/types';

/**
 * Target ids:
 *  - self-hosted `MODEL@[Nx]HARDWARE[:PRECISION]`, e.g. `llama-3.1-70b@4xh100-sxm:fp8` (N GPUs, tensor parallel).
 *    `HARDWARE xN` (with a space) is accepted too, e.g. `llama-3.1-70b@h100-sxm x4:fp8`.
 *  - provider `PROVIDER/MODEL`, e.g. `openai/gpt-4o`.
 */
export type TargetSpec =
  | { kind: 'self-hosted'; model: string; hardware: string; gpus: number; precision?: Precision }
  | { kind: 'provider'; id: string };

export type ResolvedTarget =
  | {
      kind: 'self-hosted';
      id: string;
      model: ModelRow;
      hardware: HardwareRow;
      efficiency: EfficiencyClass;
      gpus: number;
      precision: Precision;
    }
  | { kind: 'provider'; id: string; provider: ProviderRow; model?: ModelRow };

/** Bad target: the message names what is wrong and `suggestions` the closest valid ids. */
export class TargetError extends Error {
  constructor(
    message: string,
    readonly suggestions: string[] = [],
  ) {
    super(suggestions.length > 0 ? `${message}; did you mean ${suggestions.join(', ')}?` : message);
  }
}

const SELF_HOSTED = /^([^@\s]+)@(?:(\d+)x)?([a-z0-9][a-z0-9._-]*?)(?:\s+x(\d+))?(?::([a-z0-9]+))?$/;

export function parseTargetId(text: string): TargetSpec {
  const trimmed = text.trim();
  if (trimmed.includes('@')) {
    const m = SELF_HOSTED.exec(trimmed);
    if (!m) throw new TargetError(`'${text}' is not a target id; use MODEL@[Nx]HARDWARE[:PRECISION] or PROVIDER/MODEL`);
    const [, model = '', prefixCount, hardware = '', suffixCount, precision] = m;
    if (prefixCount && suffixCount) throw new TargetError(`'${text}' gives the GPU count twice`);
    return {
      kind: 'self-hosted',
      model,
      hardware,
      gpus: parseGpuCount(prefixCount ?? suffixCount ?? '1'),
      ...(precision ? { precision: parsePrecision(precision) } : {}),
    };
  }
  if (/^[a-z0-9][a-z0-9._-]*\/[a-z0-9][a-z0-9._:-]*$/.test(trimmed)) return { kind: 'provider', id: trimmed };
  throw new TargetError(`'${text}' is not a target id; use MODEL@[Nx]HARDWARE[:PRECISION] or PROVIDER/MODEL`);
}

export function parseGpuCount(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 1024)
    throw new TargetError(`GPU count must be an integer from 1 to 1024, got '${text}'`);
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

export function formatTargetId(spec: { model: string; hardware: string; gpus: number; precision?: Precision }): string {
  return `${spec.model}@${spec.gpus > 1 ? `${spec.gpus}x` : ''}${spec.hardware}${spec.precision ? `:${spec.precision}` : ''}`;
}

/** Looks the ids up in the tables; unknown ids throw a TargetError listing the closest valid ids. */
export function resolveTarget(spec: TargetSpec, tables: Tables): ResolvedTarget {
  if (spec.kind === 'provider') {
    const provider = lookup(tables.providers, spec.id, 'provider model');
    return { kind: 'provider', id: provider.id, provider, ...modelOf(provider, tables) };
  }
  const model = lookup(tables.models, spec.model, 'model');
  const hardware = lookup(tables.hardware, spec.hardware, 'hardware');
  const efficiency = tables.classes.get(hardware.class);
  if (!efficiency)
    throw new TargetError(`hardware '${hardware.id}' names unknown efficiency class '${hardware.class}'`);
  const precision = spec.precision ?? defaultPrecision(model);
  if (!model.precisions.includes(precision)) {
    throw new TargetError(
      `model '${model.id}' is not offered at ${precision}; supported: ${model.precisions.join(', ')}`,
    );
  }
  return {
    kind: 'self-hosted',
    id: formatTargetId({ model: model.id, hardware: hardware.id, gpus: spec.gpus, precision }),
    model,
    hardware,
    efficiency,
    gpus: spec.gpus,
    precision,
  };
}

/** The first listed precision is the model's native one (bf16 for most, fp8 for DeepSeek V3, fp4 for gpt-oss). */
function defaultPrecision(model: ModelRow): Precision {
  return model.precisions[0] ?? 'bf16';
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

function lookup<T>(map: Map<string, T>, id: string, what: string): T {
  const row = map.get(id);
  if (row === undefined) throw new TargetError(`unknown ${what} '${id}'`, closestIds(id, [...map.keys()]));
  return row;
}

/**
 * The nearest ids (at most `max`): ids that contain the query, or that the query extends with a "-suffix"
 * ("h200-sxm" → "h200"), come first,
 * then by edit distance ignoring punctuation ("gpt4o" → "gpt-4o"), then by plain edit distance; ties keep table order.
 */
export function closestIds(query: string, candidates: readonly string[], max = 3): string[] {
  const q = query.toLowerCase();
  return candidates
    .map((candidate, index) => {
      const c = candidate.toLowerCase();
      return {
        candidate,
        index,
        contains: c.includes(q) || q.startsWith(`${c}-`) ? 0 : 1,
        bare: distance(bare(q), bare(c)),
        d: distance(q, c),
      };
    })
    .sort((a, b) => a.contains - b.contains || a.bare - b.bare || a.d - b.d || a.index - b.index)
    .slice(0, max)
    .map((c) => c.candidate);
}

function bare(id: string): string {
  return id.replace(/[^a-z0-9]/g, '');
}

/** The tokenizer id a target's model uses (as the tables name it; the registry may approximate it). */
export function targetTokenizerId(target: ResolvedTarget): string {
  if (target.kind === 'self-hosted') return target.model.tokenizer;
  return target.provider.tokenizer ?? target.model?.tokenizer ?? target.provider.model;
}

/** The registry tokenizer that counts for a target (exact, or the approximation standing in). */
export function targetTokenizer(target: ResolvedTarget): TokenizerId {
  return tokenizerFor(targetTokenizerId(target));
}

/** "llama-3.1-70b · 4×h100-sxm" or "openai/gpt-4o": how messages name a target. */
export function targetLabel(target: ResolvedTarget): string {
  if (target.kind === 'provider') return target.id;
  return `${target.model.id} · ${target.gpus > 1 ? `${target.gpus}×` : ''}${target.hardware.id}${target.precision !== target.model.precisions[0] ? ` ${target.precision}` : ''}`;
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
  const hardware = primary?.kind === 'self-hosted' ? primary : undefined;
  return formatTargetId({ model: model.id, hardware: hardware?.hardware.id ?? 'h100-sxm', gpus: hardware?.gpus ?? 1 });
}
