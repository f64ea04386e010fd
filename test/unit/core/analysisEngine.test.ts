import assert from 'node:assert/strict';
import { packSources } from '../../../src/core/analysis/batches';
import { benchMessages } from '../../../src/core/bench/benchPrompt';
import { AnalysisEngine, type CountResult, type EngineConfig } from '../../../src/core/analysis/engine';
import { resolveProfile } from '../../../src/core/compare';
import { countPrompt } from '../../../src/core/count';
import { loadTables, parseTargetId, resolveTarget } from '../../../src/core/estimate';
import { buildReport } from '../../../src/core/findings/report';
import { lineColumn } from '../../../src/core/findings/request';
import { parseFindingSettings } from '../../../src/core/findings/settings';
import { findingTarget } from '../../../src/core/findings/targets';
import { promptOutline } from '../../../src/core/prompt/outline';
import { parsePrompt } from '../../../src/core/prompt/parse';
import { applyEdits, type TextEdit } from '../../../src/core/tokenize/incremental';
import { getTokenizer } from '../../../src/core/tokenize/registry';

const { tables } = loadTables();

function config(targetIds: string[]): EngineConfig {
  return {
    tables,
    targets: targetIds.map((id) => resolveTarget(parseTargetId(id), tables)),
    findings: parseFindingSettings({}).settings,
    variablePatterns: [],
    disabledFormats: [],
    assume: {},
    workload: { concurrency: 8, outputTokens: 256 },
  };
}

function engineWith(targetIds: string[]): AnalysisEngine {
  const engine = new AnalysisEngine();
  engine.configure(config(targetIds));
  return engine;
}

const fresh = (fileName: string, text: string, tokenizer: 'o200k_base' | 'llama3', model?: string) =>
  countPrompt(parsePrompt(fileName, text), getTokenizer(tokenizer), undefined, model);
const request = (
  text: string,
  version: number,
  edits: { offset: number; removed: number; inserted: string }[] = [],
  key = 'doc',
) => ({ key, file: `${key}.prompt`, fileName: `/w/${key}.prompt`, text, version, edits });

/** A system prompt of `n` distinct sentences: long, shared, unchanging. */
const policy = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `Rule ${i}: answer in the customer's language and cite policy section ${i}.`,
  ).join('\n');

