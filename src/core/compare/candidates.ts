import {
  closestIds,
  lookupModelName,
  memoryFit,
  resolveTarget,
  TargetError,
  type Deployment,
  type ModelRow,
  type ResolvedTarget,
  type Tables,
  type TargetAssumptions,
} from '../estimate';

/** Tensor-parallel sizes tried, smallest first: powers of two up to eight 8-GPU nodes. */
export const GPU_COUNTS: readonly number[] = [1, 2, 4, 8, 16, 32, 64];

/**
 * The fewest GPUs whose usable memory holds the weights plus the KV cache of `kvTokens` tokens; undefined when none
 * does.
 */
export function fewestGpus(
  deployment: Pick<Deployment, 'model' | 'hardware' | 'precision'>,
  kvTokens: number,
): number | undefined {
  return GPU_COUNTS.find((gpus) => memoryFit({ ...deployment, gpus }, kvTokens).promptFits);
}

/**
 * The open-weight model to deploy: the chosen id, else the prompt's model, where either is a model row
 * (`llama-3.1-70b`) or a provider model served from one (`groq/llama-3.3-70b-versatile`). A chosen id that is
 * neither throws a TargetError naming the closest model ids.
 */
export function selfHostedModel(
  tables: Tables,
  choice: { chosen?: string; promptModel?: string },
): ModelRow | undefined {
  if (choice.chosen !== undefined) {
    const model = openWeightModel(tables, choice.chosen);
    if (!model)
      throw new TargetError(`unknown model '${choice.chosen}'`, closestIds(choice.chosen, [...tables.models.keys()]));
    return model;
  }
  return choice.promptModel === undefined ? undefined : openWeightModel(tables, choice.promptModel);
}

function openWeightModel(tables: Tables, name: string): ModelRow | undefined {
  const { model, provider } = lookupModelName(name, tables);
  if (model) return model;
  if (!provider) return undefined;
  const resolved = resolveTarget({ kind: 'provider', id: provider.id }, tables);
  return resolved.kind === 'provider' ? resolved.model : undefined;
}

export interface SelfHostedCandidates {
  targets: Extract<ResolvedTarget, { kind: 'self-hosted' }>[];
  /** Hardware × precision pairs left out, with why. */
  skipped: string[];
}

/**
 * Every priced hardware row × supported precision, at the fewest GPUs that fit weights + KV cache and at
 * twice that, on the assumed engine (or the vendor's fallback).
 */
export function selfHostedCandidates(
  model: ModelRow,
  tables: Tables,
  kvTokens: number,
  assume: TargetAssumptions = {},
): SelfHostedCandidates {
  const targets: SelfHostedCandidates['targets'] = [];
  const skipped: string[] = [];
  for (const hardware of tables.hardware.values()) {
    if (!hardware.usdPerHour) {
      skipped.push(`${model.id}@${hardware.id}: no $/GPU-hour (usdPerHour) on the hardware row: latency only`);
      continue;
    }
    for (const precision of model.precisions) {
      const fewest = fewestGpus({ model, hardware, precision }, kvTokens);
      if (fewest === undefined) {
        skipped.push(
          `${model.id}@${hardware.id}:${precision}: weights + KV cache for ${kvTokens.toLocaleString('en-US')} tokens do not fit on ${GPU_COUNTS[GPU_COUNTS.length - 1]} GPUs`,
        );
        continue;
      }
      for (const gpus of [fewest, fewest * 2]) {
        try {
          const target = resolveTarget(
            { kind: 'self-hosted', model: model.id, hardware: hardware.id, gpus, precision },
            tables,
            assume,
          );
          if (target.kind === 'self-hosted') targets.push(target);
        } catch (error) {
          if (!(error instanceof TargetError)) throw error;
          skipped.push(`${model.id}@${gpus}x${hardware.id}:${precision}: ${error.message}`);
        }
      }
    }
  }
  return { targets, skipped };
}

/**
 * Every provider model still served (retired rows are left out); the context-window check needs each
 * target's own token count.
 */
export function providerCandidates(tables: Tables): Extract<ResolvedTarget, { kind: 'provider' }>[] {
  return [...tables.providers.values()].flatMap(({ id, retired }) => {
    if (retired) return [];
    const target = resolveTarget({ kind: 'provider', id }, tables);
    return target.kind === 'provider' ? [target] : [];
  });
}
