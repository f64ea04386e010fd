import type { EngineRow, HardwareRow, OlderVersion, Precision } from './schemas';

/**
 * Which release range of an engine an estimate assumes. An engine row's efficiencies stand for its current
 * releases (`versions`); `olderVersions` lists earlier ranges where a public, dated source measured the same
 * hardware and model before and after a change, with the prefill factor read from that measurement (never
 * fitted). A target names a release after its engine (`+llamacpp~2024-05`), or `--engine-version` /
 * `promptLens.engineVersion` supplies one; by default the current range is assumed.
 */
export interface EngineRelease {
  /** `current` or the id of an older range. */
  range: string;
  /** The version as the user gave it, if any. */
  given?: string;
  /** "llama.cpp current (b2000-b7000)" or "llama.cpp builds before 2024-06-24 (PR #8075): …". */
  label: string;
  /** Multiplier on the linear layers' prefill rate (1 for the current range or where the change did not apply). */
  prefillFactor: number;
  /** Why the factor is what it is, for surfaces that list assumptions. */
  basis?: string;
}

export const CURRENT_RELEASE = 'current';

const DATE = /^\d{4}-\d{2}(-\d{2})?$/;
const NUMBERED = /^v?\d+(\.\d+)*$/;

/** A version that cannot be placed: the message says what the engine accepts. */
export class EngineVersionError extends Error {}

/**
 * The release range `given` falls in: `current`/`latest`, an older range's id, a build date (YYYY-MM or
 * YYYY-MM-DD; a month counts as its first day) before the range's `before`, or a numbered version below its
 * `beforeVersion`. The factor applies only to the range's precisions on the vendors or families it names.
 */
export function engineRelease(
  engine: EngineRow,
  given: string | undefined,
  hardware: Pick<HardwareRow, 'vendor' | 'family'>,
  precision: Precision,
): EngineRelease {
  const range = findRange(engine, given);
  const withGiven = given !== undefined ? { given } : {};
  if (!range) {
    const none = engine.olderVersions.length === 0 && given !== undefined && !isCurrent(given);
    return {
      range: CURRENT_RELEASE,
      ...withGiven,
      label: `${engine.name} current (${engine.versions})${none ? '; no earlier range has before/after measurements' : ''}`,
      prefillFactor: 1,
    };
  }
  const factor = range.precisions.includes(precision)
    ? (range.prefillFactor[hardware.family] ?? range.prefillFactor[hardware.vendor])
    : undefined;
  return {
    range: range.id,
    ...withGiven,
    label: `${engine.name} ${range.label}`,
    prefillFactor: factor ?? 1,
    basis:
      factor !== undefined
        ? `prefill ×${factor} of the current release's: ${range.evidence} (${range.source}, ${range.date})`
        : `no prefill change measured for ${precision} on ${hardware.family} between this range and the current one`,
  };
}

/** Throws EngineVersionError (saying what the engine accepts) when `given` names no release range of `engine`. */
export function checkEngineVersion(engine: EngineRow, given: string): void {
  findRange(engine, given);
}

function isCurrent(given: string): boolean {
  return given === CURRENT_RELEASE || given === 'latest';
}

function findRange(engine: EngineRow, given: string | undefined): OlderVersion | undefined {
  if (given === undefined || isCurrent(given)) return undefined;
  const ranges = engine.olderVersions;
  const named = ranges.find((r) => r.id === given);
  if (named) return named;
  if (DATE.test(given)) {
    const day = given.length === 7 ? `${given}-01` : given;
    return [...ranges].sort((a, b) => a.before.localeCompare(b.before)).find((r) => day < dayOf(r.before));
  }
  if (NUMBERED.test(given)) {
    const numbered = ranges.filter((r) => r.beforeVersion !== undefined);
    const version = given.replace(/^v/, '');
    if (ranges.length === 0) return undefined;
    if (numbered.length > 0)
      return numbered
        .sort((a, b) => compareVersions(a.beforeVersion as string, b.beforeVersion as string))
        .find((r) => compareVersions(version, r.beforeVersion as string) < 0);
  }
  const accepts = [CURRENT_RELEASE, ...ranges.map((r) => r.id)].join(', ');
  const numbered = ranges.some((r) => r.beforeVersion) ? ', a version (0.7.0)' : '';
  throw new EngineVersionError(
    `unknown ${engine.name} version '${given}'; give a build date (YYYY-MM or YYYY-MM-DD)${numbered} or one of: ${accepts}`,
  );
}

/** YYYY and YYYY-MM dates of a range boundary count from their first day. */
function dayOf(date: string): string {
  return date.length === 4 ? `${date}-01-01` : date.length === 7 ? `${date}-01` : date;
}

/** Numeric comparison of dotted versions: 0.10.1 > 0.9.2. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
