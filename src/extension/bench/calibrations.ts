import type * as vscode from 'vscode';
import { z } from 'zod';
import { calibrationProfileSchema, type CalibrationProfile } from '../../core/estimate';

const storedSchema = z.object({
  endpoint: z.string(),
  profile: calibrationProfileSchema,
  r2: z.number(),
  rmseMs: z.number(),
  model: z.enum(['linear', 'quadratic']),
  samples: z.number().int(),
});
export type StoredCalibration = z.infer<typeof storedSchema>;

const KEY = 'promptLens.calibrations';

/**
 * Measured latency profiles per resolved target id (`llama-3.1-8b@h100-sxm:bf16`, as resolveTarget
 * spells it) (from "Calibrate Endpoint…"), in global state. Entries
 * that do not validate (an older version, a hand edit) are ignored rather than trusted.
 */
export class Calibrations {
  constructor(private readonly state: vscode.Memento) {}

  private all(): Record<string, StoredCalibration> {
    const raw = this.state.get<unknown>(KEY);
    if (typeof raw !== 'object' || raw === null) return {};
    const out: Record<string, StoredCalibration> = {};
    for (const [target, value] of Object.entries(raw)) {
      const parsed = storedSchema.safeParse(value);
      if (parsed.success) out[target] = parsed.data;
    }
    return out;
  }

  get(targetId: string): StoredCalibration | undefined {
    return this.all()[targetId];
  }

  profile(targetId: string): CalibrationProfile | undefined {
    return this.get(targetId)?.profile;
  }

  async set(targetId: string, calibration: StoredCalibration): Promise<void> {
    await this.state.update(KEY, { ...this.all(), [targetId]: calibration });
  }

  async clear(targetId: string): Promise<void> {
    const { [targetId]: _gone, ...rest } = this.all();
    await this.state.update(KEY, rest);
  }
}
