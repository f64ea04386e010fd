// The Compare Targets view: a sortable, filterable table of targets against the workload's SLO and cost.
// Text only through the DOM (never innerHTML); colours from the --vscode-* theme variables.
import '../common/view.css';
import './compare.css';
// The columns module only, so the bundle does not pull in the estimation engine and its tables.
import { COLUMNS, columnsFor, type Column, type ColumnKey } from '../../core/compare/columns';
import type { CompareRow } from '../../core/compare/types';
import { connect } from '../common/host';
import { h, replaceChildren } from '../common/dom';
import {
  ariaSort,
  DEFAULT_COLUMNS,
  DEFAULT_FILTER,
  DEFAULT_SORT,
  nextSort,
  shortVerdict,
  shownColumns,
  toggleColumn,
  visibleRows,
  type FilterState,
  type KindFilter,
  type SortKey,
  type SortState,
} from './model';
import type { CompareViewState } from './state';
import { fill, readStrings } from '../common/strings';
import { COMPARE_STRINGS } from './strings';

const app = document.getElementById('app') as HTMLElement;
const s = readStrings(COMPARE_STRINGS, app);
// Sort and filter belong to the view, not the state, so they survive new state from the extension.
let sort: SortState = DEFAULT_SORT;
let filter: FilterState = DEFAULT_FILTER;
let current: CompareViewState | undefined;
/** Rows whose notes line is open, by target. */
const expanded = new Set<string>();
const tableHost = h('div', { class: 'table-host' });
/** The view's own choice: which columns it shows (kept across hide and reload by VS Code's webview state). */
interface CompareView {
  columns: ColumnKey[];
}
const host = connect<CompareViewState, never, CompareView>(render);
const chosenColumns = (): readonly ColumnKey[] => host.view()?.columns ?? DEFAULT_COLUMNS;

function render(state: CompareViewState): void {
  current = state;
  const meeting = state.rows.filter((r) => r.meetsSlo).length;
  replaceChildren(
    app,
    h(
      'header',
      {},
      h('h1', {}, s.heading, h('span', { class: 'prompt' }, state.promptName)),
      h(
        'p',
        { class: 'muted', 'data-test': 'summary' },
        fill(s.summary, meeting, state.rows.length, state.profile.name),
      ),
      h('p', { class: 'muted', 'data-test': 'scenario' }, state.scenario),
    ),
    controls(),
    tableHost,
    h(
      'details',
      { class: 'assumptions', 'data-test': 'assumptions' },
      h('summary', {}, s.assumptions),
      h('ul', {}, ...state.assumptions.map((a) => h('li', {}, a))),
      state.skipped.length > 0 ? h('p', {}, s.leftOut) : null,
      state.skipped.length > 0 ? h('ul', {}, ...state.skipped.map((s) => h('li', {}, s))) : null,
    ),
  );
  renderTable();
}

