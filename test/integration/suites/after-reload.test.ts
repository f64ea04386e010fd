// Runs in the new extension host after the harness reloaded the window in the middle of a benchmark.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { HistoryEntry } from '../../../src/extension/bench/history';
import { EXTENSION_ID, extensionApi, queryWebviews, waitFor } from '../helpers';

describe('after a window reload', () => {
  it('the benchmark interrupted by the reload was saved, marked partial, beside the earlier runs', async () => {
    await waitFor(
      'activation',
      () => (vscode.extensions.getExtension(EXTENSION_ID)?.isActive ? true : undefined),
      30_000,
    ).catch(() => extensionApi());
    const root = join((await extensionApi()).historyRoot(), 'history');
    const entries = readdirSync(root).flatMap((hash) =>
      readdirSync(join(root, hash))
        .filter((f) => f.endsWith('.json'))
        .map((f) => JSON.parse(readFileSync(join(root, hash, f), 'utf8')) as HistoryEntry),
    );
    const interrupted = entries.filter((e) => e.result.endpoint.name === 'reload-sim');
    assert.equal(interrupted.length, 1, 'one saved run of the interrupted benchmark');
    assert.equal(interrupted[0]!.result.partial, true);
    assert.equal(interrupted[0]!.result.partialReason, 'cancelled');
    const measured = interrupted[0]!.result.modes.flatMap((m) => m.levels.flatMap((l) => l.requests)).length;
    assert.ok(measured > 0 && measured < 2000, `kept ${measured} finished requests`);
    assert.ok(entries.length > interrupted.length, 'earlier runs are still in the history');
  });

  it('the results view is restored by its serializer, no longer shown as running', async () => {
    const api = await extensionApi();
    const state = await waitFor('the restored results view', () => api.resultsState(), 30_000);
    assert.equal(state.running, false);
    const heading = await waitFor(
      'the restored view in Chromium',
      async () => {
        const found = await queryWebviews('after-reload', 'main h1');
        return found.texts.some((t) => t.startsWith('Benchmark:')) ? found : undefined;
      },
      30_000,
    );
    assert.equal(heading.scripted, false);
  });
});
