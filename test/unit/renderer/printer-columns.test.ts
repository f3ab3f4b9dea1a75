/** A kind's Table as Overview columns: which of the server's columns show, and how cells read. */
import { describe, expect, it } from 'vitest';
import type { ClusterTable } from '../../../shared/contracts/tables.ts';
import type { OverviewRow } from '../../../renderer/stores/rows/custom.ts';
import { cellText, printerColumns } from '../../../renderer/views/overview/printer-columns.ts';

/** The demo database operator's Table, as the simulated API server prints it from the CRD. */
const DATABASES: ClusterTable = {
  context: 'kubedrift-demo',
  kind: 'databases.db.kubedrift.dev',
  at: 1,
  truncated: false,
  columns: [
    { name: 'Name', type: 'string', format: 'name', priority: 0, description: 'Name must be unique within a namespace.' },
    { name: 'Version', type: 'string', format: '', priority: 0, description: 'The engine version running' },
    { name: 'Replicas', type: 'integer', format: 'int32', priority: 0, description: '' },
    { name: 'Ready', type: 'integer', format: '', priority: 0, description: '' },
    { name: 'Phase', type: 'string', format: '', priority: 0, description: '' },
    { name: 'Endpoint', type: 'string', format: '', priority: 1, description: '' },
    { name: 'Age', type: 'date', format: '', priority: 0, description: '' },
  ],
  cells: { 'db-uid': ['orders-db', '16.4', 2, 0, 'Provisioning', null, '4s'] },
};

const row = (uid: string) => ({ uid }) as OverviewRow;

describe('printer columns', () => {
  it("show the server's priority-0 columns except Name and Age, numbers aligned to the end", () => {
    const columns = printerColumns(DATABASES);
    expect(columns.map((column) => [column.label, column.align])).toEqual([
      ['Version', 'start'],
      ['Replicas', 'end'],
      ['Ready', 'end'],
      ['Phase', 'start'],
    ]);
    expect(columns.map((column) => column.text?.(row('db-uid'), 0))).toEqual(['16.4', '2', '0', 'Provisioning']);
    expect(columns[0]?.help).toBe('The engine version running');
    // Not sortable: the cells are the server's as of the last read, not the rows' own data.
    expect(columns.every((column) => column.sortKey === undefined)).toBe(true);
  });

  it('read an object the last read did not have as blank, and a missing value as a dash', () => {
    const [version] = printerColumns(DATABASES);
    expect(version?.text?.(row('new-uid'), 0)).toBe('');
    expect([cellText(null), cellText(''), cellText(false), cellText('{"a":1}'), cellText(undefined)]).toEqual(['—', '—', 'false', '{"a":1}', '']);
  });
});
