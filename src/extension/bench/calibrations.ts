import type * as vscode from 'vscode';
import type { z } from 'zod';
import { calibrationFileSchema, localProfile, type CalibrationFile } from '../../core/calibrate/profileFile';
import { tokenCorrectionSchema, type TokenCorrection } from '../../core/calibrate/tokenCorrection';
import type { CalibrationProfile } from '../../core/estimate';

const KEY = 'promptLens.calibrations';
/** Beside each calibration, under the same target id: the correction of its approximate token counts. */
const CORRECTIONS_KEY = 'promptLens.tokenCorrections';

/** A measured profile older than this no longer describes the endpoint (engines, drivers, load change). */
export const CALIBRATION_MAX_AGE_DAYS = 30;

/**
 * Measured latency profiles per resolved target id (`llama-3.1-8b@h100-sxm:bf16`, as resolveTarget
 * spells it), from *Calibrate Endpoint…* or *Import Calibration…*, in global state, in the file
 * format that `prompt-lens calibrate` writes and *Export Calibration…* saves. Entries that do not
 * validate (an older version, a hand edit) are ignored rather than trusted.
 */
export class Calibrations {
  constructor(private readonly state: vscode.Memento) {}

  /** Every valid stored profile by target id. */
  all(): Record<string, CalibrationFile> {
    return validEntries(this.state.get<unknown>(KEY), calibrationFileSchema);
  }

  get(targetId: string): CalibrationFile | undefined {
    return this.all()[targetId];
  }

  /**
   * The profile estimates should use, in the tokens the editor's count for the target is in: the endpoint's
   * own when that count is corrected to the endpoint's bills and the profile was fitted on them, else the
   * target's tokenizer's (the stored fit mapped through its token map). Absent when there is none or it is stale.
   */
  profile(targetId: string, now = Date.now()): CalibrationProfile | undefined {
    const stored = this.get(targetId);
    return stored && !isStale(stored, now) ? this.inCountedTokens(targetId, stored) : undefined;
  }

  /** Every fresh profile by target id (for the comparison, which weighs many targets). */
  profiles(now = Date.now()): Record<string, CalibrationProfile> {
    return Object.fromEntries(
      Object.entries(this.all()).flatMap(([id, stored]) =>
        isStale(stored, now) ? [] : [[id, this.inCountedTokens(id, stored)]],
      ),
    );
  }

  private inCountedTokens(targetId: string, stored: CalibrationFile): CalibrationProfile {
    const corrected = this.correction(targetId)?.tokenizer === stored.tokens.localTokenizer;
    return corrected && stored.tokens.basis === 'usage' ? stored.profile : localProfile(stored);
  }

  /** Every valid stored token correction by target id (entries that do not validate are ignored). */
  corrections(): Record<string, TokenCorrection> {
    return validEntries(this.state.get<unknown>(CORRECTIONS_KEY), tokenCorrectionSchema);
  }

  /** The correction of the target's approximate counts, fitted on its endpoint's billed prompt tokens. */
  correction(targetId: string): TokenCorrection | undefined {
    return this.corrections()[targetId];
  }

  async setCorrection(targetId: string, correction: TokenCorrection): Promise<void> {
    await this.state.update(CORRECTIONS_KEY, { ...this.corrections(), [targetId]: correction });
  }

  /** A message for each stale calibration among these targets, so the user knows why it is not used. */
  staleNotes(targetIds: readonly string[], now = Date.now()): string[] {
    return targetIds.flatMap((id) => {
      const stored = this.get(id);
      return stored && isStale(stored, now)
        ? [
            `the calibration of ${id} (${stored.profile.date}, from ${stored.endpoint.name}) is older than ${CALIBRATION_MAX_AGE_DAYS} days and is not used: run Calibrate Endpoint… again`,
          ]
        : [];
    });
  }

  async set(targetId: string, calibration: CalibrationFile): Promise<void> {
    await this.state.update(KEY, { ...this.all(), [targetId]: { ...calibration, target: targetId } });
  }
}

/** The entries of a stored record that validate, by key; anything else is ignored. */
function validEntries<T>(raw: unknown, schema: z.ZodType<T>): Record<string, T> {
  if (typeof raw !== 'object' || raw === null) return {};
  const out: Record<string, T> = {};
  for (const [key, value] of Object.entries(raw)) {
    const parsed = schema.safeParse(value);
    if (parsed.success) out[key] = parsed.data;
  }
  return out;
}

export function isStale(stored: Pick<CalibrationFile, 'profile'>, now = Date.now()): boolean {
  return now - Date.parse(stored.profile.date) > CALIBRATION_MAX_AGE_DAYS * 86_400_000;
}
