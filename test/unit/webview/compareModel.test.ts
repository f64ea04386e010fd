import assert from 'node:assert/strict';
import {
  ariaSort,
  DEFAULT_COLUMNS,
  DEFAULT_FILTER,
  DEFAULT_SORT,
  filterRows,
  nextSort,
  shortVerdict,
  shownColumns,
  sortRows,
  toggleColumn,
  visibleRows,
} from '../../../src/webview/compare/model';
import { columnsFor } from '../../../src/core/compare';
import { row } from '../core/compare/helpers';

describe('Compare Targets view model', () => {
  const rows = [
    row({ target: 'groq/llama-3.1-8b-instant', costPer1kCallsUsd: 0.2, tpotMs: 2, ttftMs: { p50: 100, p99: 200 } }),
    row({
      target: 'llama-3.1-70b@4xh100-sxm:fp8',
      kind: 'self-hosted',
      costPer1kCallsUsd: 1.6,
      tpotMs: 9,
      ttftMs: { p50: 300, p99: 450 },
      notes: ['meets the SLO with prefix caching only (cold TTFT p99 1101 ms)'],
    }),
    row({
      target: 'openai/gpt-4o',
      meetsSlo: false,
      verdict: 'TTFT p99 900 ms > 500 ms',
      failing: ['ttft'],
      costPer1kCallsUsd: 0.9,
      tpotMs: 7,
      ttftMs: { p50: 450, p99: 900 },
    }),
    row({
      target: 'llama-3.1-70b@h200:fp8',
      kind: 'self-hosted',
      meetsSlo: false,
      verdict: 'TPOT 31.0 ms > 30 ms',
      failing: ['tpot'],
      costPer1kCallsUsd: 1.1,
      tpotMs: 31,
      ttftMs: { p50: 200, p99: 400 },
    }),
  ];
  const targets = (list: { target: string }[]) => list.map((r) => r.target);

  it('rank keeps the order compareTargets gave; descending reverses it', () => {
    assert.deepEqual(targets(sortRows(rows, DEFAULT_SORT)), targets(rows));
    assert.deepEqual(targets(sortRows(rows, { key: 'rank', direction: 'desc' })), targets(rows).reverse());
  });

  it('numeric columns sort by value, not by their formatted text', () => {
    assert.deepEqual(targets(sortRows(rows, { key: 'costPer1k', direction: 'asc' })), [
      'groq/llama-3.1-8b-instant',
      'openai/gpt-4o',
      'llama-3.1-70b@h200:fp8',
      'llama-3.1-70b@4xh100-sxm:fp8',
    ]);
    assert.deepEqual(targets(sortRows(rows, { key: 'tpot', direction: 'desc' })), [
      'llama-3.1-70b@h200:fp8',
      'llama-3.1-70b@4xh100-sxm:fp8',
      'openai/gpt-4o',
      'groq/llama-3.1-8b-instant',
    ]);
    assert.deepEqual(targets(sortRows(rows, { key: 'ttftP99', direction: 'asc' })).slice(0, 2), [
      'groq/llama-3.1-8b-instant',
      'llama-3.1-70b@h200:fp8',
    ]);
  });

  it('sorting by verdict puts meeting rows first (ties keep rank), then failing rows grouped by the failing metric', () => {
    assert.deepEqual(targets(sortRows(rows, { key: 'verdict', direction: 'asc' })), [
      'groq/llama-3.1-8b-instant',
      'llama-3.1-70b@4xh100-sxm:fp8',
      'llama-3.1-70b@h200:fp8',
      'openai/gpt-4o',
    ]);
  });

  it('clicking the sorted header flips direction; another header sorts ascending; aria-sort follows', () => {
    const first = nextSort(DEFAULT_SORT, 'e2e');
    assert.deepEqual(first, { key: 'e2e', direction: 'asc' });
    assert.deepEqual(nextSort(first, 'e2e'), { key: 'e2e', direction: 'desc' });
    assert.deepEqual(nextSort({ key: 'e2e', direction: 'desc' }, 'target'), { key: 'target', direction: 'asc' });
    assert.deepEqual(
      [ariaSort(first, 'e2e'), ariaSort(nextSort(first, 'e2e'), 'e2e'), ariaSort(first, 'tpot')],
      ['ascending', 'descending', 'none'],
    );
  });

  it('filters by text (target, verdict, notes; every word), meets-SLO-only and kind', () => {
    assert.deepEqual(targets(filterRows(rows, { ...DEFAULT_FILTER, text: 'H200' })), ['llama-3.1-70b@h200:fp8']);
    assert.deepEqual(targets(filterRows(rows, { ...DEFAULT_FILTER, text: 'prefix caching' })), [
      'llama-3.1-70b@4xh100-sxm:fp8',
    ]);
    assert.deepEqual(targets(filterRows(rows, { ...DEFAULT_FILTER, text: 'tpot' })), ['llama-3.1-70b@h200:fp8']);
    assert.deepEqual(targets(filterRows(rows, { ...DEFAULT_FILTER, text: 'llama fp8' })), [
      'llama-3.1-70b@4xh100-sxm:fp8',
      'llama-3.1-70b@h200:fp8',
    ]);
    assert.deepEqual(targets(filterRows(rows, { ...DEFAULT_FILTER, meetsOnly: true })), [
      'groq/llama-3.1-8b-instant',
      'llama-3.1-70b@4xh100-sxm:fp8',
    ]);
    assert.deepEqual(targets(filterRows(rows, { ...DEFAULT_FILTER, kind: 'provider' })), [
      'groq/llama-3.1-8b-instant',
      'openai/gpt-4o',
    ]);
    assert.deepEqual(targets(filterRows(rows, { text: '', meetsOnly: true, kind: 'self-hosted' })), [
      'llama-3.1-70b@4xh100-sxm:fp8',
    ]);
    assert.deepEqual(filterRows(rows, { ...DEFAULT_FILTER, text: 'nothing-like-this' }), []);
  });

  it('visibleRows filters, then sorts', () => {
    assert.deepEqual(
      targets(visibleRows(rows, { ...DEFAULT_FILTER, kind: 'self-hosted' }, { key: 'costPer1k', direction: 'desc' })),
      ['llama-3.1-70b@4xh100-sxm:fp8', 'llama-3.1-70b@h200:fp8'],
    );
  });

  it('shows the cold TTFT column only when a prefix is cached', () => {
    assert.ok(!columnsFor(rows).some((c) => c.key === 'coldTtftP99'));
    assert.ok(columnsFor([...rows, row({ target: 'x', cachedTokens: 100 })]).some((c) => c.key === 'coldTtftP99'));
  });

  it('shows few columns by default; a toggled column appears in table order, the target never goes', () => {
    const keys = (chosen: readonly string[]) =>
      shownColumns(columnsFor(rows), chosen as typeof DEFAULT_COLUMNS).map((c) => c.key);
    assert.deepEqual(keys(DEFAULT_COLUMNS), ['target', 'ttftP50', 'costPer1k', 'verdict']);
    const withTpot = toggleColumn(DEFAULT_COLUMNS, 'tpot');
    assert.deepEqual(keys(withTpot), ['target', 'ttftP50', 'tpot', 'costPer1k', 'verdict']);
    assert.deepEqual(toggleColumn(withTpot, 'tpot'), [...DEFAULT_COLUMNS]);
    assert.deepEqual(keys(toggleColumn(DEFAULT_COLUMNS, 'target')), keys(DEFAULT_COLUMNS));
  });

  it('the verdict cell names only what fails; the full verdict is its tooltip', () => {
    assert.equal(shortVerdict(rows[0]!), '✓ meets');
    assert.equal(shortVerdict(rows[2]!), '✗ TTFT');
    assert.equal(shortVerdict(row({ target: 'x', meetsSlo: false, failing: ['ttft', 'tpot'] })), '✗ TTFT + TPOT');
  });
});
