// Fits the engine rows (efficiencies, per-request overheads, collective latency) to the fit half of the
// validation set, and derives each engine class's TTFT band from leave-one-source-out residuals.
//
// Two levels: each engine's values are pulled toward its class's (tuned, server, local), and the class's
// toward the priors. An engine the fit half never measured gets its class's fitted values, so an engine
// with one published source is still predicted from data when that source sits in the held-out half.
// Deterministic: the same points and priors always give the same rows, so a test can check
// data/engines.json against a fresh fit.
import { z } from 'zod';
import { efficiencySchema, strict, type Efficiency, type EngineClass, type EngineRow } from './schemas';
import { prefillTime } from './selfHosted';
import type { Tables } from './tables';
import type { SelfHostedTarget } from './targets';
import { measuredMs, pointTarget, quantile, type ValidationPoint } from './validation';

export const priorsFileSchema = strict({
  $comment: z.string().optional(),
  engines: z.record(
    z.string(),
    strict({
      overheadMs: strict({ engine: z.number().nonnegative(), server: z.number().nonnegative() }),
      collectiveUs: z.number().positive(),
      efficiency: z.record(z.string(), efficiencySchema).optional(),
    }),
  ),
});
export type Priors = z.infer<typeof priorsFileSchema>;

/** Penalty per (ln ratio)² of an engine's value from its class's, and of a class's from its prior. */
export const SHRINK_WEIGHT = 0.1;
/** The band's ends: this quantile and its complement of the measured/predicted ratios (a nominal 90% range). */
export const BAND_QUANTILE = 0.05;
const EFFICIENCY_FIELDS = ['prefill', 'attention', 'decode', 'weightOnlyQuant'] as const;
const BOUNDS: Record<string, readonly [number, number]> = {
  efficiency: [0.005, 1],
  overhead: [0.01, 300],
  collective: [1, 500],
};

type Params = Map<string, number>;

/**
 * Parameter keys: `e:ENGINE:…` for an engine, `c:CLASS:…` for its class, with the same suffix:
 * `oh:engine`, `oh:server`, `col`, or `eff:KEY:FIELD` (KEY a vendor or family).
 */
interface Layout {
  /** Engine key → its class key. */
  parent: Map<string, string>;
  prior: Params;
}

function layout(tables: Tables, priors: Priors): Layout {
  const parent = new Map<string, string>();
  const prior: Params = new Map();
  const classValues = new Map<string, number[]>();
  for (const [id, row] of Object.entries(priors.engines)) {
    const engine = tables.engines.get(id);
    if (!engine) continue;
    const entries: [string, number][] = [
      ['oh:engine', row.overheadMs.engine],
      ['oh:server', row.overheadMs.server],
      ['col', row.collectiveUs],
      ...Object.entries(row.efficiency ?? {}).flatMap(([key, eff]) =>
        EFFICIENCY_FIELDS.map((f) => [`eff:${key}:${f}`, eff[f]] as [string, number]),
      ),
    ];
    for (const [suffix, value] of entries) {
      const cls = `c:${engine.class}:${suffix}`;
      parent.set(`e:${id}:${suffix}`, cls);
      prior.set(`e:${id}:${suffix}`, value);
      classValues.set(cls, [...(classValues.get(cls) ?? []), value]);
    }
  }
  // A class's prior: the geometric mean of its engines' priors.
  for (const [cls, values] of classValues)
    prior.set(cls, Math.exp(values.reduce((s, v) => s + Math.log(Math.max(v, 1e-3)), 0) / values.length));
  return { parent, prior };
}

/** A point with its deployment resolved once, and the engine parameter keys its prediction reads. */
interface Prepared {
  point: ValidationPoint;
  target: SelfHostedTarget;
  measuredMs: number;
  /** 1/√(points of its source): one large source does not outweigh many small ones. */
  weight: number;
  keys: { ohEngine: string; ohServer: string; col: string; eff: Record<(typeof EFFICIENCY_FIELDS)[number], string> };
  used: string[];
}