function controls(): HTMLElement {
  const kinds: [KindFilter, string][] = [
    ['all', s.allKinds],
    ['provider', s.providers],
    ['self-hosted', s.selfHosted],
  ];
  return h(
    'div',
    { class: 'controls', role: 'search' },
    h(
      'label',
      {},
      s.filter,
      h('input', {
        type: 'search',
        value: filter.text,
        placeholder: s.filterPlaceholder,
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
      s.meetsOnly,
    ),
    h(
      'label',
      {},
      s.kind,
      h(
        'select',
        {
          'data-test': 'filter-kind',
          onchange: (e) => update({ kind: (e.target as HTMLSelectElement).value as KindFilter }),
        },
        ...kinds.map(([value, label]) => h('option', { value, selected: filter.kind === value }, label)),
      ),
    ),
    columnPicker(),
  );
}

/** A checkbox per optional column; the choice is saved with the view. */
function columnPicker(): HTMLElement {
  const optional = COLUMNS.filter((c) => c.key !== 'target');
  const chosen = chosenColumns();
  return h(
    'details',
    { class: 'columns', 'data-test': 'columns' },
    h('summary', {}, fill(s.columns, optional.filter((c) => chosen.includes(c.key)).length, optional.length)),
    h(
      'div',
      { class: 'column-list' },
      ...optional.map((c) =>
        h(
          'label',
          {},
          h('input', {
            type: 'checkbox',
            checked: chosen.includes(c.key),
            'data-column': c.key,
            onchange: () => {
              host.saveView({ columns: toggleColumn(chosenColumns(), c.key) });
              const summary = document.querySelector('[data-test=columns] summary');
              const count = COLUMNS.filter((o) => o.key !== 'target' && chosenColumns().includes(o.key)).length;
              if (summary) summary.textContent = fill(s.columns, count, optional.length);
              renderTable();
            },
          }),
          ` ${c.warmOnly ? fill(s.warmOnlyColumn, c.title) : c.title}`,
        ),
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
  const columns = shownColumns(columnsFor(state.rows), chosenColumns());
  const rows = visibleRows(state.rows, filter, sort);
  const header = columns.map((c) =>
    h(
      'th',
      { scope: 'col', 'aria-sort': ariaSort(sort, c.key), class: c.numeric ? 'num' : undefined },
      h(
        'button',
        { class: 'sort', 'data-sort': c.key, title: fill(s.sortBy, c.title), onclick: () => resort(c.key) },
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
      h('caption', { class: 'muted' }, fill(s.caption, rows.length, sortLabel())),
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
                title: s.rankTitle,
                onclick: () => resort('rank'),
              },
              '#',
              sortMark('rank'),
            ),
          ),
          // Next to the rank, so no column choice or pane width can push it out of sight.
          h('th', { scope: 'col' }, h('span', { class: 'muted' }, s.primary)),
          ...header,
        ),
      ),
      h(
        'tbody',
        {},
        ...rows.flatMap((row) => rowElements(row, state.rows.indexOf(row) + 1, columns, state.primaryTarget)),
      ),
    ),
    rows.length === 0 ? h('p', { class: 'muted', 'data-test': 'empty' }, s.noMatch) : null,
  );
  if (focusKey) tableHost.querySelector<HTMLButtonElement>(`button[data-sort="${focusKey}"]`)?.focus();
}

/** "rank (meets SLO, then cost)" or "TTFT p99 (ascending)". */
function sortLabel(): string {
  if (sort.key === 'rank') return s.rankOrder;
  const title = COLUMNS.find((c) => c.key === sort.key)?.title ?? sort.key;
  return fill(sort.direction === 'asc' ? s.ascending : s.descending, title);
}

function resort(key: SortKey): void {
  sort = nextSort(sort, key);
  renderTable(key);
}

function sortMark(key: SortKey): string {
  return sort.key !== key ? '' : sort.direction === 'asc' ? ' ▲' : ' ▼';
}

/** A row, and its notes line below it when the reader opened it. */
function rowElements(row: CompareRow, rank: number, columns: Column[], primary: string | undefined): HTMLElement[] {
  const isPrimary = row.target === primary;
  const open = expanded.has(row.target);
  const main = h(
    'tr',
    {
      class: `${row.meetsSlo ? 'ok' : 'fail'}${isPrimary ? ' primary' : ''}`,
      'data-test': 'compare-row',
      'data-target': row.target,
      'data-meets': String(row.meetsSlo),
    },
    h('td', { class: 'num muted' }, rank),
    h(
      'td',
      { class: 'use' },
      isPrimary
        ? h('span', { 'data-test': 'primary', title: s.primaryTitle }, '✓')
        : h(
            'button',
            {
              'data-test': 'use',
              'aria-label': fill(s.useLabel, row.target),
              title: fill(s.useLabel, row.target),
              onclick: () => host.post({ type: 'command', command: 'promptLens.setPrimaryTarget', args: [row.target] }),
            },
            s.use,
          ),
    ),
    ...columns.map((c) => cell(c, row, open)),
  );
  if (!open || row.notes.length === 0) return [main];
  return [
    main,
    h(
      'tr',
      { class: 'notes-row', 'data-test': 'notes-row' },
      h('td', {}),
      h('td', { colspan: columns.length + 1 }, h('ul', {}, ...row.notes.map((n) => h('li', {}, n)))),
    ),
  ];
}

function cell(c: Column, row: CompareRow, open: boolean): HTMLElement {
  if (c.key === 'verdict')
    return h(
      'td',
      {
        class: `verdict ${row.meetsSlo ? 'pass' : 'fail'}`,
        'data-test': 'verdict',
        title: [row.verdict, ...row.notes].join('\n'),
      },
      shortVerdict(row),
      row.notes.length > 0
        ? h(
            'button',
            {
              class: 'notes-toggle',
              'data-test': 'notes-toggle',
              'aria-expanded': String(open),
              'aria-label': fill(
                row.notes.length === 1 ? (open ? s.hideNote : s.showNote) : open ? s.hideNotes : s.showNotes,
                row.notes.length,
              ),
              title: row.notes.join('\n'),
              onclick: () => {
                if (open) expanded.delete(row.target);
                else expanded.add(row.target);
                renderTable();
              },
            },
            `${open ? '▾' : '▸'} ${row.notes.length}`,
          )
        : null,
    );
  if (c.key === 'target')
    return h('td', { class: 'target', title: `${row.target}\n${fill(s.latency, row.latencyBasis)}` }, c.format(row));
  return h('td', { class: c.numeric ? 'num' : undefined }, c.format(row));
}
