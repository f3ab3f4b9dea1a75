// @vitest-environment happy-dom
import { mount, type VueWrapper } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextTick } from 'vue';
import BaseVirtualTable from '../../../renderer/components/table/BaseVirtualTable.vue';
import { useAdaptiveRows } from '../../../renderer/components/table/adaptive-rows.ts';
import { columnLayout, type SortState, type TableColumn } from '../../../renderer/components/table/columns.ts';
import { sortRows } from '../../../renderer/components/table/sort.ts';
import { effectScope, ref } from 'vue';

interface Row {
  id: string;
  name: string;
  restarts: number;
}

const ROW_HEIGHT = 28;
const VIEWPORT_PX = 560;
const COLUMNS: ReadonlyArray<TableColumn<Row>> = [
  { id: 'name', label: 'Name', width: 200, grow: 2, text: (row) => row.name, sortKey: (row) => row.name },
  { id: 'restarts', label: 'Restarts', width: 80, align: 'end', text: (row) => String(row.restarts), sortKey: (row) => row.restarts, firstDirection: 'desc' },
  { id: 'note', label: 'Note', width: 100 },
];

const many = (count: number): Row[] => Array.from({ length: count }, (_, i) => ({ id: `r${i}`, name: `pod-${String(i).padStart(5, '0')}`, restarts: i % 7 }));

let wrapper: VueWrapper | undefined;
afterEach(() => {
  wrapper?.unmount();
  wrapper = undefined;
  vi.restoreAllMocks();
});

function mountTable(rows: Row[], sort: SortState | null = null): VueWrapper {
  // happy-dom does no layout: give the viewport the height a window would.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(VIEWPORT_PX);
  wrapper = mount(BaseVirtualTable, {
    props: { columns: COLUMNS, rows, rowKey: (row: Row) => row.id, label: 'Pods', sort } as never,
    slots: { 'cell-note': '<template #cell-note="{ row }"><em class="note">{{ row.name }}!</em></template>' },
  }) as VueWrapper;
  return wrapper;
}

const bodyRows = (table: VueWrapper) => table.findAll('.body [role="row"]');

describe('BaseVirtualTable', () => {
  it('renders only the rows in view (plus a small margin) for 50,000 rows', async () => {
    const table = mountTable(many(50_000));
    await nextTick();
    const rendered = bodyRows(table);
    const inView = Math.ceil(VIEWPORT_PX / ROW_HEIGHT);
    expect(rendered.length).toBeGreaterThanOrEqual(inView);
    expect(rendered.length).toBeLessThanOrEqual(inView + 16);
    expect(table.get('.body').attributes('style')).toContain(`height: ${50_000 * ROW_HEIGHT}px`);
    expect(table.get('[role="table"]').attributes('aria-rowcount')).toBe('50001');
    expect(rendered[0]?.text()).toContain('pod-00000');
  });

  it('shows the rows at the scroll position, each placed at its own offset', async () => {
    const table = mountTable(many(50_000));
    const viewport = table.get('[role="table"]').element as HTMLElement;
    viewport.scrollTop = 30_000 * ROW_HEIGHT;
    await table.get('[role="table"]').trigger('scroll');
    const rendered = bodyRows(table);
    const names = rendered.map((row) => row.find('[role="cell"]').text());
    expect(names).toContain('pod-30000');
    expect(names).not.toContain('pod-00000');
    expect(rendered.length).toBeLessThanOrEqual(Math.ceil(VIEWPORT_PX / ROW_HEIGHT) + 16);
    const row = rendered.find((candidate) => candidate.find('[role="cell"]').text() === 'pod-30000');
    expect(row?.attributes('style')).toContain(`translateY(${30_000 * ROW_HEIGHT}px)`);
    expect(row?.attributes('aria-rowindex')).toBe('30002');
  });

  it('renders a column through its cell slot when given one', () => {
    const table = mountTable(many(3));
    expect(table.findAll('em.note').map((note) => note.text())).toEqual(['pod-00000!', 'pod-00001!', 'pod-00002!']);
  });

  it('asks for a sort from the header: first click in the column’s first direction, then flips', async () => {
    const table = mountTable(many(10), { column: 'name', direction: 'asc' });
    expect(table.get('[role="columnheader"][aria-sort="ascending"]').text()).toContain('Name');
    await table.get('button[data-column="name"]').trigger('click');
    await table.get('button[data-column="restarts"]').trigger('click');
    expect(table.emitted('update:sort')).toEqual([[{ column: 'name', direction: 'desc' }], [{ column: 'restarts', direction: 'desc' }]]);
    expect(table.find('button[data-column="note"]').exists()).toBe(false);
  });

  it('shows the empty slot when there are no rows', async () => {
    wrapper = mount(BaseVirtualTable, {
      props: { columns: COLUMNS, rows: [], rowKey: (row: Row) => row.id, label: 'Pods' } as never,
      slots: { empty: 'Nothing here' },
    }) as VueWrapper;
    await nextTick();
    expect(wrapper.get('.empty').text()).toBe('Nothing here');
  });
});

