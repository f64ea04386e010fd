import assert from 'node:assert/strict';
import { countingHover, pendingLines } from '../../../src/extension/surfaces/targetTable';

/** What the hover and status bar tooltip say while the analysis is still coming in (#19 goal 3). */
describe('pending markers (hover, status bar tooltip)', () => {
  it('says what is not in yet, in words a user reads, and nothing once all is in', () => {
    assert.deepEqual(pendingLines({ findingsPending: 'running' }, true), [
      '$(sync~spin) Findings and warm figures: pending… (tokens and cold figures are final)',
      '$(sync~spin) Cheapest target meeting the SLO: pending…',
    ]);
    assert.deepEqual(pendingLines({ findingsPending: 'scan' }, false), [
      '$(sync~spin) Findings: pending… (the workspace scan is still running: prompts sharing this prefix may be missing)',
    ]);
    assert.deepEqual(pendingLines({}, false), []);
    assert.equal(countingHover(), '**Prompt Latency Lens** — tokens: pending… (this version is being counted)');
  });

  it('every marker goes through the translator (vscode.l10n.t in the editor)', () => {
    const asked: string[] = [];
    const t = (message: string) => {
      asked.push(message);
      return `<${message}>`;
    };
    const lines = [
      ...pendingLines({ findingsPending: 'running' }, true, t),
      ...pendingLines({ findingsPending: 'scan' }, false, t),
    ];
    assert.ok(
      lines.every((l) => /^\$\(sync~spin\) <[^<>]+pending…[^<>]*>$/.test(l)),
      lines.join('\n'),
    );
    assert.equal(countingHover(t), `<${countingHover()}>`);
    assert.equal(asked.length, 4);
  });
});
