import { describe, expect, it } from 'vitest';
import { formatAge, formatBytes, formatCores, parseQuantity } from '../../../renderer/stores/rows/format.ts';
import { nodeRow } from '../../../renderer/stores/rows/nodes.ts';
import { node } from './cluster-fixtures.ts';

describe('node rows', () => {
  it('prints kubectl’s STATUS: Ready, NotReady, Unknown and SchedulingDisabled', () => {
    expect(nodeRow(node('a')).status).toBe('Ready');
    expect(nodeRow(node('b', { ready: false })).status).toBe('NotReady');
    expect(nodeRow(node('c', { ready: 'missing' })).status).toBe('Unknown');
    expect(nodeRow(node('d', { cordoned: true })).status).toBe('Ready,SchedulingDisabled');
    expect(nodeRow(node('e', { ready: false, cordoned: true })).status).toBe('NotReady,SchedulingDisabled');
  });

  it('tones a not-ready node danger and a cordoned or pressured one warning', () => {
    expect(nodeRow(node('a')).tone).toBe('ok');
    expect(nodeRow(node('b', { ready: false })).tone).toBe('danger');
    expect(nodeRow(node('d', { cordoned: true })).tone).toBe('warning');
    const pressured = nodeRow(node('p', { pressure: 'MemoryPressure' }));
    expect(pressured.tone).toBe('warning');
    expect(pressured.problems.map((condition) => condition.type)).toEqual(['MemoryPressure']);
  });

  it('lists roles from node-role labels, or <none>', () => {
    expect(nodeRow(node('cp', { roles: ['worker', 'control-plane'] })).roles).toBe('control-plane,worker');
    expect(nodeRow(node('w')).roles).toBe('<none>');
  });

  it('reads the kubelet version and allocatable capacity', () => {
    const row = nodeRow(node('a'));
    expect(row.version).toBe('v1.32.2');
    expect(formatCores(row.cpu)).toBe('3.92');
    expect(formatBytes(row.memory)).toBe('15.5 GiB');
  });
});

describe('formats', () => {
  it.each([
    [45_000, '45s'],
    [119_000, '119s'],
    [200_000, '3m20s'],
    [600_000, '10m'],
    [3 * 3_600_000 + 10 * 60_000, '3h10m'],
    [20 * 3_600_000, '20h'],
    [3 * 86_400_000 + 5 * 3_600_000, '3d5h'],
    [45 * 86_400_000, '45d'],
    [(2 * 365 + 30) * 86_400_000, '2y30d'],
    [Number.NaN, '<unknown>'],
  ])('prints an age of %d ms as %s, like kubectl', (ms, text) => {
    expect(formatAge(ms)).toBe(text);
  });

  it('parses quantities with binary and decimal suffixes', () => {
    expect(parseQuantity('3920m')).toBeCloseTo(3.92);
    expect(parseQuantity('16Gi')).toBe(16 * 2 ** 30);
    expect(parseQuantity('1k')).toBe(1000);
    expect(parseQuantity('1e3')).toBe(1000);
    expect(parseQuantity('lots')).toBeNaN();
  });

  it('prints cores and bytes the way people read them', () => {
    expect(formatCores(0.5)).toBe('500m');
    expect(formatCores(4)).toBe('4');
    expect(formatBytes(512 * 2 ** 20)).toBe('512 MiB');
    expect(formatBytes(Number.NaN)).toBe('—');
  });
});
