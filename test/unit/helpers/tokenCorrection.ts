import type { TokenCorrection } from '../../../src/core/calibrate/tokenCorrection';

/** The simulator endpoint the correction tests were billed by. */
export const SIM_ENDPOINT = { name: 'sim', baseUrl: 'http://127.0.0.1:1/v1', model: 'prompt-lens-simulator' };

/** A claude correction fitted on two prompt sizes: billed = 1.1 × local + 10, from 4 requests. */
export function sampleCorrection(over: Partial<TokenCorrection> = {}): TokenCorrection {
  return {
    tokenizer: 'claude',
    endpoint: SIM_ENDPOINT,
    fit: 'line',
    ratio: 1.1,
    offset: 10,
    requests: 4,
    sizes: 2,
    samples: [
      { local: 100, billed: 120, requests: 2 },
      { local: 200, billed: 230, requests: 2 },
    ],
    date: '2026-12-01T22:00:00.000Z',
    ...over,
  };
}
