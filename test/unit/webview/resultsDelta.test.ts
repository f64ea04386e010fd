import assert from 'node:assert/strict';
import type { BenchResult } from '../../../src/core/bench/result';
import { runBenchmark } from '../../../src/core/bench/runner';
import { receive, type Synced, type ToWebview } from '../../../src/webview/protocol';
import {
  applyResultsDelta,
  diffResultsState,
  onlyProgress,
  type ResultsDelta,
} from '../../../src/webview/results/delta';
import type { ResultsViewState } from '../../../src/webview/results/state';
import { chatChunk, scriptedServer, sse, writeSlowly, type ScriptedServer } from '../helpers/scriptedServer';

/** What postMessage delivers: a structured clone (plain JSON here), never the host's objects. */
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The host's side (as PanelHost does it): whole first, then deltas from the state posted before. */
function post(states: readonly ResultsViewState[]): Array<ToWebview<ResultsViewState, ResultsDelta>> {
  const messages: Array<ToWebview<ResultsViewState, ResultsDelta>> = [];
  let posted: ResultsViewState | undefined;
  let seq = 0;
  for (const state of states) {
    const delta = posted && diffResultsState(posted, state);
    if (!posted) messages.push({ type: 'state', seq: ++seq, state });
    else if (delta) messages.push({ type: 'delta', seq: ++seq, delta });
    else continue;
    posted = state;
  }
  return messages.map(clone);
}

const requestsIn = (value: unknown): number => (JSON.stringify(value).match(/"startMs":/g) ?? []).length;

