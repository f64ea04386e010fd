import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { formatStalls, formatSteal, measureStalls, parseProcStat, stealShare } from '../../../bench/machine';

describe('bench machine state', () => {
  // A 2-CPU guest's /proc/stat, shortened: the aggregate line, then one per CPU.
  const stat = (user: number, idle: number, steal: number, guest = 0) =>
    `cpu  ${user} 10 20 ${idle} 5 0 3 ${steal} ${guest} 0\ncpu0 1 2 3 4 5 6 7 8 9 10\nintr 12345\n`;

  it('reads the aggregate cpu line: steal, and a total without guest time (already in user)', () => {
    assert.deepEqual(parseProcStat(stat(100, 800, 40, 30)), { total: 100 + 10 + 20 + 800 + 5 + 0 + 3 + 40, steal: 40 });
  });

  it('refuses a line it cannot read rather than guessing', () => {
    assert.equal(parseProcStat('cpu0 1 2 3 4 5 6 7 8\n'), undefined, 'no aggregate line');
    assert.equal(parseProcStat('cpu  1 2 3 4 5 6 7\n'), undefined, 'no steal field (kernels before 2.6.11)');
    assert.equal(parseProcStat('cpu  1 2 x 4 5 6 7 8\n'), undefined);
  });

  it('gives the share of CPU time stolen between two readings', () => {
    const share = stealShare(parseProcStat(stat(100, 800, 40)), parseProcStat(stat(160, 900, 70)));
    assert.equal(share, 30 / (60 + 100 + 30));
    assert.equal(formatSteal(share), 'steal 15.8 %');
  });

  it('says nothing where a reading is missing or no time passed', () => {
    const one = parseProcStat(stat(100, 800, 40));
    assert.equal(stealShare(undefined, one), undefined);
    assert.equal(stealShare(one, one), undefined);
    assert.equal(formatSteal(undefined), 'steal –');
  });

  it('measures stalls with one clock-reading thread per CPU and says what it saw', async () => {
    const stalls = await measureStalls(100);
    assert.equal(stalls.cpuSeconds, availableParallelism() * 0.1);
    assert.ok(Number.isInteger(stalls.over5ms) && stalls.over5ms >= 0);
    // Some gap is always longer than zero; none can be longer than the run plus its start.
    assert.ok(stalls.longestMs > 0 && stalls.longestMs < 100 + 1000, String(stalls.longestMs));
    assert.match(formatStalls(stalls), /^\d+ stalls? ≥ 5 ms in [\d.]+ CPU-seconds .*, the longest [\d.]+ ms; steal /);
  });
});