function prepare(points: readonly ValidationPoint[], tables: Tables, priors: Priors): Prepared[] {
  const perSource = new Map<string, number>();
  for (const p of points) perSource.set(p.source, (perSource.get(p.source) ?? 0) + 1);
  return points.map((point) => {
    const target = pointTarget(point, tables);
    const owner = target.engine.efficiencyFrom ?? target.engine.id;
    const rows = priors.engines[owner]?.efficiency ?? {};
    const key = rows[target.hardware.family] ? target.hardware.family : target.hardware.vendor;
    const e = `e:${target.engine.id}`;
    const eff = Object.fromEntries(
      EFFICIENCY_FIELDS.map((f) => [f, `e:${owner}:eff:${key}:${f}`]),
    ) as Prepared['keys']['eff'];
    const keys = { ohEngine: `${e}:oh:engine`, ohServer: `${e}:oh:server`, col: `${e}:col`, eff };
    const used = [
      keys.ohEngine,
      ...(point.scope === 'http' ? [keys.ohServer] : []),
      ...(target.parallel.tp * target.parallel.pp > 1 ? [keys.col] : []),
      ...Object.values(eff),
    ];
    return {
      point,
      target,
      measuredMs: measuredMs(point),
      weight: 1 / Math.sqrt(perSource.get(point.source) ?? 1),
      keys,
      used,
    };
  });
}

function predictMs(p: Prepared, params: Params): number {
  const get = (key: string) => params.get(key) as number;
  const efficiency: Efficiency = {
    prefill: get(p.keys.eff.prefill),
    attention: get(p.keys.eff.attention),
    decode: get(p.keys.eff.decode),
    weightOnlyQuant: get(p.keys.eff.weightOnlyQuant),
  };
  const engine = {
    ...p.target.engine,
    overheadMs: { engine: get(p.keys.ohEngine), server: get(p.keys.ohServer) },
    collectiveUs: get(p.keys.col),
  };
  return prefillTime({ ...p.target, efficiency, engine }, p.point.inputTokens, 0).totalMs;
}

function bounds(key: string): readonly [number, number] {
  if (key.includes(':eff:')) return BOUNDS.efficiency as readonly [number, number];
  return (key.endsWith(':col') ? BOUNDS.collective : BOUNDS.overhead) as readonly [number, number];
}

const sq = (x: number) => x * x;

/** Coordinate descent in log space, a golden-section search per parameter within its bounds. */
function minimise(points: readonly Prepared[], lay: Layout): Params {
  const params = new Map(lay.prior);
  const engineKeys = [...new Set(points.flatMap((p) => p.used))].sort();
  const classKeys = [...new Set(engineKeys.map((k) => lay.parent.get(k) as string))].sort();
  const touching = new Map(engineKeys.map((k) => [k, points.filter((p) => p.used.includes(k))]));
  const children = new Map(classKeys.map((c) => [c, engineKeys.filter((k) => lay.parent.get(k) === c)]));
  const shrink = (key: string, toward: string) =>
    SHRINK_WEIGHT * sq(Math.log((params.get(key) as number) / (params.get(toward) as number)));
  const localLoss = (key: string): number => {
    if (key.startsWith('c:'))
      return (
        (children.get(key) as string[]).reduce((s, child) => s + shrink(child, key), 0) +
        SHRINK_WEIGHT * sq(Math.log((params.get(key) as number) / (lay.prior.get(key) as number)))
      );
    let sum = shrink(key, lay.parent.get(key) as string);
    for (const p of touching.get(key) as Prepared[])
      sum += p.weight * sq(Math.log(predictMs(p, params) / p.measuredMs));
    return sum;
  };
  const phi = (Math.sqrt(5) - 1) / 2;
  for (let sweep = 0; sweep < 40; sweep++) {
    let moved = 0;
    for (const key of [...engineKeys, ...classKeys]) {
      const [lo, hi] = bounds(key);
      const at = (x: number) => {
        params.set(key, Math.exp(x));
        return localLoss(key);
      };
      const before = params.get(key) as number;
      let a = Math.log(lo);
      let b = Math.log(hi);
      for (let i = 0; i < 40; i++) {
        const c = b - phi * (b - a);
        const d = a + phi * (b - a);
        if (at(c) < at(d)) b = d;
        else a = c;
      }
      params.set(key, Math.exp((a + b) / 2));
      moved = Math.max(moved, Math.abs(Math.log((params.get(key) as number) / before)));
    }
    if (moved < 1e-6) break;
  }
  // An engine value no point measured takes its class's fitted value.
  for (const [key, cls] of lay.parent) if (!engineKeys.includes(key)) params.set(key, params.get(cls) as number);
  return params;
}

