import assert from 'node:assert/strict';
import type { BenchMessages } from '../../../src/core/bench/benchPrompt';
import {
  readSentMessages,
  SENT_MESSAGES_TRIES,
  type SentMessagesReader,
} from '../../../src/extension/bench/sentMessages';

interface Analysis {
  version: number;
  tooLarge?: string;
}

/** A document typed into: each read of the analysis sees the next version; the worker answers for `answered` only. */
function typedInto(versions: Analysis[], answered: (version: number) => boolean) {
  const reads: number[] = [];
  const reader: SentMessagesReader<Analysis> = {
    current: () => Promise.resolve(versions[Math.min(reads.length, versions.length - 1)]),
    messages: (analysis) => {
      reads.push(analysis.version);
      const prompt: BenchMessages = { ok: true, messages: [{ role: 'user', content: `v${analysis.version}` }] };
      return Promise.resolve(answered(analysis.version) ? prompt : undefined);
    },
  };
  return { reader, reads };
}

describe('readSentMessages (Benchmark and Calibrate read one version of the prompt)', () => {
  it('answers the analysis and the messages of the same version', async () => {
    const { reader, reads } = typedInto([{ version: 4 }], () => true);
    const read = await readSentMessages(reader);
    assert.ok('analysis' in read);
    assert.equal(read.analysis.version, 4);
    assert.deepEqual(read.prompt, { ok: true, messages: [{ role: 'user', content: 'v4' }] });
    assert.deepEqual(reads, [4]);
  });

  it('reads again after an edit came between the analysis and the messages', async () => {
    const { reader, reads } = typedInto([{ version: 1 }, { version: 2 }, { version: 3 }], (v) => v === 3);
    const read = await readSentMessages(reader);
    assert.ok('analysis' in read);
    assert.equal(read.analysis.version, 3);
    assert.deepEqual(reads, [1, 2, 3]);
  });

  it(`says the file kept changing after ${SENT_MESSAGES_TRIES} reads that each lost the race`, async () => {
    const versions = [1, 2, 3, 4, 5].map((version) => ({ version }));
    const { reader, reads } = typedInto(versions, () => false);
    assert.deepEqual(await readSentMessages(reader), { keptChanging: true });
    assert.deepEqual(reads, [1, 2, 3]);
  });

  it('says why a file cannot be read, without asking for its messages', async () => {
    const tooLarge = typedInto([{ version: 1, tooLarge: 'over promptLens.maxFileBytes' }], () => true);
    assert.deepEqual(await readSentMessages(tooLarge.reader), { unreadable: 'over promptLens.maxFileBytes' });
    assert.deepEqual(tooLarge.reads, []);
    const notPrompt: SentMessagesReader<Analysis> = {
      current: () => Promise.resolve(undefined),
      messages: () => assert.fail('no analysis: nothing to read'),
    };
    assert.deepEqual(await readSentMessages(notPrompt), { unreadable: 'not a prompt' });
  });
});
