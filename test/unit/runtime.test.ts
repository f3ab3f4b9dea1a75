import { describe, expect, it } from 'vitest';

describe('runtime', () => {
  it('runs on Node >= 22.19, as Electron 45 and client-node 2.x need', () => {
    const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
    expect(major > 22 || (major === 22 && minor >= 19), `running on Node ${process.versions.node}`).toBe(true);
  });

  it('has node:sqlite, which the history store relies on', async () => {
    const sqlite = await import('node:sqlite');
    const db = new sqlite.DatabaseSync(':memory:');
    expect(db.prepare('select 41 + 1 as answer').get()).toEqual({ answer: 42 });
    db.close();
  });
});
