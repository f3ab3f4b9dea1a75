/**
 * A PNG of what a chart or graph shows. ECharts' own export (`getDataURL`) gives a PNG with the
 * canvas renderer and an SVG with the SVG renderer the app uses; an SVG is drawn onto a canvas
 * at the device's pixel ratio (times two, for crisp pictures in tickets and slides) with the
 * theme's background, so the file looks like the screen. A plain `<svg>` element (a graph drawn
 * without ECharts) is styled by classes a picture does not have: svg-png.ts inlines them first.
 */

import { drawPng, svgPicture, svgToPngDataUrl, themeBackground } from './svg-png.ts';

/** The parts of an ECharts instance used (`getDataURL`, size). */
export interface ChartLike {
  getDataURL(options: { type?: 'png' | 'jpeg' | 'svg'; pixelRatio?: number; backgroundColor?: string; excludeComponents?: string[] }): string;
  getWidth(): number;
  getHeight(): number;
}

export type PngSource = ChartLike | SVGSVGElement | HTMLElement;

export interface PngOptions {
  /** Defaults to the page's `--kd-bg`. */
  backgroundColor?: string;
  /** Defaults to max(2, devicePixelRatio). */
  pixelRatio?: number;
  /** ECharts components left out of the picture (the zoom slider, the toolbox). */
  excludeComponents?: string[];
}

function isChart(source: PngSource): source is ChartLike {
  return typeof (source as ChartLike).getDataURL === 'function';
}

/** An SVG element as a standalone SVG data URL, styles inlined and sized (see svg-png.ts). */
export function svgDataUrl(svg: SVGSVGElement): { url: string; width: number; height: number } {
  const { text, width, height } = svgPicture(svg);
  return { url: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`, width, height };
}

/** The picture as a PNG data URL. */
export async function toPngDataUrl(source: PngSource, options: PngOptions = {}): Promise<string> {
  const pixelRatio = options.pixelRatio ?? Math.max(2, window.devicePixelRatio || 1);
  if (!isChart(source)) {
    const svg = source instanceof SVGSVGElement ? source : source.querySelector('svg');
    if (!svg) throw new Error('There is no chart here to save');
    return svgToPngDataUrl(svg, { pixelRatio, ...(options.backgroundColor ? { backgroundColor: options.backgroundColor } : {}) });
  }
  const backgroundColor = options.backgroundColor ?? themeBackground();
  const url = source.getDataURL({ type: 'png', pixelRatio, backgroundColor, excludeComponents: options.excludeComponents ?? ['dataZoom', 'toolbox'] });
  if (url.startsWith('data:image/png')) return url;
  return drawPng(url, source.getWidth(), source.getHeight(), { pixelRatio, backgroundColor });
}

/** `frontend-2024-05-01-1200.png`: a name from the subject and the local time. */
export function pngFileName(subject: string, at: Date = new Date()): string {
  const safe = subject.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'chart';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${safe}-${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}-${pad(at.getHours())}${pad(at.getMinutes())}.png`;
}
