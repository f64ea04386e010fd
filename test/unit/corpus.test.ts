import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { labelledInputs, publicInputs } from '../../scripts/corpus';
import { defaultReport, GOALS, LabelledCorpus, precisionOf, PublicManifest, score } from '../../scripts/corpusEval';

const CORPUS = join(__dirname, '../corpus');
const read = (name: string): unknown => JSON.parse(readFileSync(join(CORPUS, name), 'utf8'));

describe('labelled corpus (npm run corpus measures the same)', function () {
  this.timeout(120_000);

  it('every labelled finding is reported, and warnings and information findings meet their precision goals', () => {
    const corpus = LabelledCorpus.parse(read('labels.json'));
    const result = score(defaultReport(labelledInputs(corpus.include)), corpus.labels);
    assert.deepEqual(result.missed, [], 'expected findings not reported');
    assert.deepEqual(result.unlabelled, [], 'findings no label expects (wrong, or the labels need a look)');
    const warnings = precisionOf([result], 'warning');
    const information = precisionOf([result], 'information');
    assert.ok(
      warnings.reported >= 5 && warnings.correct / warnings.reported >= GOALS.warning,
      JSON.stringify(warnings),
    );
    assert.ok(
      information.reported >= 5 && information.correct / information.reported >= GOALS.information,
      JSON.stringify(information),
    );
  });

  it('the public part reads only a local copy, and says so when there is none (nothing is downloaded)', () => {
    const manifest = PublicManifest.parse(read('public.json'));
    const absent = publicInputs(manifest, join(CORPUS, 'no-such-mirror'));
    assert.equal(typeof absent, 'string');
    assert.match(
      absent as string,
      /^no local copy of github\/awesome-copilot \(looked in .*no-such-mirror\); clone https:/,
    );
  });
});
