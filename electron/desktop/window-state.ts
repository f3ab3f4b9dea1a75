/**
 * Remembers the window's size, position and maximized state between runs, in one small JSON file
 * in userData. Reading never fails (a missing or damaged file means first-run defaults), and a
 * restored position is checked against the displays present now, because the monitor the window
 * was on last time may be unplugged.
 */
import * as nodeFs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Rectangle } from 'electron';
import { DEFAULT_WINDOW_HEIGHT_PX, DEFAULT_WINDOW_WIDTH_PX, MIN_WINDOW_HEIGHT_PX, MIN_WINDOW_WIDTH_PX } from './window-options.ts';

export const WINDOW_STATE_FILE = 'window-state.json';

/**
 * How much of the window must overlap a display to count as reachable: enough of the title bar
 * to grab and drag it back.
 */
export const MIN_VISIBLE_PX = 100;

const WindowStateSchema = z.object({
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  maximized: z.boolean(),
});

/** Restorable window geometry; without `x`/`y` the OS places the window. */
export type WindowState = z.infer<typeof WindowStateSchema>;

export const DEFAULT_WINDOW_STATE: WindowState = {
  width: DEFAULT_WINDOW_WIDTH_PX,
  height: DEFAULT_WINDOW_HEIGHT_PX,
  maximized: false,
};

/** The synchronous file operations used; injected by tests. */
export interface WindowStateFs {
  readFileSync(file: string, encoding: 'utf8'): string;
  writeFileSync(file: string, data: string, encoding: 'utf8'): void;
  renameSync(from: string, to: string): void;
  mkdirSync(dir: string, options: { recursive: true }): unknown;
}

export interface WindowStateStoreOptions {
  /** The directory holding the file: `app.getPath('userData')`. */
  dir: string;
  fs?: WindowStateFs;
  log?: (message: string) => void;
}

/** Reads the saved state; returns the defaults when there is none or it cannot be used. */
export function readWindowState(options: WindowStateStoreOptions): WindowState {
  const fs = options.fs ?? nodeFs;
  const log = options.log ?? ((message: string) => console.error(message));
  const file = path.join(options.dir, WINDOW_STATE_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      log(`[kubedrift] window state ${file} could not be read: ${(error as Error).message}`);
    }
    return { ...DEFAULT_WINDOW_STATE };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    log(`[kubedrift] window state ${file} is not valid JSON; using the default window size`);
    return { ...DEFAULT_WINDOW_STATE };
  }
  const parsed = WindowStateSchema.safeParse(raw);
  if (!parsed.success) {
    log(`[kubedrift] window state ${file} has unexpected content; using the default window size`);
    return { ...DEFAULT_WINDOW_STATE };
  }
  return parsed.data;
}

/**
 * Saves the state. Synchronous because it runs while the window closes and the app may quit
 * right after; the temp file + rename means a crash mid-write leaves the previous file intact.
 * Failures are logged, never thrown: losing the window size must not stop the app closing.
 */
export function writeWindowState(options: WindowStateStoreOptions, state: WindowState): void {
  const fs = options.fs ?? nodeFs;
  const log = options.log ?? ((message: string) => console.error(message));
  const file = path.join(options.dir, WINDOW_STATE_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(options.dir, { recursive: true });
    fs.writeFileSync(temp, `${JSON.stringify(state, null, 2)}\n`, 'utf8');
    fs.renameSync(temp, file);
  } catch (error) {
    log(`[kubedrift] window state could not be saved to ${file}: ${(error as Error).message}`);
  }
}

/** What a closing window reports: its un-maximized bounds, so restoring gives back both. */
export function captureWindowState(window: { getNormalBounds(): Rectangle; isMaximized(): boolean }): WindowState {
  const bounds = window.getNormalBounds();
  return {
    x: Math.round(bounds.x),
    y: Math.round(bounds.y),
    width: Math.round(bounds.width),
    height: Math.round(bounds.height),
    maximized: window.isMaximized(),
  };
}

function overlap(a: Rectangle, b: Rectangle): { width: number; height: number } {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return { width: Math.max(0, width), height: Math.max(0, height) };
}

function clampRange(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}

/**
 * Fits a restored state onto the current displays (`screen.getAllDisplays()` work areas).
 * A window mostly on one display is shrunk to fit it and moved fully inside; a window that no
 * longer meets any display by `MIN_VISIBLE_PX` gets the default size, placed by the OS, keeping
 * only its maximized flag.
 */
export function clampToDisplays(state: WindowState, workAreas: readonly Rectangle[]): WindowState {
  const size = {
    width: Math.max(state.width, MIN_WINDOW_WIDTH_PX),
    height: Math.max(state.height, MIN_WINDOW_HEIGHT_PX),
  };
  if (workAreas.length === 0) return { ...size, maximized: state.maximized };
  if (state.x === undefined || state.y === undefined) {
    const widest = Math.max(...workAreas.map((area) => area.width));
    const tallest = Math.max(...workAreas.map((area) => area.height));
    return { width: Math.min(size.width, widest), height: Math.min(size.height, tallest), maximized: state.maximized };
  }
  const bounds = { x: state.x, y: state.y, ...size };
  let best: { area: Rectangle; visible: number } | undefined;
  for (const area of workAreas) {
    const shared = overlap(bounds, area);
    const fits = shared.width >= MIN_VISIBLE_PX && shared.height >= MIN_VISIBLE_PX;
    const visible = shared.width * shared.height;
    if (fits && (!best || visible > best.visible)) best = { area, visible };
  }
  if (!best) return { ...DEFAULT_WINDOW_STATE, maximized: state.maximized };
  const { area } = best;
  const width = Math.min(size.width, area.width);
  const height = Math.min(size.height, area.height);
  return {
    x: clampRange(bounds.x, area.x, area.x + area.width - width),
    y: clampRange(bounds.y, area.y, area.y + area.height - height),
    width,
    height,
    maximized: state.maximized,
  };
}
