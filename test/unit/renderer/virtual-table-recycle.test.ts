// @vitest-environment happy-dom
import { mount, type VueWrapper } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextTick } from 'vue';
import BaseVirtualTable from '../../../renderer/components/table/BaseVirtualTable.vue';
import type { TableColumn } from '../../../renderer/components/table/columns.ts';

interface Row {
  id: string;
  name: string;
  tone?: string;
}

const ROW_HEIGHT = 28;
const VIEWPORT_PX = 560;
/** Rows the table renders at most: those that fit, plus 8 either side (BaseVirtualTable's overscan). */
const SLOTS = VIEWPORT_PX / ROW_HEIGHT + 16;
const COLUMNS: ReadonlyArray<TableColumn<Row>> = [
  { id: 'name', label: 'Name', width: 200, text: (row) => row.name, title: (row) => row.name },
  { id: 'note', label: 'Note', width: 100 },
];

const many = (count: number, prefix = 'pod'): Row[] => Array.from({ length: count }, (_, i) => ({ id: `${prefix}${i}`, name: `${prefix}-${String(i).padStart(5, '0')}` }));

let wrapper: VueWrapper | undefined;
afterEach(() => {
  wrapper?.unmount();
  wrapper = undefined;
  vi.restoreAllMocks();
});

function mountTable(rows: Row[], recycleRows: boolean): VueWrapper {
  // happy-dom does no layout: give the viewport the height a window would.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(VIEWPORT_PX);
  wrapper = mount(BaseVirtualTable, {
    props: {
      columns: COLUMNS,
      rows,
      rowKey: (row: Row) => row.id,
      rowTone: (row: Row) => row.tone,
      rowAttrs: (row: Row) => (row.tone ? { 'data-testid': 'toned' } : undefined),
      label: 'Pods',
      recycleRows,
    } as never,
    slots: { 'cell-note': '<template #cell-note="{ row }"><em class="note">{{ row.name }}!</em></template>' },
  }) as VueWrapper;
  return wrapper;
}

const bodyRows = (table: VueWrapper) => table.findAll('.body [role="row"]');
/** What a user and a test see of the rendered rows: text, place, index, tone and extra attributes. */
const shown = (table: VueWrapper) =>
  bodyRows(table).map((row) => ({
    name: row.find('[role="cell"]').text(),
    title: row.find('[role="cell"]').attributes('title'),
    note: row.find('em.note').text(),
    index: row.attributes('aria-rowindex'),
    at: row.attributes('style'),
    tone: row.attributes('data-tone'),
    testid: row.attributes('data-testid'),
  }));

describe('BaseVirtualTable with recycleRows', () => {
  it('shows exactly what the keyed table shows, after new rows, a scroll and fewer rows', async () => {
    const steps: Array<(table: VueWrapper) => Promise<void>> = [
      async (table) => void (await table.setProps({ rows: [...many(5_000)].reverse() })),
      async (table) => void (await table.setProps({ rows: many(5_000, 'job').map((row, i) => ({ ...row, tone: i % 3 === 0 ? 'danger' : undefined })) })),
      async (table) => {
        const viewport = table.get('[role="table"]').element as HTMLElement;
        viewport.scrollTop = 1_234 * ROW_HEIGHT + 5;
        await table.get('[role="table"]').trigger('scroll');
      },
      async (table) => void (await table.setProps({ rows: many(3, 'svc') })),
    ];
    const keyed = mountTable(many(5_000), false);
    const views: unknown[][] = [];
    for (const step of steps) {
      await step(keyed);
      views.push(shown(keyed));
    }
    keyed.unmount();
    const recycled = mountTable(many(5_000), true);
    for (const [i, step] of steps.entries()) {
      await step(recycled);
      expect(shown(recycled)).toEqual(views[i]);
    }
  });

  it('keeps the row elements in view when every row in view changes (a sort or a filter)', async () => {
    const table = mountTable(many(5_000), true);
    await nextTick();
    const before = bodyRows(table).map((row) => row.element);
    expect(before).toHaveLength(SLOTS);
    await table.setProps({ rows: many(5_000, 'job') });
    const after = bodyRows(table).map((row) => row.element);
    expect(after).toEqual(before);
    expect(after.every((element, i) => element === before[i])).toBe(true);
    expect(bodyRows(table)[0]?.text()).toContain('job-00000');
  });

  it('keeps the element of a row that stays in view while scrolling, and reuses those scrolled out', async () => {
    const table = mountTable(many(5_000), true);
    const viewport = table.get('[role="table"]').element as HTMLElement;
    viewport.scrollTop = 100 * ROW_HEIGHT;
    await table.get('[role="table"]').trigger('scroll');
    const elementOf = (name: string) => bodyRows(table).find((row) => row.find('[role="cell"]').text() === name)?.element;
    const staying = elementOf('pod-00100');
    const before = new Set(bodyRows(table).map((row) => row.element));
    viewport.scrollTop = 103 * ROW_HEIGHT;
    await table.get('[role="table"]').trigger('scroll');
    expect(elementOf('pod-00100')).toBe(staying);
    // Three rows scrolled in and three out: the new ones took the freed elements.
    expect(bodyRows(table).every((row) => before.has(row.element))).toBe(true);
    expect(elementOf('pod-00130')).toBeDefined();
  });

  it('keeps keyboard focus on the same control of the same row across a sort, or on the table once that row left the view', async () => {
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(VIEWPORT_PX);
    wrapper = mount(BaseVirtualTable, {
      props: { columns: COLUMNS, rows: many(5_000), rowKey: (row: Row) => row.id, label: 'Pods', recycleRows: true } as never,
      slots: { 'cell-note': '<template #cell-note="{ row }"><button type="button" class="open">{{ row.name }}</button></template>' },
      attachTo: document.body,
    }) as VueWrapper;
    const table = wrapper;
    const button = (name: string) => bodyRows(table).find((row) => row.find('button.open').text() === name)?.find('button.open').element as HTMLElement | undefined;
    button('pod-00003')?.focus();
    expect(document.activeElement?.textContent).toBe('pod-00003');
    const placeBefore = document.activeElement;
    // The first ten rows reversed: pod3 moves from the 4th place to the 7th.
    const rows = many(5_000);
    await table.setProps({ rows: [...rows.slice(0, 10).reverse(), ...rows.slice(10)] });
    expect(document.activeElement?.textContent).toBe('pod-00003');
    expect(document.activeElement).not.toBe(placeBefore);
    expect(document.activeElement).toBe(button('pod-00003'));
    // A live update that leaves it in place keeps the very element.
    const same = document.activeElement;
    await table.setProps({ rows: [...rows.slice(0, 10).reverse(), ...rows.slice(10)].map((row) => ({ ...row })) });
    expect(document.activeElement).toBe(same);
    // Sorted to the far end: no control of another row takes the focus; the table does.
    await table.setProps({ rows: [...rows].reverse() });
    expect(document.activeElement).toBe(table.get('[role="table"]').element);
  });

  it('without it, row elements follow their rows (keyed by rowKey)', async () => {
    const table = mountTable(many(5_000), false);
    await nextTick();
    const first = bodyRows(table)[0]?.element;
    await table.setProps({ rows: many(5_000, 'job') });
    expect(bodyRows(table).some((row) => row.element === first)).toBe(false);
  });
});
