import type * as vscode from 'vscode';
import { calibrationFileSchema, localProfile, type CalibrationFile } from '../../core/calibrate/profileFile';
import type { CalibrationProfile } from '../../core/estimate';

const KEY = 'promptLens.calibrations';

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
    const raw = this.state.get<unknown>(KEY);
    if (typeof raw !== 'object' || raw === null) return {};
    const out: Record<string, CalibrationFile> = {};
    for (const [target, value] of Object.entries(raw)) {
      const parsed = calibrationFileSchema.safeParse(value);
      if (parsed.success) out[target] = parsed.data;
    }
    return out;
  }

  get(targetId: string): CalibrationFile | undefined {
    return this.all()[targetId];
  }

  /**
   * The profile estimates should use, in the target's own token count (the editor counts with the
   * target's tokenizer; the stored fit may be in the endpoint's tokens): absent when there is none
   * or it is stale.
   */
  profile(targetId: string, now = Date.now()): CalibrationProfile | undefined {
    const stored = this.get(targetId);
    return stored && !isStale(stored, now) ? localProfile(stored) : undefined;
  }

  /** Every fresh profile by target id (for the comparison, which weighs many targets). */
  profiles(now = Date.now()): Record<string, CalibrationProfile> {
    return Object.fromEntries(
      Object.entries(this.all()).flatMap(([id, stored]) => (isStale(stored, now) ? [] : [[id, localProfile(stored)]])),
    );
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

export function isStale(stored: Pick<CalibrationFile, 'profile'>, now = Date.now()): boolean {
  return now - Date.parse(stored.profile.date) > CALIBRATION_MAX_AGE_DAYS * 86_400_000;
}
