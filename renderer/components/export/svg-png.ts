/**
 * A live `<svg>` as a picture that looks like the screen. The app's own SVGs (the ownership
 * graph) are styled by classes and theme variables, which a serialised copy loses: drawn as an
 * image it has no stylesheet, so every fill turns black and every font serif. The copy therefore
 * gets the computed presentation of each live element written inline (colours resolved, `var()`
 * gone), the background the screen shows behind it, and, for a pan/zoom view, the whole content
 * at scale 1 rather than the part the viewport happens to show.
 *
 * The pan/zoom group is marked `data-png-viewport`: its transform is dropped and the picture is
 * its bounding box. Without one the picture is the SVG's own size, as it is on screen.
 */

/** Computed properties that change how SVG content paints, written inline on the copy. */
const INHERITED = [
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'letter-spacing',
  'text-anchor',
  'dominant-baseline',
  'visibility',
] as const;

/** Room kept around the content's bounding box, in SVG units. */
const PADDING = 16;
/** Canvas limits well inside what browsers allow (Chromium: 32,767 px a side, 268 M px). */
export const MAX_SIDE = 16_384;
export const MAX_PIXELS = 32 * 1024 * 1024;

export interface SvgPictureOptions {
  /** Painted behind the content; defaults to what the screen shows behind the SVG. */
  backgroundColor?: string;
}

export interface SvgPicture {
  /** The standalone SVG document. */
  text: string;
  width: number;
  height: number;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The theme's page background (`--kd-bg`). */
export function themeBackground(): string {
  return getComputedStyle(document.documentElement).getPropertyValue('--kd-bg').trim() || '#ffffff';
}

/** The first non-transparent background behind `element`, else the theme's. */
export function backgroundBehind(element: Element): string {
  for (let at: Element | null = element; at; at = at.parentElement) {
    const color = getComputedStyle(at).getPropertyValue('background-color').trim();
    if (color && color !== 'transparent' && !/^rgba\(.*,\s*0\)$/.test(color)) return color;
  }
  return themeBackground();
}

/**
 * Copies the computed presentation of `live` and its descendants onto `copy` (a deep clone of
 * it) as inline styles. Inherited properties equal to the parent's are left to inheritance, so
 * a large graph's file stays small; text shown upper- or lower-cased by CSS is rewritten so.
 */
export function inlineStyles(live: Element, copy: Element, parent: readonly string[] | null = null): void {
  const computed = getComputedStyle(live);
  const values = INHERITED.map((property) => computed.getPropertyValue(property).trim());
  const declarations: string[] = [];
  values.forEach((value, i) => {
    if (value && (!parent || parent[i] !== value)) declarations.push(`${INHERITED[i]}: ${value}`);
  });
  const opacity = computed.getPropertyValue('opacity').trim();
  if (opacity && opacity !== '1') declarations.push(`opacity: ${opacity}`);
  if (computed.getPropertyValue('display').trim() === 'none') declarations.push('display: none');
  if (declarations.length > 0) {
    const own = copy.getAttribute('style')?.trim().replace(/;$/, '');
    copy.setAttribute('style', own ? `${own}; ${declarations.join('; ')}` : declarations.join('; '));
  }
  const transform = computed.getPropertyValue('text-transform').trim();
  if (live.localName === 'text' && (transform === 'uppercase' || transform === 'lowercase') && copy.children.length === 0) {
    copy.textContent = transform === 'uppercase' ? (copy.textContent ?? '').toUpperCase() : (copy.textContent ?? '').toLowerCase();
  }
  const liveChildren = live.children;
  const copyChildren = copy.children;
  for (let i = 0; i < liveChildren.length && i < copyChildren.length; i += 1) {
    inlineStyles(liveChildren[i] as Element, copyChildren[i] as Element, values);
  }
}

/** The SVG's size on screen (or from its attributes before layout). */
function ownSize(svg: SVGSVGElement): Box {
  const rect = svg.getBoundingClientRect();
  const width = Math.max(1, Math.round(rect.width || Number(svg.getAttribute('width')) || 300));
  const height = Math.max(1, Math.round(rect.height || Number(svg.getAttribute('height')) || 150));
  return { x: 0, y: 0, width, height };
}

/** The pan/zoom group's content box in its own units, padded; null when there is none to measure. */
export function contentBox(viewport: SVGGraphicsElement): Box | null {
  let box: DOMRect;
  try {
    box = viewport.getBBox();
  } catch {
    return null;
  }
  if (!(box.width > 0) || !(box.height > 0)) return null;
  return {
    x: Math.floor(box.x - PADDING),
    y: Math.floor(box.y - PADDING),
    width: Math.ceil(box.width + 2 * PADDING),
    height: Math.ceil(box.height + 2 * PADDING),
  };
}

/** A standalone copy of `svg` with its styles inlined, sized to its content, on its background. */
export function svgPicture(svg: SVGSVGElement, options: SvgPictureOptions = {}): SvgPicture {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  inlineStyles(svg, copy);
  const viewport = svg.querySelector<SVGGraphicsElement>('[data-png-viewport]');
  const content = viewport ? contentBox(viewport) : null;
  const box = content ?? ownSize(svg);
  if (content) copy.querySelector('[data-png-viewport]')?.removeAttribute('transform');
  // Tooltips do not show in a picture; dropping them keeps a big graph's file smaller.
  for (const title of copy.querySelectorAll('title')) title.remove();
  const background = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  background.setAttribute('x', String(box.x));
  background.setAttribute('y', String(box.y));
  background.setAttribute('width', String(box.width));
  background.setAttribute('height', String(box.height));
  background.setAttribute('fill', options.backgroundColor ?? backgroundBehind(svg));
  background.setAttribute('data-png-background', '');
  copy.insertBefore(background, copy.firstChild);
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.setAttribute('width', String(box.width));
  copy.setAttribute('height', String(box.height));
  copy.setAttribute('viewBox', `${box.x} ${box.y} ${box.width} ${box.height}`);
  return { text: new XMLSerializer().serializeToString(copy), width: box.width, height: box.height };
}

/**
 * Canvas pixels per SVG unit: the wanted pixel ratio, lowered so a huge picture stays a canvas
 * the browser can allocate and encode (a too-big canvas silently yields an empty PNG).
 */
export function pixelScale(width: number, height: number, pixelRatio: number): number {
  return Math.min(pixelRatio, MAX_SIDE / width, MAX_SIDE / height, Math.sqrt(MAX_PIXELS / (width * height)));
}

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('The picture could not be drawn: the browser did not render its SVG'));
    image.src = url;
  });
}