export interface FitResult {
  params: Params;
  /** Points and sources behind each engine value (the `e:` keys); absent: its class's value. */
  support: Map<string, { points: number; sources: Set<string> }>;
}

export function fitEngines(points: readonly ValidationPoint[], tables: Tables, priors: Priors): FitResult {
  const prepared = prepare(points, tables, priors);
  const params = minimise(prepared, layout(tables, priors));
  const support = new Map<string, { points: number; sources: Set<string> }>();
  for (const p of prepared)
    for (const key of p.used) {
      const s = support.get(key) ?? { points: 0, sources: new Set<string>() };
      s.points += 1;
      s.sources.add(p.point.source);
      support.set(key, s);
    }
  return { params, support };
}

const round3 = (v: number) => Number(v.toPrecision(3));
const round1 = (v: number) => Math.round(v * 10) / 10;

function basisOf(fit: FitResult, key: string, cls: string): string {
  const s = fit.support.get(key);
  return s
    ? `fitted on ${s.points} point(s) from ${s.sources.size} source(s)`
    : `its class's (${cls}) fitted value: no point in the fit half`;
}

/** The engine rows with fitted values (efficiencies to 3 significant digits, times to 0.1 ms / 1 µs). */
export function fittedEngineRows(rows: readonly EngineRow[], fit: FitResult, date: string): EngineRow[] {
  const value = (key: string, fallback: number) => fit.params.get(key) ?? fallback;
  return rows.map((row) => {
    const e = `e:${row.id}`;
    const efficiency = row.efficiency
      ? Object.fromEntries(
          Object.entries(row.efficiency).map(([key, eff]) => [
            key,
            {
              prefill: round3(value(`${e}:eff:${key}:prefill`, eff.prefill)),
              attention: round3(value(`${e}:eff:${key}:attention`, eff.attention)),
              decode: round3(value(`${e}:eff:${key}:decode`, eff.decode)),
              weightOnlyQuant: round3(value(`${e}:eff:${key}:weightOnlyQuant`, eff.weightOnlyQuant)),
              basis: basisOf(fit, `${e}:eff:${key}:prefill`, row.class),
            },
          ]),
        )
      : undefined;
    return {
      ...row,
      date,
      source: 'npm run fit on the fit half of data/validation.json (priors: data/engine-priors.json)',
      overheadMs: {
        engine: round1(value(`${e}:oh:engine`, row.overheadMs.engine)),
        server: round1(value(`${e}:oh:server`, row.overheadMs.server)),
        basis: `engine: ${basisOf(fit, `${e}:oh:engine`, row.class)}; server: ${basisOf(fit, `${e}:oh:server`, row.class)}`,
      },
      collectiveUs: Math.round(value(`${e}:col`, row.collectiveUs)),
      ...(efficiency ? { efficiency } : {}),
    };
  });
}

/** Tables whose engine rows carry the fitted values. */
export function withFit(tables: Tables, fit: FitResult): Tables {
  const engines = new Map(
    fittedEngineRows([...tables.engines.values()], fit, '0000').map((row) => [row.id, row] as const),
  );
  return { ...tables, engines };
}

