import {
  checkEngineVersion,
  DEFAULT_ENGINE,
  parseTargetId,
  resolveTarget,
  type ResolvedTarget,
  type Tables,
  type TargetAssumptions,
  type TargetSpec,
} from '../estimate';
import type { Settings } from './schema';

export interface ConfiguredTargets {
  /** What targets that name no engine, release or scope assume: only values the tables accept. */
  readonly assume: TargetAssumptions;
  /** The targets that resolved, in the settings' order. */
  readonly targets: ResolvedTarget[];
  /** One message per problem, under the setting it comes from (`promptLens.engineVersion: …`). */
  readonly problems: string[];
}

/**
 * `promptLens.targets` resolved under `promptLens.engine`, `.engineVersion` and `.scope`. A problem is reported
 * under the setting that causes it: an unknown engine under `promptLens.engine` (the default engine is used), a
 * release the assumed engine does not have under `promptLens.engineVersion` (the current release is assumed), and
 * so is a release that only a target's own engine rejects (that target keeps its place at the current release);
 * only a bad target id is `promptLens.targets`'s.
 */
export function configuredTargets(
  settings: Pick<Settings, 'targets' | 'engine' | 'engineVersion' | 'scope'>,
  tables: Tables,
): ConfiguredTargets {
  const problems: string[] = [];
  let engine = settings.engine;
  if (!tables.engines.has(engine)) {
    problems.push(`promptLens.engine: unknown engine '${engine}'; using ${DEFAULT_ENGINE}`);
    engine = DEFAULT_ENGINE;
  }
  let engineVersion = settings.engineVersion;
  const assumedEngine = tables.engines.get(engine);
  if (engineVersion !== undefined && assumedEngine) {
    const rejected = versionProblem(() => checkEngineVersion(assumedEngine, engineVersion as string));
    if (rejected !== undefined) {
      problems.push(`promptLens.engineVersion: ${rejected}; using the current release`);
      engineVersion = undefined;
    }
  }
  const assume: TargetAssumptions = {
    engine,
    scope: settings.scope,
    ...(engineVersion !== undefined ? { engineVersion } : {}),
  };
  const targets: ResolvedTarget[] = [];
  for (const id of settings.targets) {
    let spec: TargetSpec | undefined;
    try {
      spec = parseTargetId(id);
      targets.push(resolveTarget(spec, tables, assume));
    } catch (error) {
      const current = spec && atCurrentRelease(spec, tables, assume);
      if (current) {
        problems.push(`promptLens.engineVersion: ${(error as Error).message}; ${id} uses the current release`);
        targets.push(current);
      } else {
        problems.push(`promptLens.targets: ${(error as Error).message}`);
      }
    }
  }
  return { assume, targets, problems };
}

function versionProblem(check: () => void): string | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The target resolved without the assumed release, when it names none itself and that alone was the problem. */
function atCurrentRelease(spec: TargetSpec, tables: Tables, assume: TargetAssumptions): ResolvedTarget | undefined {
  if (spec.kind !== 'self-hosted' || spec.engineVersion !== undefined || assume.engineVersion === undefined)
    return undefined;
  const { engineVersion: _dropped, ...rest } = assume;
  try {
    return resolveTarget(spec, tables, rest);
  } catch {
    return undefined;
  }
}
