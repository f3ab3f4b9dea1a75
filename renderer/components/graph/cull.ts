/**
 * Which part of a large graph is drawn. A namespace of 60 workloads is ~240 cards in a band per
 * workload, several screens tall; the first view shows a few bands at a readable scale. Laying
 * out, styling and painting every card (about a dozen SVG elements each) cost the browser more
 * than the engine's whole answer, so beyond DRAW_ALL_UP_TO cards only those in the view and one
 * view's size around it are drawn, and panning or zooming draws what comes near. Smaller graphs
 * are drawn whole, as before.
 */
import { CARD_HEIGHT, CARD_WIDTH, type Placed } from './layout.ts';
import type { Viewport } from './pan-zoom.ts';

/** Graphs of up to this many cards are drawn whole. */
export const DRAW_ALL_UP_TO = 150;
/** Drawn beyond the view on each side, in view sizes: a pan of up to one screen finds cards already drawn. */
export const DRAW_MARGIN_VIEWS = 1;

/** A rectangle in graph coordinates (the cards' own, below the column header). */
export interface Window {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * The graph area worth drawing for `viewport` on a `view` of that size, the cards being shifted
 * `header` graph units down; null when it cannot be known (the host not measured yet).
 */
export function drawWindow(viewport: Viewport, view: { width: number; height: number }, header: number): Window | null {
  if (view.width <= 0 || view.height <= 0 || viewport.k <= 0) return null;
  const marginX = view.width * DRAW_MARGIN_VIEWS;
  const marginY = view.height * DRAW_MARGIN_VIEWS;
  // Widened to a grid of half views, so a pan of a few pixels gives the same window (nothing redrawn).
  const stepX = view.width / viewport.k / 2;
  const stepY = view.height / viewport.k / 2;
  return {
    left: Math.floor((-marginX - viewport.x) / viewport.k / stepX) * stepX,
    right: Math.ceil((view.width + marginX - viewport.x) / viewport.k / stepX) * stepX,
    top: Math.floor(((-marginY - viewport.y) / viewport.k - header) / stepY) * stepY,
    bottom: Math.ceil(((view.height + marginY - viewport.y) / viewport.k - header) / stepY) * stepY,
  };
}

/** Whether two windows are the same area (null: everything). */
export function sameWindow(a: Window | null, b: Window | null): boolean {
  if (a === null || b === null) return a === b;
  return a.left === b.left && a.right === b.right && a.top === b.top && a.bottom === b.bottom;
}

/** Whether a card placed at (x, y) shows in `window`. */
export function cardInWindow(placed: { x: number; y: number }, window: Window): boolean {
  return placed.x + CARD_WIDTH >= window.left && placed.x <= window.right && placed.y + CARD_HEIGHT >= window.top && placed.y <= window.bottom;
}

/**
 * The cards of `placed` that show in `window`, in reading order (band by band, left to right):
 * the order Tab moves in. With the view following the focused card (GraphCanvas), the next card
 * is then always near enough to be drawn, so the keyboard reaches every card of a culled graph.
 */
export function drawnInReadingOrder<T extends { x: number; y: number }>(placed: readonly T[], window: Window): T[] {
  return placed.filter((item) => cardInWindow(item, window)).sort((a, b) => a.y - b.y || a.x - b.x);
}

/** The rows an edge spans: every path of edges.ts stays between its cards' top and bottom. */
export interface Span {
  top: number;
  bottom: number;
}

/** The vertical span of an edge from `from` to `to` (ids placed in `positions`); null when none is placed. */
export function edgeSpan(from: string, to: readonly string[], positions: ReadonlyMap<string, Placed>): Span | null {
  let top = Infinity;
  let bottom = -Infinity;
  for (const id of [from, ...to]) {
    const placed = positions.get(id);
    if (!placed) continue;
    top = Math.min(top, placed.y);
    bottom = Math.max(bottom, placed.y + CARD_HEIGHT);
  }
  return top <= bottom ? { top, bottom } : null;
}

/**
 * Whether an edge shows in `window`, by rows only: the graph is a few columns wide (most of it in
 * view across) but many bands tall, and a curve may leave its cards' columns by its bend.
 */
export function spanInWindow(span: Span | null, window: Window): boolean {
  return span === null || (span.bottom >= window.top && span.top <= window.bottom);
}