describe('AnalysisEngine', () => {
  it('counts once per distinct target tokenizer and chat template, each equal to a fresh count', async () => {
    const engine = engineWith(['llama-3.1-70b@4xh100-sxm:bf16', 'openai/gpt-4o', 'openai/gpt-4.1']);
    const text = 'system:\nBe brief.\nuser:\nSummarise the attached report in three bullet points.\n';
    const result = (await engine.count(request(text, 1)))!;
    // The Llama target's count renders its model's template; the front matter names no model.
    assert.deepEqual(Object.keys(result.counts).sort(), ['llama3+llama-3.1', 'o200k_base']);
    assert.deepEqual(result.counts['llama3+llama-3.1'], fresh('/w/doc.prompt', text, 'llama3', 'llama-3.1-70b'));
    assert.ok(result.counts['llama3+llama-3.1']!.templateTokens! > 0);
    assert.deepEqual(result.counts.o200k_base, fresh('/w/doc.prompt', text, 'o200k_base'));
    assert.deepEqual(
      result.targets.map((t) => t.id),
      ['llama-3.1-70b@4xh100-sxm:bf16+vllm', 'openai/gpt-4o', 'openai/gpt-4.1'],
    );
    assert.equal(result.frontMatterTarget, undefined);
  });

  it("answers a count with the parse's outline (no message texts) and a version's benchmark messages on request", async () => {
    const engine = engineWith(['openai/gpt-4o']);
    const long = 'Quote the contract clause by clause. '.repeat(30_000);
    const text = `system:\nBe brief.\nuser:\n${long}\n`;
    const result = (await engine.count(request(text, 1)))!;
    const parsed = parsePrompt('/w/doc.prompt', text);
    // Roles, ranges, variables and errors as parsed; the megabyte of message text stays in the worker.
    assert.deepEqual(result.parsed, promptOutline(parsed));
    assert.deepEqual(
      result.parsed.messages.map((m) => Object.keys(m).sort()),
      [
        ['range', 'role'],
        ['range', 'role'],
      ],
    );
    assert.ok(JSON.stringify(result).length < 10_000, `${JSON.stringify(result).length} characters`);
    assert.deepEqual(engine.benchMessages('doc', 1), benchMessages(parsed));
    const sent = engine.benchMessages('doc', 1);
    assert.ok(sent?.ok && sent.messages[1]!.content === long, 'the user message as the file writes it');
    await engine.count(request(`${text}More.\n`, 2));
    // Version 1 is no longer the one counted: the host asks again for the current one.
    assert.equal(engine.benchMessages('doc', 1), undefined);
    assert.equal(engine.benchMessages('other', 1), undefined);
  });

  it("puts the front matter's model first when it names a known one", async () => {
    const engine = engineWith(['llama-3.1-70b@4xh100-sxm']);
    const text = '---\nmodel: gpt-4o\n---\nsystem:\nBe brief.\nuser:\nHello\n';
    const result = (await engine.count({ ...request(text, 1), fileName: '/w/doc.prompty' }))!;
    assert.equal(result.frontMatterTarget, 'gpt-4o');
    assert.equal(result.targets[0]!.kind, 'provider');
    assert.equal(result.targets[1]!.id, 'llama-3.1-70b@4xh100-sxm:bf16+vllm');
  });

  it("reads the front matter's workload profile with the count, per version (the host parses no YAML)", async () => {
    const engine = engineWith(['openai/gpt-4o']);
    const v1 = '---\nprofile:\n  profile: batch\n  concurrency: 3\n---\nsystem:\nBe brief.\nuser:\nHello\n';
    const first = (await engine.count({ ...request(v1, 1), fileName: '/w/doc.prompty' }))!;
    assert.deepEqual(first.frontMatterProfile, { slo: { profile: 'batch', concurrency: 3 }, problems: [] });
    assert.deepEqual(resolveProfile(first.frontMatterProfile.slo!), {
      ...resolveProfile({ profile: 'batch' }),
      concurrency: 3,
    });
    // The next version says something else: its own profile, from the edited text.
    const at = v1.indexOf('concurrency: 3');
    const v2 = v1.slice(0, at) + 'tpotMs: 0' + v1.slice(at + 'concurrency: 3'.length);
    const edit = { offset: at, removed: 'concurrency: 3'.length, inserted: 'tpotMs: 0' };
    const second = (await engine.count({ ...request(v2, 2, [edit]), fileName: '/w/doc.prompty' }))!;
    assert.equal(second.frontMatterProfile.slo, undefined);
    assert.equal(second.frontMatterProfile.problems.length, 1);
    assert.match(second.frontMatterProfile.problems[0]!, /^front matter profile\.tpotMs: /);
    const none = (await engine.count(request('user:\nHello\n', 1, [], 'other')))!;
    assert.deepEqual(none.frontMatterProfile, { problems: [] });
  });

  it('skips a version overtaken before it started and hands its edits to the newer one', async () => {
    const engine = engineWith(['openai/gpt-4o']);
    const v1 = 'The quick brown fox jumps over the lazy dog. '.repeat(2000);
    await engine.count(request(v1, 1));
    const v2 = `${v1.slice(0, 10)}X${v1.slice(10)}`;
    const v3 = `${v2.slice(0, 500)}${v2.slice(503)}Y`;
    // Both sent before either runs: v2 is skipped, v3 applies both edits in order.
    const [second, third] = await Promise.all([
      engine.count(request(v2, 2, [{ offset: 10, removed: 0, inserted: 'X' }])),
      engine.count(
        request(v3, 3, [
          { offset: v2.length, removed: 0, inserted: 'Y' },
          { offset: 500, removed: 3, inserted: '' },
        ]),
      ),
    ]);
    assert.equal(second, undefined);
    assert.deepEqual(third!.counts.o200k_base, fresh('/w/doc.prompt', v3, 'o200k_base'));
  });

  it('counts a version sent as its edits alone, as it counts the same text sent whole', async () => {
    const engine = engineWith(['llama-3.1-70b@4xh100-sxm', 'openai/gpt-4o']);
    const v1 = `system:\n${policy(40)}\nuser:\nWhere is my parcel?\n`;
    const edit = (version: number, edits: TextEdit[], length: number, maxBytes = 1_000_000, key = 'doc') => {
      const { text: _text, ...rest } = request('', version, edits, key);
      return engine.edit({ ...rest, length, maxBytes });
    };
    await engine.count(request(v1, 1));
    // Two cursors (VS Code sends the later change first), then deletions that restore the first text.
    const e2: TextEdit[] = [
      { offset: v1.length - 2, removed: 0, inserted: ' Today' },
      { offset: 8, removed: 0, inserted: 'Be kind.\n' },
    ];
    const v2 = applyEdits(v1, 0, e2)!.text;
    const second = (await edit(2, e2, v2.length)) as CountResult;
    const whole = async (text: string) =>
      (await engineWith(['llama-3.1-70b@4xh100-sxm', 'openai/gpt-4o']).count(request(text, 1)))!;
    assert.deepEqual(second.counts, (await whole(v2)).counts);
    assert.deepEqual(second.parsed, (await whole(v2)).parsed);
    const e3: TextEdit[] = [
      { offset: v2.indexOf(' Today'), removed: 6, inserted: '' },
      { offset: 8, removed: 9, inserted: '' },
    ];
    const v3 = applyEdits(v2, 0, e3)!.text;
    assert.equal(v3, v1);
    assert.deepEqual(((await edit(3, e3, v3.length)) as CountResult).counts, (await whole(v1)).counts);
    // Over the byte limit: not counted, still followed, so the next edits apply to it.
    const e4: TextEdit[] = [{ offset: 0, removed: 0, inserted: '检'.repeat(100) }];
    assert.deepEqual(await edit(4, e4, v3.length + 100, Buffer.byteLength(v3) + 299), {
      version: 4,
      tooLargeBytes: Buffer.byteLength(v3) + 300,
    });
    const e5: TextEdit[] = [{ offset: 0, removed: 100, inserted: '' }];
    assert.deepEqual(((await edit(5, e5, v3.length)) as CountResult).counts, (await whole(v1)).counts);
  });

  it('asks for the whole text when it holds none to apply edits to, or they do not add up to the length sent', async () => {
    const engine = engineWith(['openai/gpt-4o']);
    const edit = (version: number, length: number, key = 'doc') => {
      const { text: _text, ...rest } = request('', version, [{ offset: 0, removed: 0, inserted: 'A' }], key);
      return engine.edit({ ...rest, length, maxBytes: 1_000_000 });
    };
    assert.deepEqual(await edit(1, 1, 'never-sent'), { version: 1, needsText: true });
    await engine.count(request('user:\nHello\n', 1));
    assert.deepEqual(await edit(2, 99), { version: 2, needsText: true }, 'a length that does not add up');
    // Having asked, it holds no text until the whole text comes again.
    assert.deepEqual(await edit(3, 13), { version: 3, needsText: true });
    await engine.count(request('user:\nHello\n', 4));
    assert.equal(((await edit(5, 13)) as CountResult).version, 5);
    engine.forget('doc');
    assert.deepEqual(await edit(6, 14), { version: 6, needsText: true }, 'after forget');
    await engine.count(request('user:\nHello\n', 7));
    engine.configure(config(['openai/gpt-4o']));
    assert.deepEqual(await edit(8, 14), { version: 8, needsText: true }, 'after configure');
  });

  it('a scan sent packed (files from disk as bytes) finds what the same scan sent as texts finds', async () => {
    const system = policy(150);
    const others = [0, 1].map((i) => `system:\n${system}\nuser:\nQuestion ${i}: where is my parcel?\n`);
    const mine = `system:\n${system}\nuser:\nCan I return shoes after 40 days?\n`;
    const findingsAfter = async (scan: (engine: AnalysisEngine) => Promise<void>) => {
      const engine = engineWith(['openai/gpt-4o']);
      await scan(engine);
      await engine.count({ ...request(mine, 1), file: 'support/mine.prompt' });
      return (await engine.findings('doc', 1))!;
    };
    const asTexts = await findingsAfter((e) =>
      e.scan('openai/gpt-4o', [
        { path: 'support/a.prompt', text: others[0]! },
        { path: 'support/b.prompt', text: others[1]! },
      ]),
    );
    const packed = await findingsAfter((e) =>
      e.scanPacked(
        'openai/gpt-4o',
        packSources([
          { path: 'support/a.prompt', bytes: new TextEncoder().encode(others[0]!) },
          { path: 'support/b.prompt', text: others[1]! },
        ]),
      ),
    );
    assert.ok(asTexts.findings.some((f) => f.code === 'prefix-cache' && f.relatedFiles?.length === 2));
    assert.deepEqual(packed, asTexts);
  });

  it('finds a prefix-cache group across the workspace and the prefix a cache can serve', async () => {
    const engine = engineWith(['openai/gpt-4o']);
    const system = policy(150);
    const other = `system:\n${system}\nuser:\nWhere is my parcel?\n`;
    const mine = `system:\n${system}\nuser:\nCan I return shoes after 40 days?\n`;
    await engine.scan('openai/gpt-4o', [{ path: 'support/other.prompt', text: other }]);
    await engine.count({ ...request(mine, 1), file: 'support/mine.prompt' });
    const result = (await engine.findings('doc', 1))!;
    const group = result.findings.find((f) => f.code === 'prefix-cache');
    assert.ok(group, JSON.stringify(result.findings.map((f) => f.code)));
    // The other member's location comes with its line and column, from the text the scan was given.
    const related = group.relatedFiles?.find((r) => r.file === 'support/other.prompt');
    assert.ok(related);
    assert.deepEqual(related.position, lineColumn(other, related.range.start));
    assert.ok(related.position.line > 100, 'the prefix ends after the 150-line system prompt');
    // Both files change (a line added in the system prompt): the other's position comes from its new text.
    const added = (text: string) => text.replace('\n', '\nAlways be polite.\n');
    await engine.scan('openai/gpt-4o', [{ path: 'support/other.prompt', text: added(other) }]);
    await engine.count({
      ...request(added(mine), 2, [{ offset: 0, removed: mine.length, inserted: added(mine) }]),
      file: 'support/mine.prompt',
    });
    const again = (await engine.findings('doc', 2))!.findings.find((f) => f.code === 'prefix-cache');
    const moved = again?.relatedFiles?.find((r) => r.file === 'support/other.prompt');
    assert.ok(moved);
    assert.deepEqual(moved.position, lineColumn(added(other), moved.range.start));
    assert.equal(moved.position.line, related.position.line + 1);
    assert.equal(result.cacheable?.source, 'shared with other prompts');
    assert.ok(result.cacheable!.tokens >= 1024, `${result.cacheable?.tokens} tokens`);
    assert.ok(
      result.cacheable!.endOffset > mine.indexOf(system) && result.cacheable!.endOffset <= mine.indexOf('Can I'),
    );
  });

  it('the workspace scan parses in its slices: other work runs between files, not after the whole parse', async () => {
    const engine = engineWith(['openai/gpt-4o']);
    // 200 files of ~4,500 tokens: far more than one 20 ms slice of work on any machine.
    const sources = Array.from({ length: 200 }, (_, i) => ({
      path: `w/p${i}.prompt`,
      text: `system:\n${policy(300)}\nuser:\nQ${i}\n`,
    }));
    const readAfterYield: boolean[] = [];
    let yielded = false;
    const watched = sources.map((s) => ({
      path: s.path,
      get text() {
        readAfterYield.push(yielded);
        return s.text;
      },
    }));
    setImmediate(() => (yielded = true));
    await engine.scan('openai/gpt-4o', watched);
    assert.ok(yielded);
    // Each text is read once, when its file is parsed; some are parsed after the loop has run other work.
    assert.equal(readAfterYield.length, sources.length);
    assert.ok(
      readAfterYield.some((after) => after),
      'every file was parsed before the scan first yielded',
    );
    assert.equal(readAfterYield[0], false);
  });

  it('the cacheable prefix (warm figures) never holds retrieved context, even written out and shared', async () => {
    const engine = engineWith(['openai/gpt-4o']);
    const system = `${policy(150)}\n<documents>\n${policy(60)}\n</documents>`;
    const other = `system:\n${system}\nuser:\nWhere is my parcel?\n`;
    const mine = `system:\n${system}\nuser:\nCan I return shoes after 40 days?\n`;
    await engine.scan('openai/gpt-4o', [{ path: 'support/other.prompt', text: other }]);
    await engine.count({ ...request(mine, 1), file: 'support/mine.prompt' });
    const result = (await engine.findings('doc', 1))!;
    // The two files share the documents too (the group says so), but a warm request retrieves others.
    assert.ok(result.findings.some((f) => f.code === 'prefix-cache'));
    assert.equal(result.cacheable?.source, 'static');
    assert.ok(result.cacheable!.tokens >= 1024, `${result.cacheable?.tokens} tokens`);
    assert.ok(result.cacheable!.endOffset <= mine.indexOf('<documents>'), `${result.cacheable!.endOffset}`);
  });

  it("an untrusted workspace's prompt-lens-dynamic pragmas (the file's own regular expressions) are not run", async () => {
    const text = `system:\n<!-- prompt-lens-dynamic Order #\\d+ -->\nOrder #4711.\n${policy(150)}\nuser:\nHi\n`;
    const breakers = async (untrusted: boolean) => {
      const engine = new AnalysisEngine();
      engine.configure({ ...config(['openai/gpt-4o']), ...(untrusted ? { untrusted } : {}) });
      await engine.count(request(text, 1));
      const result = (await engine.findings('doc', 1))!;
      return result.findings.filter((f) => f.code === 'cache-breaker').map((f) => f.message.slice(0, 40));
    };
    assert.deepEqual(await breakers(false), ['Cache breaker: declared “Order #4711” ch']);
    assert.deepEqual(await breakers(true), []);
  });

  it('answers nothing for findings of a version that is not the latest counted', async () => {
    const engine = engineWith(['openai/gpt-4o']);
    await engine.count(request('user:\nHello there\n', 1));
    await engine.count(request('user:\nHello there, again\n', 2));
    assert.equal(await engine.findings('doc', 1), undefined);
    assert.ok(await engine.findings('doc', 2));
    assert.equal(await engine.findings('unknown', 1), undefined);
  });

  it('drops work begun under settings that changed meanwhile', async () => {
    const engine = engineWith(['openai/gpt-4o']);
    const pending = engine.count(request('word '.repeat(50_000), 1));
    engine.configure(config(['llama-3.1-8b@h100-sxm']));
    assert.equal(await pending, undefined);
    const after = (await engine.count(request('user:\nHi\n', 2)))!;
    assert.equal(after.targets[0]!.id, 'llama-3.1-8b@h100-sxm:bf16+vllm');
    assert.ok(after.counts['llama3+llama-3.1']);
  });

  it('counts a selection, compares targets and reports, all from the same tables', async () => {
    const engine = engineWith(['openai/gpt-4o']);
    assert.equal(engine.countText('llama3', 'Hello, world!'), getTokenizer('llama3').count('Hello, world!'));
    const text = '---\nmodel: llama-3.1-8b\n---\nsystem:\nBe brief.\nuser:\nHello\n';
    await engine.count({ ...request(text, 1), fileName: '/w/doc.prompty' });

    const compared = engine.compare('doc', { profile: resolveProfile({}), calibrations: {} });
    assert.ok(compared.rows.some((r) => r.kind === 'provider'));
    assert.ok(
      compared.rows.some((r) => r.deployment?.model === 'llama-3.1-8b'),
      'self-hosted rows for the front matter model',
    );
    const inputs = [{ path: 'a.prompt', text: `system:\n${policy(20)}\nuser:\nHi\n` }];
    const target = findingTarget(resolveTarget(parseTargetId('openai/gpt-4o'), tables), {
      concurrency: 8,
      outputTokens: 256,
    });
    assert.deepEqual(
      engine.report(inputs),
      buildReport(inputs, {
        tokenizer: getTokenizer('o200k_base'),
        costModel: target.model,
        settings: parseFindingSettings({}).settings,
      }),
    );
  });

  it('the report and Compare name the engine and scope the settings assume', async () => {
    const assume = { engine: 'sglang', scope: 'engine' } as const;
    const engine = new AnalysisEngine();
    engine.configure({
      ...config([]),
      targets: [resolveTarget(parseTargetId('llama-3.1-8b@h100-sxm'), tables, assume)],
      assume,
    });
    const report = engine.report([{ path: 'a.prompt', text: 'user:\nHi\n' }]);
    assert.equal(report.target.label, 'llama-3.1-8b · h100-sxm · SGLang · engine only');
    const text = '---\nmodel: llama-3.1-8b\n---\nuser:\nHello\n';
    await engine.count({ ...request(text, 1), fileName: '/w/doc.prompty' });
    const compared = engine.compare('doc', { profile: resolveProfile({}), calibrations: {} });
    const selfHosted = compared.rows.filter((r) => r.kind === 'self-hosted');
    assert.ok(selfHosted.length > 0);
    for (const r of selfHosted) assert.match(r.target, /\+(sglang|llamacpp)$/, r.target);
    assert.ok(compared.assumptions.some((a) => /Self-hosted engine: sglang .*scope engine \(no HTTP server\)/.test(a)));
  });

  it("compares with this version's counts, parsed with the settings' variable patterns", async () => {
    const engine = new AnalysisEngine();
    engine.configure({ ...config(['openai/gpt-4o']), variablePatterns: ['<<(\\w+)>>'] });
    const text = '---\nsample:\n  who: Ada Lovelace, Countess of Lovelace\n---\nuser:\nHi <<who>>\n';
    const counted = (await engine.count({ ...request(text, 1), fileName: '/w/doc.prompty' }))!;
    const row = engine
      .compare('doc', { profile: resolveProfile({}), calibrations: {} })
      .rows.find((r) => r.target === 'openai/gpt-4o');
    assert.equal(row?.inputTokens, counted.counts.o200k_base!.inputTokens);
    assert.notEqual(
      row?.inputTokens,
      fresh('/w/doc.prompty', text, 'o200k_base').inputTokens,
      'without the pattern <<who>> stays unfilled',
    );
    // The report parses the same way: the variable is a filled one, not an unfilled literal.
    const report = engine.report([{ path: 'doc.prompty', text }]);
    assert.equal(
      report.files[0]!.tokens,
      engine.report([{ path: 'doc.prompty', text: text.replace('<<who>>', 'Ada Lovelace, Countess of Lovelace') }])
        .files[0]!.tokens,
    );
  });

  it('says what is wrong when used before configure or asked about an uncounted document', () => {
    assert.throws(() => new AnalysisEngine().report([]), /not been configured/);
    assert.throws(
      () => engineWith(['openai/gpt-4o']).compare('nowhere', { profile: { name: 'chat' } as never, calibrations: {} }),
      /has not been counted/,
    );
    assert.throws(
      () => new AnalysisEngine().configure({ ...config(['openai/gpt-4o']), targets: [] }),
      /at least one target/,
    );
  });
});

