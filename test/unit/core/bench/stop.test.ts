import assert from 'node:assert/strict';
import { getEventListeners, once } from 'node:events';
import { MAX_TIMER_MS, StopSwitch, timerMs } from '../../../../src/core/bench/stop';

describe('stop switch: a run or a request ended by its caller or its limit', () => {
  it('an already-aborted caller signal stops it at once, as cancelled', () => {
    const outer = new AbortController();
    outer.abort();
    const stop = new StopSwitch(outer.signal, undefined, 'timeout');
    assert.deepEqual([stop.reason, stop.signal.aborted], ['cancelled', true]);
    stop.close();
  });

  it('without a limit only the caller stops it; the first reason is kept', async () => {
    const outer = new AbortController();
    const open = new StopSwitch(outer.signal, undefined, 'time-limit');
    assert.deepEqual([open.reason, open.signal.aborted], [undefined, false]);
    outer.abort();
    assert.deepEqual([open.reason, open.signal.aborted], ['cancelled', true]);
    open.close();

    const caller = new AbortController();
    const limited = new StopSwitch(caller.signal, 1, 'time-limit');
    await once(limited.signal, 'abort');
    caller.abort();
    assert.equal(limited.reason, 'time-limit');
    limited.close();
  });

  it('close drops its listener on the caller signal, so a later cancel changes nothing', () => {
    const outer = new AbortController();
    const stop = new StopSwitch(outer.signal, 60_000, 'timeout');
    assert.equal(getEventListeners(outer.signal, 'abort').length, 1);
    stop.close();
    assert.equal(getEventListeners(outer.signal, 'abort').length, 0);
    outer.abort();
    assert.deepEqual([stop.reason, stop.signal.aborted], [undefined, false]);
  });

  it('holds a limit above setTimeout’s largest delay at that delay', () => {
    assert.deepEqual([timerMs(5), timerMs(MAX_TIMER_MS), timerMs(MAX_TIMER_MS + 1)], [5, MAX_TIMER_MS, MAX_TIMER_MS]);
  });
});
