/**
 * End-to-end harness: the real `kubedrift serve` (browser shell) driven by headless Chromium
 * (electron/cli/chromium.ts) through playwright-core. Every test saves screenshots under test/artifacts/.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium, type ChromiumBinary } from '../../electron/cli/chromium.ts';
import { startServe, stop } from '../helpers/cli.ts';

export { CHROMIUM_ARGS };

export const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
/** KUBEDRIFT_CHROMIUM, else /usr/bin/chromium, else the one `npm ci` brings (@sparticuz/chromium). */
export function chromiumBinary(): Promise<ChromiumBinary> {
  return findChromium();
}

export async function launchBrowser(binary?: ChromiumBinary): Promise<Browser> {
  const { executablePath, env } = binary ?? (await chromiumBinary());
  return chromium.launch({ executablePath, args: [...CHROMIUM_ARGS], headless: true, env: { ...process.env, ...env } });
}

export interface Shell {
  url: string;
  close(): Promise<void>;
}

/** Starts the browser shell on a free port with its own data dir and kubeconfig. */
export async function startShell(options: { dataDir: string; kubeconfig: string; extraArgs?: string[] }): Promise<Shell> {
  const { url, child } = await startServe(['--port', '0', '--data-dir', options.dataDir, '--kubeconfig', options.kubeconfig, ...(options.extraArgs ?? [])]);
  return { url, close: () => stop(child) };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  // Transitions finished: a nav item just left still fading out would look selected too.
  await page.screenshot({ path: file, fullPage: false, animations: 'disabled' });
  return file;
}
