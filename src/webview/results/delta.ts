// Live benchmark progress as deltas: while a run goes, the host re-posts the view's state every 250 ms,
// but only the progress text changes between levels, and a finished level never changes again. So a
// tick sends the changed top-level fields, and a finished level is sent once (its requests can be
// 100,000 records); `apply(state, diff(state, next))` equals `next`.
import type { BenchResult, LevelResult } from '../../core/bench/result';
import type { ResultsViewState } from './state';

type Head<T, K extends keyof T> = Omit<T, K>;

export interface ResultsDelta {
  /** Top-level fields (other than `result`) whose value changed. */
  set: Partial<Head<ResultsViewState, 'result'>>;
  /** Top-level fields now absent. */
  unset: Array<keyof ResultsViewState>;
  /** Absent: the result is unchanged (or absent in both). */
  result?: ResultChange;
}

export type ResultChange =
  /** Not an extension of the result held (first level, another run): the whole of it. */
  | { whole: BenchResult }
  /** The same run, further on: its fields apart from the levels, and the levels finished since. */
  | { head: Head<BenchResult, 'modes'>; appended: AppendedLevels[] };

export interface AppendedLevels {
  /** Index into `modes`; equal to the modes held for a mode that starts now. */
  mode: number;
  cache: BenchResult['modes'][number]['cache'];
  levels: LevelResult[];
}

/** What turns `from` into `to`; undefined when nothing changed. Finished levels are compared by identity. */
export function diffResultsState(from: ResultsViewState, to: ResultsViewState): ResultsDelta | undefined {
  const set: Partial<Head<ResultsViewState, 'result'>> = {};
  const unset: Array<keyof ResultsViewState> = [];
  const keys = new Set([...Object.keys(from), ...Object.keys(to)] as Array<keyof ResultsViewState>);
  for (const key of keys) {
    if (key === 'result' || from[key] === to[key]) continue;
    if (to[key] === undefined) unset.push(key);
    else (set as Record<string, unknown>)[key] = to[key];
  }
  let result: ResultChange | undefined;
  if (to.result === undefined) {
    if (from.result !== undefined) unset.push('result');
  } else if (to.result !== from.result) {
    result = resultChange(from.result, to.result);
  }
  if (Object.keys(set).length === 0 && unset.length === 0 && !result) return undefined;
  return { set, unset, ...(result ? { result } : {}) };
}

function resultChange(from: BenchResult | undefined, to: BenchResult): ResultChange {
  if (!from || from.startedAt !== to.startedAt || from.modes.length > to.modes.length) return { whole: to };
  const appended: AppendedLevels[] = [];
  for (const [mode, next] of to.modes.entries()) {
    const held = from.modes[mode];
    const kept = held?.levels.length ?? 0;
    if (held && (held.cache !== next.cache || !held.levels.every((level, i) => level === next.levels[i])))
      return { whole: to };
    if (next.levels.length > kept || !held) appended.push({ mode, cache: next.cache, levels: next.levels.slice(kept) });
  }
  const { modes: _modes, ...head } = to;
  return { head, appended };
}

/** The state `delta` was made to reach from `state`. */
export function applyResultsDelta(state: ResultsViewState, delta: ResultsDelta): ResultsViewState {
  const next: ResultsViewState = { ...state, ...delta.set };
  for (const key of delta.unset) delete next[key];
  const change = delta.result;
  if (change && 'whole' in change) next.result = change.whole;
  else if (change) {
    const modes = (state.result?.modes ?? []).map((m) => ({ ...m, levels: [...m.levels] }));
    for (const { mode, cache, levels } of change.appended) {
      const target = (modes[mode] ??= { cache, levels: [] });
      target.levels.push(...levels);
    }
    next.result = { ...change.head, modes };
  }
  return next;
}

/** A tick that only moves the progress text (most of them while a level runs). */
export function onlyProgress(delta: ResultsDelta): boolean {
  return !delta.result && delta.unset.length === 0 && Object.keys(delta.set).every((key) => key === 'progress');
}
