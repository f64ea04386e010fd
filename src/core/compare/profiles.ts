import { z } from 'zod';
import { DEFAULT_OUTPUT_TOKENS } from '../estimate';
import type { WorkloadProfile } from './types';

export type { WorkloadProfile } from './types';

export const PROFILE_NAMES = ['interactive', 'batch'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

/** MLPerf-interactive-style limits; 8 in flight stands for a small team's p95 burst. */
export const PROFILES: Record<ProfileName, WorkloadProfile> = {
  interactive: {
    name: 'interactive',
    ttftMs: 500,
    tpotMs: 30,
    concurrency: 8,
    outputTokens: DEFAULT_OUTPUT_TOKENS,
    rankBy: 'costPer1kCalls',
  },
  batch: { name: 'batch', ttftMs: null, tpotMs: null, concurrency: 64, outputTokens: 512, rankBy: 'costPerMOutput' },
};

const limitMs = z
  .number({ error: 'must be a number of milliseconds' })
  .finite()
  .positive({ error: 'must be greater than 0' })
  .max(3_600_000, { error: 'must be at most 3,600,000 ms' });

/**
 * Custom SLO (`promptLens.slo` setting, `--slo`, `--concurrency`, `--output-tokens`): each field overrides the
 * base profile's; `null` for ttftMs or tpotMs drops that limit.
 */
export const sloSchema = z
  .object({
    profile: z.enum(PROFILE_NAMES, { error: `must be one of ${PROFILE_NAMES.join(', ')}` }).optional(),
    ttftMs: limitMs.nullable().optional(),
    tpotMs: limitMs.nullable().optional(),
    concurrency: z
      .number({ error: 'must be a number' })
      .int({ error: 'must be a whole number' })
      .min(1, { error: 'must be at least 1' })
      .max(4096, { error: 'must be at most 4096' })
      .optional(),
    outputTokens: z
      .number({ error: 'must be a number' })
      .int({ error: 'must be a whole number' })
      .min(1, { error: 'must be at least 1' })
      .max(1_000_000, { error: 'must be at most 1,000,000' })
      .optional(),
  })
  .strict();
export type SloSettings = z.infer<typeof sloSchema>;

/** Validates untrusted SLO settings; problems name the field (`ttftMs: must be greater than 0`). */
export function parseSloSettings(value: unknown): { slo?: SloSettings; problems: string[] } {
  const parsed = sloSchema.safeParse(value);
  if (parsed.success) return { slo: parsed.data, problems: [] };
  return { problems: parsed.error.issues.map((i) => `${i.path.map(String).join('.') || '(slo)'}: ${i.message}`) };
}

/** The base profile with the overrides applied; changing an SLO limit makes it `custom`, ranking stays the base's. */
export function resolveProfile(settings: SloSettings = {}): WorkloadProfile {
  const base = PROFILES[settings.profile ?? 'interactive'];
  const changedLimits =
    (settings.ttftMs !== undefined && settings.ttftMs !== base.ttftMs) ||
    (settings.tpotMs !== undefined && settings.tpotMs !== base.tpotMs);
  return {
    ...base,
    name: changedLimits ? 'custom' : base.name,
    ...(settings.ttftMs !== undefined ? { ttftMs: settings.ttftMs } : {}),
    ...(settings.tpotMs !== undefined ? { tpotMs: settings.tpotMs } : {}),
    ...(settings.concurrency !== undefined ? { concurrency: settings.concurrency } : {}),
    ...(settings.outputTokens !== undefined ? { outputTokens: settings.outputTokens } : {}),
  };
}

export function describeProfile(p: WorkloadProfile): string {
  const limits = [
    p.ttftMs !== null ? `TTFT p99 ≤ ${p.ttftMs} ms` : null,
    p.tpotMs !== null ? `TPOT ≤ ${p.tpotMs} ms` : null,
  ]
    .filter(Boolean)
    .join(', ');
  return `${p.name}: ${limits || 'no latency SLO'} at concurrency ${p.concurrency}, ${p.outputTokens} output tokens; ranked by ${p.rankBy === 'costPer1kCalls' ? '$ per 1,000 calls' : '$ per million output tokens'}`;
}