describe('AnalysisEngine: counts before the workspace scan and findings (the priority lane)', function () {
  this.timeout(120_000); // counts of hundreds of kilobytes with two tokenizers, on a loaded machine
  /** A workspace of 150 files whose scan progress is visible: each text is read once, when its file is parsed. */
  function watchedWorkspace() {
    let read = 0;
    const sources = Array.from({ length: 150 }, (_, i) => {
      const text = `system:\n${policy(200)}\nuser:\nQ${i}\n`;
      return {
        path: `w/p${i}.prompt`,
        get text() {
          read++;
          return text;
        },
      };
    });
    return { sources, read: () => read };
  }

  /** A prompt whose first count takes many 8 ms slices (hundreds of kilobytes of mixed text). */
  const big = (n: number) =>
    `system:\n${policy(4000)}\nuser:\n${'检索到的文档需要被引用。 {"id": 7, "tags": ["a"]}\n'.repeat(n)}`;

  /** Resolves once the scan has started and ended a slice (a slice runs on in microtasks until its time is up). */
  async function scanUnderWay(read: () => number): Promise<void> {
    do await new Promise((r) => setImmediate(r));
    while (read() === 0);
  }

  it('a count asked for during the scan is answered before the scan finishes, with no scan slice in between', async () => {
    const engine = engineWith(['openai/gpt-4o', 'llama-3.1-70b@4xh100-sxm:bf16']);
    const { sources, read } = watchedWorkspace();
    let scanDone = false;
    const scan = engine.scan('openai/gpt-4o', sources).then(() => (scanDone = true));
    await scanUnderWay(read);
    const text = big(2000);
    const before = read();
    const counted = await engine.count(request(text, 1));
    assert.equal(scanDone, false, 'the count waited for the whole scan');
    // Without the lane the scan's slices run between the count's slices.
    assert.equal(read() - before, 0, `${read() - before} scan files were read while the count ran`);
    await scan;
    assert.equal(read(), sources.length);
    // Exact: the same counts as a settled engine's (no scan at all).
    const settled = engineWith(['openai/gpt-4o', 'llama-3.1-70b@4xh100-sxm:bf16']);
    assert.deepEqual(counted, await settled.count(request(text, 1)));
  });

  it('a version superseded while the scan runs is dropped; the newer one counts exactly, its findings follow', async () => {
    const engine = engineWith(['openai/gpt-4o']);
    const { sources, read } = watchedWorkspace();
    const scan = engine.scan('openai/gpt-4o', sources);
    await scanUnderWay(read);
    const v1 = big(1000);
    const v2 = `${v1}More.\n`;
    const first = engine.count(request(v1, 1));
    const second = engine.count(request(v2, 2, [{ offset: v1.length, removed: 0, inserted: 'More.\n' }]));
    assert.equal(await first, undefined);
    const counted = (await second)!;
    assert.equal(counted.version, 2);
    assert.deepEqual(counted.counts['o200k_base'], fresh('/w/doc.prompt', v2, 'o200k_base'));
    assert.equal(await engine.findings('doc', 1), undefined);
    await scan;
    assert.equal((await engine.findings('doc', 2))?.version, 2);
  });

  it('a findings pass waits at its next step for a count asked for meanwhile', async () => {
    const engine = engineWith(['openai/gpt-4o']);
    await engine.count(request(`system:\n${policy(300)}\nuser:\nHi\n`, 1, [], 'small'));
    const order: string[] = [];
    const findings = engine.findings('small', 1).then((r) => order.push(`findings ${r?.version}`));
    const count = engine.count(request(big(1000), 1, [], 'other')).then((r) => order.push(`count ${r?.version}`));
    await Promise.all([findings, count]);
    assert.deepEqual(order, ['count 1', 'findings 1']);
  });
});
