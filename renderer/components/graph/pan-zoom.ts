/**
 * The graph canvas's viewport as plain numbers: a translation and a scale. Fitting, zooming
 * around a point (the cursor stays over the same spot of the graph) and panning are pure, so the
 * component only forwards pointer and wheel events.
 */

export interface Viewport {
  x: number;
  y: number;
  k: number;
}

export interface Size {
  width: number;
  height: number;
}

export const MIN_SCALE = 0.15;
export const MAX_SCALE = 2;
/** Room around the graph when fitting, in screen pixels. */
export const FIT_PADDING = 28;
/** A first view never starts so small that cards are unreadable; a tall graph scrolls instead. */
export const READABLE_SCALE = 0.85;

const clampScale = (k: number): number => Math.min(MAX_SCALE, Math.max(MIN_SCALE, k));

/**
 * The viewport showing `content` in `view`. `whole`: all of it, however small that makes it.
 * Otherwise (a first view) all of it if that stays readable (READABLE_SCALE), else its full width
 * at a readable scale from the top, the rest a scroll away. Never enlarged past 1.
 */
export function fitViewport(content: Size, view: Size, whole: boolean): Viewport {
  if (content.width <= 0 || content.height <= 0 || view.width <= 0 || view.height <= 0) return { x: FIT_PADDING, y: FIT_PADDING, k: 1 };
  const room = { width: Math.max(1, view.width - 2 * FIT_PADDING), height: Math.max(1, view.height - 2 * FIT_PADDING) };
  const fitWidth = Math.min(1, room.width / content.width);
  const fitAll = Math.min(fitWidth, room.height / content.height);
  const k = clampScale(whole || fitAll >= READABLE_SCALE ? fitAll : Math.max(fitAll, Math.min(READABLE_SCALE, fitWidth)));
  const width = content.width * k;
  const height = content.height * k;
  // Centre what fits; start at the top-left edge of what does not.
  const x = width <= room.width ? (view.width - width) / 2 : FIT_PADDING;
  const y = height <= room.height ? (view.height - height) / 2 : FIT_PADDING;
  return { x, y, k };
}

/** Zooms by `factor` keeping the graph point under `at` (screen pixels) where it is. */
export function zoomAt(viewport: Viewport, factor: number, at: { x: number; y: number }): Viewport {
  const k = clampScale(viewport.k * factor);
  const ratio = k / viewport.k;
  return { k, x: at.x - (at.x - viewport.x) * ratio, y: at.y - (at.y - viewport.y) * ratio };
}

export function panBy(viewport: Viewport, dx: number, dy: number): Viewport {
  return { ...viewport, x: viewport.x + dx, y: viewport.y + dy };
}

/** Content kept on screen however far one pans: this much of it, in screen pixels. */
export const KEEP_VISIBLE = 120;

/** `viewport` moved the least so that some of `content` stays in `view` (no panning into the void). */
export function clampViewport(viewport: Viewport, content: Size, view: Size): Viewport {
  const width = content.width * viewport.k;
  const height = content.height * viewport.k;
  const keepX = Math.min(KEEP_VISIBLE, width);
  const keepY = Math.min(KEEP_VISIBLE, height);
  const x = Math.min(view.width - keepX, Math.max(keepX - width, viewport.x));
  const y = Math.min(view.height - keepY, Math.max(keepY - height, viewport.y));
  return x === viewport.x && y === viewport.y ? viewport : { ...viewport, x, y };
}

/** The wheel's zoom factor: smooth for trackpad pinches (small deltas), a step for mouse wheels. */
export function wheelFactor(deltaY: number): number {
  return Math.exp(-Math.max(-60, Math.min(60, deltaY)) * 0.006);
}

/** The viewport that brings a graph box (x, y, w, h) into view, moving as little as possible. */
export function reveal(viewport: Viewport, box: { x: number; y: number; width: number; height: number }, view: Size): Viewport {
  const left = viewport.x + box.x * viewport.k;
  const top = viewport.y + box.y * viewport.k;
  const right = left + box.width * viewport.k;
  const bottom = top + box.height * viewport.k;
  let dx = 0;
  let dy = 0;
  if (left < FIT_PADDING) dx = FIT_PADDING - left;
  else if (right > view.width - FIT_PADDING) dx = view.width - FIT_PADDING - right;
  if (top < FIT_PADDING) dy = FIT_PADDING - top;
  else if (bottom > view.height - FIT_PADDING) dy = view.height - FIT_PADDING - bottom;
  return dx === 0 && dy === 0 ? viewport : panBy(viewport, dx, dy);
}
