/**
 * A PNG of what a chart or graph shows. ECharts' own export (`getDataURL`) gives a PNG with the
 * canvas renderer and an SVG with the SVG renderer the app uses; an SVG is drawn onto a canvas
 * at the device's pixel ratio (times two, for crisp pictures in tickets and slides) with the
 * theme's background, so the file looks like the screen. A plain `<svg>` element (a graph drawn
 * without ECharts) takes the same path.
 */

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

function themeBackground(): string {
  return getComputedStyle(document.documentElement).getPropertyValue('--kd-bg').trim() || '#ffffff';
}

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('The picture could not be drawn'));
    image.src = url;
  });
}

/** An SVG element as a standalone SVG data URL, with its size made explicit. */
export function svgDataUrl(svg: SVGSVGElement): { url: string; width: number; height: number } {
  const box = svg.getBoundingClientRect();
  const width = Math.max(1, Math.round(box.width || Number(svg.getAttribute('width')) || 300));
  const height = Math.max(1, Math.round(box.height || Number(svg.getAttribute('height')) || 150));
  const copy = svg.cloneNode(true) as SVGSVGElement;
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.setAttribute('width', String(width));
  copy.setAttribute('height', String(height));
  const text = new XMLSerializer().serializeToString(copy);
  return { url: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`, width, height };
}

/** The picture as a PNG data URL. */
export async function toPngDataUrl(source: PngSource, options: PngOptions = {}): Promise<string> {
  const backgroundColor = options.backgroundColor ?? themeBackground();
  const pixelRatio = options.pixelRatio ?? Math.max(2, window.devicePixelRatio || 1);
  let url: string;
  let width: number;
  let height: number;
  if (isChart(source)) {
    url = source.getDataURL({ type: 'png', pixelRatio, backgroundColor, excludeComponents: options.excludeComponents ?? ['dataZoom', 'toolbox'] });
    if (url.startsWith('data:image/png')) return url;
    width = source.getWidth();
    height = source.getHeight();
  } else {
    const svg = source instanceof SVGSVGElement ? source : source.querySelector('svg');
    if (!svg) throw new Error('There is no chart here to save');
    ({ url, width, height } = svgDataUrl(svg));
  }
  const image = await loadImage(url);
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(width * pixelRatio);
  canvas.height = Math.round(height * pixelRatio);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('This window cannot draw pictures (no 2D canvas)');
  context.fillStyle = backgroundColor;
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  return canvas.toDataURL('image/png');
}

/** `frontend-2024-05-01-1200.png`: a name from the subject and the local time. */
export function pngFileName(subject: string, at: Date = new Date()): string {
  const safe = subject.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'chart';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${safe}-${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}-${pad(at.getHours())}${pad(at.getMinutes())}.png`;
}
