/**
 * Sort, filter and search on one of the app's live tables (the Overview, the Pods screen), each
 * timed in the page (page-interaction.ts) from the user's action until the table's new rows are
 * painted. Every measured step starts from the whole table and checks what the table must show
 * afterwards, from the seeded layout (seed-layout.ts: namespaces `churn-NNN` of Deployments
 * `svc-NNN` with pods `svc-NNN-<hash>-<suffix>`):
 * - sort: a mouse click on a column header (a real click, timed from when it was sent, so a wait
 *   behind work the page was doing counts) until the header says the table is sorted by it (the
 *   rows and the header change in the same render);
 * - filter: a namespace picked until the first row is in it and the summary counts that
 *   namespace's rows; then "All namespaces" again until the summary counts them all;
 * - search: a Deployment's name typed at once until the first row holds it and the summary counts
 *   its rows; then the field emptied until the summary counts them all.
 * Both directions of a filter or search are interactions a user makes, so both are timed.
 */
import type { BenchPage } from './live-browser.ts';
import { interact, readDom, waitForDom, type InteractionTimes } from './page-interaction.ts';

/** One table and what the seeded cluster puts in it. */
export interface TableUnderTest {
  /** The screen's test id (`overview`, `pods`): its section, `<testid>-summary`. */
  testid: string;
  /** Sortable columns to click in turn (none the table is sorted by to begin with). */
  columns: readonly string[];
  /** Rows shown for one of the seeded namespaces. */
  perNamespace: number;
  /** Rows shown when searching one Deployment's name (in every namespace). */
  perDeployment: number;
  /** The seeded namespaces' and Deployments' names to filter and search by. */
  namespaces: readonly string[];
  deployments: readonly string[];
  /** Timed steps of each kind. */
  runs: number;
}

/** Each interaction's times, in the order made. */
export interface TableTimes {
  rows: number;
  sort: InteractionTimes[];
  filter: InteractionTimes[];
  search: InteractionTimes[];
}

const TIMEOUT_MS = 60_000;

const count = (value: number): string => value.toLocaleString('en-US');

/** The selectors of a table screen. */
function selectors(testid: string) {
  const section = `[data-testid="${testid}"]`;
  return {
    summary: `[data-testid="${testid}-summary"] strong`,
    firstRow: `${section} [role="row"][aria-rowindex="2"]`,
    header: (column: string) => `${section} [role="columnheader"]:has(> button[data-column="${column}"])`,
    sortButton: (column: string) => `${section} button[data-column="${column}"]`,
    namespace: `${section} [data-testid="namespace-filter"]`,
    search: `${section} [data-testid="table-search"]`,
  };
}

/** `runs` items of `items` in turn, skipping those `avoid` holds (the first row's text, say). */
function pick(items: readonly string[], runs: number, avoid: string): string[] {
  const usable = items.filter((item) => !avoid.toLowerCase().includes(item.toLowerCase()));
  if (usable.length === 0) throw new Error(`nothing to pick from ${items.join(', ')} that the first row does not already show`);
  return Array.from({ length: runs }, (_, i) => usable[i % usable.length] as string);
}

/** Measures the table on screen now (its rows already shown). */
export async function measureTable(page: BenchPage, table: TableUnderTest): Promise<TableTimes> {
  const css = selectors(table.testid);
  await waitForDom(page, [{ selector: css.firstRow }], TIMEOUT_MS);
  const total = (await readDom(page, css.summary)) ?? '';
  const all = [{ selector: css.summary, equals: total }];
  const times: TableTimes = { rows: Number(total.replaceAll(',', '')), sort: [], filter: [], search: [] };

  for (let i = 0; i < table.runs; i += 1) {
    const column = table.columns[i % table.columns.length] as string;
    const header = css.header(column);
    // A header not sorted by says "none"; a click sorts by it, ascending or its first direction.
    const before = await readDom(page, header, 'aria-sort');
    if (before === null) throw new Error(`${table.testid}: no sortable column ${column}`);
    times.sort.push(await interact(page, { press: css.sortButton(column) }, [{ selector: header, attribute: 'aria-sort', notEquals: before }], TIMEOUT_MS));
  }

  const firstRow = (await readDom(page, css.firstRow)) ?? '';
  for (const namespace of pick(table.namespaces, table.runs, firstRow)) {
    times.filter.push(
      await interact(
        page,
        { select: css.namespace, value: namespace },
        [
          { selector: css.firstRow, contains: namespace },
          { selector: css.summary, equals: count(table.perNamespace) },
        ],
        TIMEOUT_MS,
      ),
    );
    times.filter.push(await interact(page, { select: css.namespace, value: '' }, all, TIMEOUT_MS));
  }

  for (const deployment of pick(table.deployments, table.runs, firstRow)) {
    times.search.push(
      await interact(
        page,
        { type: css.search, value: deployment },
        [
          { selector: css.firstRow, contains: deployment },
          { selector: css.summary, equals: count(table.perDeployment) },
        ],
        TIMEOUT_MS,
      ),
    );
    times.search.push(await interact(page, { type: css.search, value: '' }, all, TIMEOUT_MS));
  }
  return times;
}