describe('sortRows', () => {
  const rows: Row[] = [
    { id: 'a', name: 'web-2', restarts: 3 },
    { id: 'b', name: 'Api', restarts: 0 },
    { id: 'c', name: 'web-1', restarts: 3 },
    { id: 'd', name: 'db', restarts: Number.NaN },
  ];
  const tie = (row: Row): string => row.name;

  it('sorts strings case-insensitively and numbers numerically, either way', () => {
    expect(sortRows(rows, COLUMNS, { column: 'name', direction: 'asc' }, tie).map((row) => row.id)).toEqual(['b', 'd', 'c', 'a']);
    expect(sortRows(rows, COLUMNS, { column: 'name', direction: 'desc' }, tie).map((row) => row.id)).toEqual(['a', 'c', 'd', 'b']);
  });

  it('breaks ties by the tie key and keeps unknown numbers last in both directions', () => {
    expect(sortRows(rows, COLUMNS, { column: 'restarts', direction: 'desc' }, tie).map((row) => row.id)).toEqual(['c', 'a', 'b', 'd']);
    expect(sortRows(rows, COLUMNS, { column: 'restarts', direction: 'asc' }, tie).map((row) => row.id)).toEqual(['b', 'c', 'a', 'd']);
  });

  it('leaves rows as they are for no sort or an unsortable column', () => {
    expect(sortRows(rows, COLUMNS, null, tie)).toBe(rows);
    expect(sortRows(rows, COLUMNS, { column: 'note', direction: 'asc' }, tie)).toBe(rows);
  });

  it('lays columns out on a grid with fixed minimum widths', () => {
    expect(columnLayout(COLUMNS as ReadonlyArray<TableColumn<never>>)).toEqual({ template: 'minmax(200px, 2fr) 80px 100px', minWidth: 380 });
  });
});

describe('useAdaptiveRows', () => {
  it('re-derives at once for user input but waits out a multiple of the last cost for data', async () => {
    let clock = 0;
    const timers: Array<{ at: number; run: () => void }> = [];
    const data = ref(0);
    const input = ref('');
    let computes = 0;
    const scope = effectScope();
    const { rows } = scope.run(() =>
      useAdaptiveRows({
        data: () => data.value,
        inputs: () => input.value,
        compute: () => {
          computes += 1;
          clock += 10; // every derivation "costs" 10 ms
          return `${data.value}:${input.value}`;
        },
        now: () => clock,
        setTimeout: (run, ms) => timers.push({ at: clock + ms, run }),
        clearTimeout: () => {},
      }),
    )!;
    expect(rows.value).toBe('0:');
    data.value = 1;
    await nextTick();
    expect(computes).toBe(1);
    expect(timers).toHaveLength(1);
    expect(timers[0]?.at).toBe(40); // last run ended at 10, cost 10 → next no sooner than 10 + 3 × 10
    data.value = 2;
    await nextTick();
    expect(timers).toHaveLength(1);
    clock = 40;
    timers[0]?.run();
    expect(rows.value).toBe('2:');
    input.value = 'web';
    await nextTick();
    expect(rows.value).toBe('2:web');
    scope.stop();
  });
});