describe('results view deltas (live benchmark progress)', () => {
  let server: ScriptedServer;
  before(async () => {
    server = await scriptedServer((_req, res) =>
      writeSlowly(res, [
        [2, sse(chatChunk('a'))],
        [2, sse(chatChunk(' b'), { choices: [], usage: { completion_tokens: 2 } }, '[DONE]')],
      ]),
    );
  });
  after(() => server.close());

  /** The states Benchmark This Prompt shows during a real run: start, every progress tick, every level, the end. */
  async function liveStates(previous?: BenchResult): Promise<{ states: ResultsViewState[]; result: BenchResult }> {
    const base = { prompt: 'support.prompt', endpoint: 'local · m', ...(previous ? { previous } : {}) };
    const states: ResultsViewState[] = [{ ...base, running: true, progress: 'starting' }];
    let soFar: BenchResult | undefined;
    const live = (progress: string) =>
      states.push({ ...base, running: true, progress, ...(soFar ? { result: soFar } : {}) });
    const result = await runBenchmark({
      endpoint: { name: 'local', kind: 'openai-chat', baseUrl: `${server.url}/v1`, model: 'm' },
      messages: [{ role: 'user', content: 'Hello?' }],
      maxTokens: 8,
      requests: 5,
      concurrency: [1, 2],
      cache: 'both',
      timeoutMs: 2000,
      countTokens: () => 1,
      onProgress: (p) => live(`${p.cache} · ${p.level} · ${p.done}/${p.total}`),
      onLevel: (r) => {
        soFar = r;
        live('next level');
      },
    });
    states.push({ ...base, running: false, result });
    return { states, result };
  }

  it('applying the deltas in order gives every state the host set, and each finished level is sent once', async () => {
    const previous = (await liveStates()).result;
    const { states, result } = await liveStates(previous);
    const messages = post(states);
    assert.equal(messages[0]!.type, 'state');
    let held: Synced<ResultsViewState> | undefined;
    let i = 0;
    for (const message of messages) {
      const next = receive(held, message, applyResultsDelta);
      assert.notEqual(next, 'resync', `message ${message.seq}`);
      held = next as Synced<ResultsViewState>;
      // Skipped states were equal to the one before (no delta): match the webview's to the next one set.
      while (i < states.length - 1 && diffResultsState(states[i]!, states[i + 1]!) === undefined) i++;
      assert.deepEqual(held.state, clone(states[i]), `state ${i} after message ${message.seq}`);
      i++;
    }
    assert.equal(i, states.length);
    assert.deepEqual(held!.state, clone(states[states.length - 1]));

    const deltas = messages.flatMap((m) => (m.type === 'delta' ? [m.delta] : []));
    // Every request record crosses once, in the delta that finished its level; the previous run not again.
    const records = result.modes.reduce((n, m) => n + m.levels.reduce((k, l) => k + l.requests.length, 0), 0);
    assert.equal(records, 20);
    assert.equal(requestsIn(deltas), records);
    assert.equal(requestsIn(messages[0]), requestsIn(previous));
    // Progress ticks carry the text alone: tens of bytes, however many samples the run holds.
    const ticks = deltas.filter(onlyProgress);
    assert.ok(ticks.length >= 15, `${ticks.length} progress-only ticks`);
    for (const tick of ticks) assert.ok(JSON.stringify(tick).length < 100, JSON.stringify(tick));
    // The levels arrive as appended levels, not whole results (the first level starts the result).
    const levelDeltas = deltas.filter((d) => d.result);
    assert.ok(levelDeltas.slice(1).every((d) => d.result && 'appended' in d.result));
  });

  it('a gap in the sequence, or a delta with no state held (a reloaded view), asks for the whole state', () => {
    const a: ResultsViewState = { prompt: 'p', endpoint: 'e', running: true, progress: '1/9' };
    const b: ResultsViewState = { ...a, progress: '2/9' };
    const delta = diffResultsState(a, b)!;
    const held = { seq: 4, state: a };
    assert.equal(receive(held, { type: 'delta', seq: 6, delta }, applyResultsDelta), 'resync');
    assert.equal(receive(held, { type: 'delta', seq: 4, delta }, applyResultsDelta), 'resync');
    assert.equal(receive(undefined, { type: 'delta', seq: 5, delta }, applyResultsDelta), 'resync');
    assert.deepEqual(receive(held, { type: 'delta', seq: 5, delta }, applyResultsDelta), { seq: 5, state: b });
    // The whole state is taken whatever was held.
    assert.deepEqual(receive(held, { type: 'state', seq: 9, state: b }, applyResultsDelta), { seq: 9, state: b });
  });

  it('sends a result whole when it is not the held one grown, and removes what the new state lacks', async () => {
    const { result } = await liveStates();
    const other = { ...result, startedAt: '2026-12-01T00:00:00.000Z' };
    const base: ResultsViewState = { prompt: 'p', endpoint: 'e', running: false, result };
    const cases: Array<[string, ResultsViewState, ResultsViewState, 'whole' | 'appended' | 'none']> = [
      ['another run', base, { ...base, result: other }, 'whole'],
      [
        'a finished level replaced',
        base,
        {
          ...base,
          result: { ...result, modes: result.modes.map((m) => ({ ...m, levels: m.levels.map((l) => ({ ...l })) })) },
        },
        'whole',
      ],
      ['fewer modes', base, { ...base, result: { ...result, modes: result.modes.slice(0, 1) } }, 'whole'],
      [
        'the same levels, marked partial',
        base,
        { ...base, result: { ...result, partial: true, partialReason: 'cancelled' } },
        'appended',
      ],
      [
        'no result any more, a comparison instead',
        base,
        { prompt: 'p', endpoint: 'e', running: true, compare: other },
        'none',
      ],
    ];
    for (const [name, from, to, kind] of cases) {
      const delta = diffResultsState(from, to)!;
      assert.ok(delta, name);
      assert.equal(delta.result ? ('whole' in delta.result ? 'whole' : 'appended') : 'none', kind, name);
      assert.deepEqual(applyResultsDelta(clone(from), clone(delta)), clone(to), name);
    }
    assert.equal(diffResultsState(base, { ...base }), undefined, 'nothing changed: nothing sent');
  });
});