/** Draws an SVG (as a URL the page may load) of `width`×`height` units onto a canvas: a PNG data URL. */
export async function drawPng(url: string, width: number, height: number, options: { pixelRatio: number; backgroundColor: string }): Promise<string> {
  const image = await loadImage(url);
  const scale = pixelScale(width, height, options.pixelRatio);
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width * scale));
  canvas.height = Math.max(1, Math.round(height * scale));
  const context = canvas.getContext('2d');
  if (!context) throw new Error('This window cannot draw pictures (no 2D canvas)');
  context.fillStyle = options.backgroundColor;
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  const png = canvas.toDataURL('image/png');
  if (!png.startsWith('data:image/png')) throw new Error(`The picture (${canvas.width}×${canvas.height} px) is too large for this window to encode`);
  return png;
}

/**
 * Resolves once the page has painted (the button's "Saving…"), before the long synchronous
 * part (~0.5 s of style reads for a 1,000-node graph); at most 100 ms if frames are paused.
 */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 100);
    requestAnimationFrame(() => setTimeout(() => {
      clearTimeout(timer);
      resolve();
    }, 0));
  });
}

/** A live SVG as a PNG data URL that looks like the screen (see the file's comment). */
export async function svgToPngDataUrl(svg: SVGSVGElement, options: { pixelRatio?: number; backgroundColor?: string } = {}): Promise<string> {
  await afterPaint();
  const backgroundColor = options.backgroundColor ?? backgroundBehind(svg);
  const picture = svgPicture(svg, { backgroundColor });
  // A blob URL rather than a data: URL: a large graph's SVG is megabytes, and escaping it all
  // for a data: URL doubles that.
  const url = URL.createObjectURL(new Blob([picture.text], { type: 'image/svg+xml' }));
  try {
    return await drawPng(url, picture.width, picture.height, { pixelRatio: options.pixelRatio ?? Math.max(2, window.devicePixelRatio || 1), backgroundColor });
  } finally {
    URL.revokeObjectURL(url);
  }
}
