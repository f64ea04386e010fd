import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  deriveBands,
  fitEngines,
  fittedEngineRows,
  priorsFileSchema,
  type Residual,
} from '../../../../src/core/estimate/fit';
import {
  inRangeShare,
  median,
  medianAbsPctError,
  predictPoint,
  quantile,
  splitSources,
  type ValidationPoint,
} from '../../../../src/core/estimate/validation';
import { loadValidation } from '../../../../src/core/estimate/validationSet';

const ROOT = join(__dirname, '../../../..');
const loaded = loadValidation();

describe('validation set', () => {
  it('has at least 80 sourced points from 6 engines and 8 hardware types, every one predictable', () => {
    const { file, tables } = loaded;
    assert.ok(file.points.length >= 80, String(file.points.length));
    assert.ok(new Set(file.points.map((p) => p.engine)).size >= 6);
    assert.ok(new Set(file.points.map((p) => p.hardware)).size >= 8);
    for (const p of file.points) {
      const source = file.sources.find((s) => s.id === p.source);
      assert.ok(source && /^https:\/\//.test(source.url) && /^\d{4}/.test(source.date), p.id);
      assert.ok(p.engineVersion.length > 0 && p.measures.length > 0, p.id);
      assert.doesNotThrow(() => predictPoint(p, tables, 'fit'), p.id);
    }
    assert.equal(new Set(file.points.map((p) => p.id)).size, file.points.length, 'point ids are unique');
  });

  it('splits by source: no source has points in both halves, and each half has points', () => {
    const { split, fitPoints, checkPoints } = loaded;
    assert.ok(fitPoints.length > 0 && checkPoints.length > 0);
    const fitSources = new Set(fitPoints.map((p) => p.source));
    for (const p of checkPoints) assert.ok(!fitSources.has(p.source), p.id);
    for (const p of [...fitPoints, ...checkPoints]) assert.ok(split.has(p.source));
  });

  it('the split does not depend on point order, and puts a second source of an engine in the other half', () => {
    const point = (source: string, engine: string) => ({ source, engine }) as ValidationPoint;
    const points = [point('a', 'x'), point('b', 'x'), point('c', 'y'), point('a', 'x')];
    const forward = splitSources(points);
    const backward = splitSources([...points].reverse());
    assert.deepEqual([...forward.entries()].sort(), [...backward.entries()].sort());
    assert.notEqual(forward.get('a'), forward.get('b'));
  });

  it('a source keeps its recorded half when sources are added, and every built-in source has one', () => {
    const point = (source: string, engine: string) => ({ source, engine }) as ValidationPoint;
    const old = [point('a', 'x'), point('b', 'x'), point('c', 'y')];
    const before = splitSources(old);
    // Without the record, one more source may reshuffle old ones; with it, none moves.
    const added = [...old, ...['d', 'e', 'f', 'g'].map((s) => point(s, 'x'))];
    const after = splitSources(added, before);
    for (const [source, half] of before) assert.equal(after.get(source), half, source);
    assert.equal(
      ['d', 'e', 'f', 'g'].filter((s) => after.get(s) === 'fit').length,
      2,
      'new sources of one engine still go to both halves',
    );
    const recorded = splitSources([point('a', 'x'), point('b', 'x')], new Map([['a', 'check']]));
    assert.deepEqual([recorded.get('a'), recorded.get('b')], ['check', 'fit']);
    for (const s of loaded.file.sources) assert.equal(loaded.split.get(s.id), s.half, `${s.id} has a recorded half`);
  });

  it('data/engines.json holds what npm run fit derives from the fit half (nothing tuned by hand)', () => {
    const priors = priorsFileSchema.parse(JSON.parse(readFileSync(join(ROOT, 'data/engine-priors.json'), 'utf8')));
    const stored = JSON.parse(readFileSync(join(ROOT, 'data/engines.json'), 'utf8')) as {
      engines: { id: string; date: string; efficiency?: object; overheadMs: object; collectiveUs: number }[];
    };
    const fresh = fittedEngineRows(
      [...loaded.tables.engines.values()],
      fitEngines(loaded.fitPoints, loaded.tables, priors),
      stored.engines[0]?.date ?? '',
    );
    for (const row of stored.engines) {
      const again = fresh.find((f) => f.id === row.id);
      assert.deepEqual(
        { efficiency: again?.efficiency, overheadMs: again?.overheadMs, collectiveUs: again?.collectiveUs },
        { efficiency: row.efficiency, overheadMs: row.overheadMs, collectiveUs: row.collectiveUs },
        row.id,
      );
    }
  });

  it('every band is derived from residuals, says how, and brackets the prediction', () => {
    for (const band of loaded.tables.bands.values()) {
      assert.match(band.derivation, /percentile of measured\/predicted over all \d+ leave-one-source-out residuals/);
      assert.ok(band.low <= 1 && band.high >= 1, band.id);
    }
  });

  it('the printed range holds the held-out measurement as often as the goal says, without being made wide', () => {
    const { file, tables, checkPoints } = loaded;
    const rows = checkPoints.map((p) => predictPoint(p, tables, 'check'));
    assert.ok(inRangeShare(rows) >= file.goals.inRangeShare, `held out inside the range: ${inRangeShare(rows)}`);
    // A band wider than 3× (high ÷ low) would meet the goal by saying little.
    for (const band of tables.bands.values())
      assert.ok(band.high / band.low < 3, `${band.id}: ×${band.low}–×${band.high}`);
  });

  it('the README states the held-out figures npm run validate computes, and whether each goal is met', () => {
    const { file, tables, checkPoints } = loaded;
    const given = medianAbsPctError(checkPoints.map((p) => predictPoint(p, tables, 'check')));
    const byDefault = medianAbsPctError(checkPoints.map((p) => predictPoint(p, tables, 'check', null)));
    const inside = inRangeShare(checkPoints.map((p) => predictPoint(p, tables, 'check'))) * 100;
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    const bullet =
      /\*\*Validated\*\*.*?error \*\*([\d.]+) %\*\* with the engine given \(goal (\d+) %, \*\*(not met|met)\*\*\), ([\d.]+) % with the default engine \(goal (\d+) %, (not met|met)\); \*\*(\d+) %\*\* inside the printed range \(goal (\d+) %, (not met|met)\)/.exec(
        readme,
      );
    assert.ok(bullet, 'README has the Validated bullet');
    const [, g, gGoal, gMet, d, dGoal, dMet, r, rGoal, rMet] = bullet;
    assert.deepEqual(
      [g, d, r],
      [given.toFixed(1), byDefault.toFixed(1), inside.toFixed(0)],
      'README figures = npm run validate',
    );
    const g1 = file.goals;
    assert.deepEqual(
      [Number(gGoal), Number(dGoal), Number(rGoal) / 100],
      [g1.heldOutMedianAbsPctEngineGiven, g1.heldOutMedianAbsPctDefaultEngine, g1.inRangeShare],
    );
    const met = (ok: boolean) => (ok ? 'met' : 'not met');
    assert.deepEqual(
      [gMet, dMet, rMet],
      [
        met(given <= g1.heldOutMedianAbsPctEngineGiven),
        met(byDefault <= g1.heldOutMedianAbsPctDefaultEngine),
        met(inside / 100 >= g1.inRangeShare),
      ],
    );
  });

  it("a band is the pooled band, widened (never narrowed) by its class's own residuals", () => {
    const point = loaded.file.points[0]!;
    const residual = (engineClass: Residual['engineClass'], ratio: number, source: string): Residual => ({
      point: { ...point, source },
      engineClass,
      ratio,
    });
    // Server: 12 residuals inside 0.95–1.28; local: 4 fast (0.5–0.65) and 4 slow (1.5–1.65) ones.
    const server = Array.from({ length: 12 }, (_, i) => residual('server', 0.95 + i * 0.03, `s${i % 3}`));
    const local = [0.5, 0.55, 0.6, 0.65, 1.5, 1.55, 1.6, 1.65].map((r, i) => residual('local', r, `l${i % 2}`));
    const bands = deriveBands([...server, ...local], ['tuned', 'server', 'local'], '2026-12-02');
    const [tuned, srv, loc] = bands;
    const r3 = (v: number) => Number(v.toPrecision(3));
    const all = [...server, ...local].map((r) => r.ratio);
    const pooled = [r3(quantile(all, 0.05)), r3(quantile(all, 0.95))];
    // No residual of its own: the pooled band.
    assert.deepEqual([tuned!.low, tuned!.high, tuned!.own, tuned!.widened], [pooled[0], pooled[1], 0, false]);
    // Its own residuals lie inside the pooled band: the pooled band (the old rule narrowed it to its own 12).
    assert.deepEqual([srv!.low, srv!.high, srv!.own, srv!.widened], [pooled[0], pooled[1], 12, false]);
    // Its own reach further: each end widens to its own percentile.
    const own = local.map((r) => r.ratio);
    const ownBand = [r3(quantile(own, 0.05)), r3(quantile(own, 0.95))];
    assert.ok(ownBand[0]! < pooled[0]! && ownBand[1]! > pooled[1]!, `${ownBand} vs ${pooled}`);
    assert.deepEqual([loc!.low, loc!.high, loc!.widened], [ownBand[0], ownBand[1], true]);
    assert.match(
      loc!.derivation,
      /over all 20 leave-one-source-out residuals \(5 sources\).*widened to the 5th–95th percentile of its own 8 \(2 sources\)/,
    );
    // Adding one more residual to a class never narrows its band.
    for (const extra of [0.3, 0.95, 2]) {
      const more = deriveBands([...server, ...local, residual('server', extra, 's9')], ['server'], '2026-12-02')[0]!;
      const pooledNow = [...all, extra];
      assert.ok(more.low <= r3(quantile(pooledNow, 0.05)) && more.high >= r3(quantile(pooledNow, 0.95)), String(extra));
    }
  });

  it('median, quantile and the median absolute error follow their textbook definitions', () => {
    assert.equal(median([3, 1, 2]), 2);
    assert.equal(median([4, 1, 2, 3]), 2.5);
    assert.equal(quantile([1, 2, 3, 4, 5], 0.25), 2);
    assert.equal(quantile([10, 20], 0.05), 10.5);
    assert.equal(medianAbsPctError([{ errorPct: -30 }, { errorPct: 10 }, { errorPct: 20 }]), 20);
    assert.equal(medianAbsPctError([{ errorPct: -40 }, { errorPct: 10 }, { errorPct: 20 }, { errorPct: 5 }]), 15);
  });

  it('a throughput point becomes the time to process its prompt, and a prediction reports its range', () => {
    const p = loaded.file.points.find((q) => q.metric === 'prefill_tokens_per_s');
    assert.ok(p);
    const row = predictPoint(p, loaded.tables, 'fit');
    assert.ok(Math.abs(row.measuredMs - (p.inputTokens / p.measured) * 1000) < 1e-9);
    assert.ok(row.low <= row.predictedMs && row.predictedMs <= row.high);
    assert.equal(row.inRange, row.low <= row.measuredMs && row.measuredMs <= row.high);
  });
});
