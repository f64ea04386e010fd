// The Compare Targets view: a sortable, filterable table of targets against the workload's SLO and cost.
// Text only through the DOM (never innerHTML); colours from the --vscode-* theme variables.
import '../common/view.css';
import './compare.css';
// The columns module only, so the bundle does not pull in the estimation engine and its tables.
import { columnsFor } from '../../core/compare/columns';
import type { CompareRow } from '../../core/compare/types';
import { connect } from '../common/host';
import { h, replaceChildren } from '../common/dom';
import {
  ariaSort,
  DEFAULT_FILTER,
  DEFAULT_SORT,
  nextSort,
  visibleRows,
  type FilterState,
  type KindFilter,
  type SortKey,
  type SortState,
} from './model';
import type { CompareViewState } from './state';

const app = document.getElementById('app') as HTMLElement;
// Sort and filter belong to the view, not the state, so they survive new state from the extension.
let sort: SortState = DEFAULT_SORT;
let filter: FilterState = DEFAULT_FILTER;
let current: CompareViewState | undefined;
const tableHost = h('div', { class: 'table-host' });
const host = connect<CompareViewState>(render);

function render(state: CompareViewState): void {
  current = state;
  const meeting = state.rows.filter((r) => r.meetsSlo).length;
  replaceChildren(
    app,
    h(
      'header',
      {},
      h('h1', {}, 'Compare targets: ', h('span', { class: 'prompt' }, state.promptName)),
      h(
        'p',
        { class: 'muted', 'data-test': 'summary' },
        `${meeting} of ${state.rows.length} targets meet the ${state.profile.name} SLO`,
      ),
    ),
    controls(),
    tableHost,
    h(
      'details',
      { class: 'assumptions', 'data-test': 'assumptions' },
      h('summary', {}, 'Assumptions'),
      h('ul', {}, ...state.assumptions.map((a) => h('li', {}, a))),
      state.skipped.length > 0 ? h('p', {}, 'Left out:') : null,
      state.skipped.length > 0 ? h('ul', {}, ...state.skipped.map((s) => h('li', {}, s))) : null,
    ),
  );
  renderTable();
}

function controls(): HTMLElement {
  const kinds: [KindFilter, string][] = [
    ['all', 'All kinds'],
    ['provider', 'Providers'],
    ['self-hosted', 'Self-hosted'],
  ];
  return h(
    'div',
    { class: 'controls', role: 'search' },
    h(
      'label',
      {},
      'Filter ',
      h('input', {
        type: 'search',
        value: filter.text,
        placeholder: 'target, verdict or note',
        'data-test': 'filter-text',
        oninput: (e) => update({ text: (e.target as HTMLInputElement).value }),
      }),
    ),
    h(
      'label',
      {},
      h('input', {
        type: 'checkbox',
        checked: filter.meetsOnly,
        'data-test': 'filter-meets',
        onchange: (e) => update({ meetsOnly: (e.target as HTMLInputElement).checked }),
      }),
      ' Meets SLO only',
    ),
    h(
      'label',
      {},
      'Kind ',
      h(
        'select',
        {
          'data-test': 'filter-kind',
          onchange: (e) => update({ kind: (e.target as HTMLSelectElement).value as KindFilter }),
        },
        ...kinds.map(([value, label]) => h('option', { value, selected: filter.kind === value }, label)),
      ),
    ),
  );
}

function update(change: Partial<FilterState>): void {
  filter = { ...filter, ...change };
  renderTable();
}

function renderTable(focusKey?: SortKey): void {
  if (!current) return;
  const state = current;
  const columns = columnsFor(state.rows);
  const rows = visibleRows(state.rows, filter, sort);
  const header = columns.map((c) =>
    h(
      'th',
      { scope: 'col', 'aria-sort': ariaSort(sort, c.key), class: c.numeric ? 'num' : undefined },
      h(
        'button',
        { class: 'sort', 'data-sort': c.key, title: `Sort by ${c.title}`, onclick: () => resort(c.key) },
        c.title,
        sortMark(c.key),
      ),
    ),
  );
  replaceChildren(
    tableHost,
    h(
      'table',
      { 'data-test': 'compare-table' },
      h(
        'caption',
        { class: 'muted' },
        `${rows.length} shown · sorted by ${sort.key === 'rank' ? 'rank (meets SLO, then cost)' : `${columns.find((c) => c.key === sort.key)?.title ?? sort.key} (${sort.direction === 'asc' ? 'ascending' : 'descending'})`}`,
      ),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h(
            'th',
            { scope: 'col', 'aria-sort': ariaSort(sort, 'rank'), class: 'num' },
            h(
              'button',
              {
                class: 'sort',
                'data-sort': 'rank',
                title: 'Rank: meets the SLO first, then cost',
                onclick: () => resort('rank'),
              },
              '#',
              sortMark('rank'),
            ),
          ),
          ...header,
          h('th', { scope: 'col' }, h('span', { class: 'muted' }, 'Primary')),
        ),
      ),
      h('tbody', {}, ...rows.map((row) => rowElement(row, state.rows.indexOf(row) + 1, columns, state.primaryTarget))),
    ),
    rows.length === 0 ? h('p', { class: 'muted', 'data-test': 'empty' }, 'No target matches the filters.') : null,
  );
  if (focusKey) tableHost.querySelector<HTMLButtonElement>(`button[data-sort="${focusKey}"]`)?.focus();
}

function resort(key: SortKey): void {
  sort = nextSort(sort, key);
  renderTable(key);
}

function sortMark(key: SortKey): string {
  return sort.key !== key ? '' : sort.direction === 'asc' ? ' ▲' : ' ▼';
}

function rowElement(
  row: CompareRow,
  rank: number,
  columns: ReturnType<typeof columnsFor>,
  primary: string | undefined,
): HTMLElement {
  const isPrimary = row.target === primary;
  return h(
    'tr',
    {
      class: `${row.meetsSlo ? 'ok' : 'fail'}${isPrimary ? ' primary' : ''}`,
      'data-test': 'compare-row',
      'data-target': row.target,
      'data-meets': String(row.meetsSlo),
    },
    h('td', { class: 'num muted' }, rank),
    ...columns.map((c) =>
      c.key === 'verdict'
        ? h(
            'td',
            {
              class: `verdict ${row.meetsSlo ? 'pass' : 'fail'}`,
              'data-test': 'verdict',
              title: row.notes.join('\n') || undefined,
            },
            c.format(row),
            ...row.notes.map((n) => h('div', { class: 'note' }, n)),
          )
        : c.key === 'target'
          ? h('td', { title: `latency: ${row.latencyBasis}` }, c.format(row))
          : h('td', { class: c.numeric ? 'num' : undefined }, c.format(row)),
    ),
    h(
      'td',
      {},
      isPrimary
        ? h('span', { 'data-test': 'primary' }, '✓ Primary')
        : h(
            'button',
            {
              'data-test': 'use',
              'aria-label': `Use ${row.target} as the primary target`,
              onclick: () => host.post({ type: 'command', command: 'promptLens.setPrimaryTarget', args: [row.target] }),
            },
            'Use',
          ),
    ),
  );
}
