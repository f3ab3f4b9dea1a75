/**
 * Regenerates every raster app icon from `resources/icon.svg`.
 *
 *   node electron/tools/icons.ts
 *
 * Outputs (checked into git, so packaging never needs a browser):
 * - resources/icons/NxN.png — Linux icon set (electron-builder's directory convention)
 * - resources/icon.png      — 1024px master
 * - resources/icon.icns     — macOS
 * - resources/icon.ico      — Windows
 *
 * Rendering uses the system Chromium through playwright-core, because it is
 * already a dev dependency and rasterises SVG (gradients, dashes, AA) far more
 * faithfully than any pure-JS option. Each size is rendered from the vector
 * source rather than downscaled from 1024px, so small sizes stay crisp.
 * Only re-run this when the SVG changes.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../cli/chromium.ts';
import { readPngSize, writeIcns, writeIco, type IcnsEntry } from './icon-containers.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const RESOURCES = join(ROOT, 'resources');

/** Sizes written to resources/icons/ as NxN.png. */
export const LINUX_SIZES: readonly number[] = [16, 32, 48, 64, 128, 256, 512, 1024];
/** Sizes embedded in icon.ico; Windows shell uses 16/24/32/48 and 256 for large views. */
export const ICO_SIZES: readonly number[] = [16, 24, 32, 48, 64, 128, 256];
/** ICNS element type → rendered size (see ICNS_PNG_TYPES for why @2x types differ). */
export const ICNS_LAYOUT: readonly (readonly [type: string, size: number])[] = [
  ['ic11', 32],
  ['ic12', 64],
  ['ic07', 128],
  ['ic13', 256],
  ['ic08', 256],
  ['ic14', 512],
  ['ic09', 512],
  ['ic10', 1024],
];

/**
 * Renders the SVG at `size`x`size` to a PNG with a transparent background.
 *
 * The SVG is inlined (not loaded from file://) so no network or file access
 * is involved, and it is stretched to the viewport with CSS so the
 * viewBox drives the scaling.
 */
async function renderPng(browser: Browser, svg: string, size: number): Promise<Buffer> {
  const context = await browser.newContext({
    viewport: { width: size, height: size },
    deviceScaleFactor: 1,
  });
  try {
    const page = await context.newPage();
    const html = `<!doctype html><html><head><style>
      html, body { margin: 0; padding: 0; background: transparent; overflow: hidden; }
      svg { display: block; width: ${size}px; height: ${size}px; }
    </style></head><body>${svg}</body></html>`;
    await page.setContent(html);
    const png = await page.screenshot({
      omitBackground: true,
      clip: { x: 0, y: 0, width: size, height: size },
    });
    const actual = readPngSize(png);
    if (actual.width !== size || actual.height !== size) {
      throw new Error(`rendered ${size}px icon came out ${actual.width}x${actual.height}`);
    }
    return png;
  } finally {
    await context.close();
  }
}

/** Renders every needed size once and writes all outputs under resources/. */
async function main(): Promise<void> {
  // Strip the XML prolog/comments-before-root if any, so the markup can be inlined in HTML.
  const svg = (await readFile(join(RESOURCES, 'icon.svg'), 'utf8')).replace(/^[\s\S]*?(?=<svg[\s>])/, '');

  const sizes = [...new Set([...LINUX_SIZES, ...ICO_SIZES, ...ICNS_LAYOUT.map(([, s]) => s)])].sort(
    (a, b) => a - b,
  );
  const { executablePath, env } = await findChromium();
  const browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS], env: { ...process.env, ...env } });
  const rendered = new Map<number, Buffer>();
  try {
    for (const size of sizes) rendered.set(size, await renderPng(browser, svg, size));
  } finally {
    await browser.close();
  }
  const png = (size: number): Buffer => {
    const buf = rendered.get(size);
    if (!buf) throw new Error(`missing render for ${size}px`);
    return buf;
  };

  await mkdir(join(RESOURCES, 'icons'), { recursive: true });
  for (const size of LINUX_SIZES) {
    await writeFile(join(RESOURCES, 'icons', `${size}x${size}.png`), png(size));
  }
  await writeFile(join(RESOURCES, 'icon.png'), png(1024));

  const icnsEntries: IcnsEntry[] = ICNS_LAYOUT.map(([type, size]) => ({ type, png: png(size) }));
  await writeFile(join(RESOURCES, 'icon.icns'), writeIcns(icnsEntries));
  await writeFile(join(RESOURCES, 'icon.ico'), writeIco(ICO_SIZES.map(png)));

  console.log(`icons: wrote ${LINUX_SIZES.length} PNGs, icon.png, icon.icns, icon.ico from ${sizes.length} renders`);
}

// Only run when executed directly, so tests may import the size tables.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