export interface Residual {
  point: ValidationPoint;
  engineClass: EngineClass;
  /** measured / predicted, the prediction from a fit that never saw the point's source. */
  ratio: number;
}

/** Leave one source out: each fit-half source predicted from a fit on the other fit-half sources. */
export function leaveOneSourceOut(points: readonly ValidationPoint[], tables: Tables, priors: Priors): Residual[] {
  const sources = [...new Set(points.map((p) => p.source))].sort();
  const residuals: Residual[] = [];
  for (const source of sources) {
    const fitted = withFit(
      tables,
      fitEngines(
        points.filter((p) => p.source !== source),
        tables,
        priors,
      ),
    );
    for (const point of points.filter((p) => p.source === source)) {
      const target = pointTarget(point, fitted);
      const predicted = prefillTime(target, point.inputTokens, 0).totalMs;
      residuals.push({ point, engineClass: target.engine.class, ratio: measuredMs(point) / predicted });
    }
  }
  return residuals;
}

export interface DerivedBand {
  id: EngineClass;
  low: number;
  high: number;
  /** Residuals of every class (the pooled band's). */
  residuals: number;
  /** The class's own residuals (0: the band is the pooled one). */
  own: number;
  /** Whether the class's own residuals reach beyond the pooled band at either end (and so widened it). */
  widened: boolean;
  derivation: string;
}

/**
 * Each class's band: the 5th and 95th percentiles of every class's out-of-sample measured/predicted ratios (the
 * pooled band), widened to the class's own 5th/95th percentile where its own residuals reach further. A class's
 * few residuals can widen its band but never narrow it below the pooled one, so the band cannot swing from the
 * pooled residuals to one class's few sources as a class gains or loses a residual (rule of 2026-12-02,
 * docs/estimates.md; before, a class with ≥ 8 residuals used only its own).
 */
export function deriveBands(
  residuals: readonly Residual[],
  classes: readonly EngineClass[],
  date: string,
): DerivedBand[] {
  const all = residuals.map((r) => r.ratio);
  const pooledLow = quantile(all, BAND_QUANTILE);
  const pooledHigh = quantile(all, 1 - BAND_QUANTILE);
  const allSources = new Set(residuals.map((r) => r.point.source)).size;
  const percent = `${BAND_QUANTILE * 100}th–${100 - BAND_QUANTILE * 100}th percentile`;
  return classes.map((id) => {
    const own = residuals.filter((r) => r.engineClass === id);
    const ownRatios = own.map((r) => r.ratio);
    const ownLow = own.length > 0 ? quantile(ownRatios, BAND_QUANTILE) : pooledLow;
    const ownHigh = own.length > 0 ? quantile(ownRatios, 1 - BAND_QUANTILE) : pooledHigh;
    const low = Math.min(1, round3(Math.min(pooledLow, ownLow)));
    const high = Math.max(1, round3(Math.max(pooledHigh, ownHigh)));
    const widened = ownLow < pooledLow || ownHigh > pooledHigh;
    const ownSources = sourcesText(new Set(own.map((r) => r.point.source)).size);
    const ownText =
      own.length === 0
        ? `no residual of ${id} engines`
        : widened
          ? `widened to the ${percent} of its own ${own.length} (${ownSources})`
          : `its own ${own.length} (${ownSources}) lie within it`;
    return {
      id,
      low,
      high,
      residuals: residuals.length,
      own: own.length,
      widened,
      derivation:
        `×${low}–×${high}: ${percent} of measured/predicted over all ${residuals.length} leave-one-source-out ` +
        `residuals (${sourcesText(allSources)}) of the fit half, ${ownText}; npm run fit, ${date}`,
    };
  });
}

const sourcesText = (n: number) => `${n} source${n === 1 ? '' : 's'}`;
