import assert from 'node:assert/strict';
import { cachedLabel, workloadLabel } from '../../../src/core/estimate/scenarios';
import { english, type Translate } from '../../../src/core/l10n';

/** A stand-in for a translation bundle: marks each message, keeps the arguments as given. */
const marked: Translate = (message, ...args) => english(`«${message}»`, ...args);

describe('core presentation words go through a translator (the extension passes vscode.l10n.t)', () => {
  it('english fills {0}, {1}… and leaves a placeholder without an argument', () => {
    assert.equal(english('{0} of {1} tokens cached', '2,048', '5,788'), '2,048 of 5,788 tokens cached');
    assert.equal(english('{0} and {1}', 'a'), 'a and {1}');
  });

  it('workload and cache labels: English by default, the numbers formatted the same under any translator', () => {
    assert.equal(
      workloadLabel({ concurrency: 8, outputTokens: 256 } as Parameters<typeof workloadLabel>[0]),
      '8 concurrent requests, 256 output tokens',
    );
    assert.equal(
      workloadLabel({ concurrency: 1, outputTokens: 1 } as Parameters<typeof workloadLabel>[0]),
      '1 request at a time, 1 output token',
    );
    assert.equal(
      workloadLabel({ concurrency: 1200, outputTokens: 4096 } as Parameters<typeof workloadLabel>[0], marked),
      '«1,200 concurrent requests», «4,096 output tokens»',
    );
    assert.equal(cachedLabel({ cachedTokens: 2048, inputTokens: 5788 }, marked), '«2,048 of 5,788 tokens cached»');
  });
});
