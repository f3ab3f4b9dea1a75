import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  captureWindowState,
  clampToDisplays,
  DEFAULT_WINDOW_STATE,
  readWindowState,
  WINDOW_STATE_FILE,
  writeWindowState,
  type WindowStateFs,
} from '../../../electron/desktop/window-state.ts';
import { withTempDir } from '../../helpers/tmp.ts';

let dir: string;
let cleanup: () => Promise<void>;
const logs: string[] = [];
const log = (message: string) => logs.push(message);
beforeEach(async () => {
  ({ dir, cleanup } = await withTempDir());
  logs.length = 0;
});
afterEach(() => cleanup());

const LAPTOP = { x: 0, y: 0, width: 1440, height: 900 };
const MONITOR = { x: 1440, y: 0, width: 2560, height: 1440 };

describe('window state file', () => {
  it('round-trips size, position and maximized', () => {
    const state = { x: 100, y: 50, width: 1200, height: 800, maximized: true };
    writeWindowState({ dir, log }, state);
    expect(readWindowState({ dir, log })).toEqual(state);
    expect(logs).toEqual([]);
  });

  it('creates the directory and leaves no temporary file behind', () => {
    const nested = path.join(dir, 'not', 'yet');
    writeWindowState({ dir: nested, log }, { width: 1000, height: 700, maximized: false });
    expect(readdirSync(nested)).toEqual([WINDOW_STATE_FILE]);
  });

  it('writes through a temporary file renamed into place', () => {
    const calls: string[] = [];
    const fs: WindowStateFs = {
      readFileSync: () => '',
      mkdirSync: () => calls.push('mkdir'),
      writeFileSync: (file) => calls.push(`write ${path.basename(file)}`),
      renameSync: (from, to) => calls.push(`rename ${path.basename(from)} -> ${path.basename(to)}`),
    };
    writeWindowState({ dir, fs, log }, DEFAULT_WINDOW_STATE);
    const temp = `${WINDOW_STATE_FILE}.${process.pid}.tmp`;
    expect(calls).toEqual(['mkdir', `write ${temp}`, `rename ${temp} -> ${WINDOW_STATE_FILE}`]);
  });

  it('uses the defaults silently on first run', () => {
    expect(readWindowState({ dir, log })).toEqual(DEFAULT_WINDOW_STATE);
    expect(logs).toEqual([]);
  });

  it('uses the defaults and says so when the file is not JSON', () => {
    writeFileSync(path.join(dir, WINDOW_STATE_FILE), '{"width": 12');
    expect(readWindowState({ dir, log })).toEqual(DEFAULT_WINDOW_STATE);
    expect(logs.join('\n')).toMatch(/not valid JSON/);
  });

  it('uses the defaults when the file has the wrong shape', () => {
    writeFileSync(path.join(dir, WINDOW_STATE_FILE), JSON.stringify({ width: -5, height: 'tall', maximized: 1 }));
    expect(readWindowState({ dir, log })).toEqual(DEFAULT_WINDOW_STATE);
    expect(logs.join('\n')).toMatch(/unexpected content/);
  });

  it('logs instead of throwing when the state cannot be saved', () => {
    const fs: WindowStateFs = {
      readFileSync: () => '',
      mkdirSync: () => undefined,
      writeFileSync: () => {
        throw Object.assign(new Error('EROFS: read-only file system'), { code: 'EROFS' });
      },
      renameSync: () => undefined,
    };
    expect(() => writeWindowState({ dir, fs, log }, DEFAULT_WINDOW_STATE)).not.toThrow();
    expect(logs.join('\n')).toMatch(/could not be saved.*read-only/);
  });

  it('captures the normal bounds of a maximized window', () => {
    const state = captureWindowState({ getNormalBounds: () => ({ x: 10.4, y: 20, width: 1000, height: 700.6 }), isMaximized: () => true });
    expect(state).toEqual({ x: 10, y: 20, width: 1000, height: 701, maximized: true });
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
    writeWindowState({ dir, log }, state);
    expect(JSON.parse(readFileSync(path.join(dir, WINDOW_STATE_FILE), 'utf8'))).toEqual(state);
  });
});

describe('clampToDisplays', () => {
  it('keeps a window that is fully on a display', () => {
    const state = { x: 1600, y: 100, width: 1200, height: 800, maximized: false };
    expect(clampToDisplays(state, [LAPTOP, MONITOR])).toEqual(state);
  });

  it('moves a window hanging off the right edge back inside the display it is mostly on', () => {
    const state = { x: 1000, y: 100, width: 1000, height: 700, maximized: false };
    expect(clampToDisplays(state, [LAPTOP])).toEqual({ x: 440, y: 100, width: 1000, height: 700, maximized: false });
  });

  it('shrinks a window larger than its display', () => {
    const state = { x: -50, y: -50, width: 3000, height: 2000, maximized: false };
    expect(clampToDisplays(state, [LAPTOP])).toEqual({ x: 0, y: 0, width: 1440, height: 900, maximized: false });
  });

  it('falls back to the default size, placed by the OS, when its display is gone', () => {
    const onUnpluggedMonitor = { x: 2000, y: 200, width: 1600, height: 1000, maximized: true };
    expect(clampToDisplays(onUnpluggedMonitor, [LAPTOP])).toEqual({ ...DEFAULT_WINDOW_STATE, maximized: true });
  });

  it('treats a window showing only a sliver on a display as off-screen', () => {
    const sliver = { x: 1400, y: 100, width: 1200, height: 800, maximized: false };
    expect(clampToDisplays(sliver, [LAPTOP])).toEqual(DEFAULT_WINDOW_STATE);
  });

  it('keeps a position-less state unplaced but no larger than the biggest display', () => {
    expect(clampToDisplays({ width: 5000, height: 700, maximized: false }, [LAPTOP, MONITOR])).toEqual({
      width: 2560,
      height: 700,
      maximized: false,
    });
  });
});
