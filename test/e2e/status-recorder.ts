/**
 * Records every text the status bar's cluster-health item shows, in the page itself: a
 * MutationObserver installed before the app's scripts run (and again after every reload), so a
 * "Reconnecting …" that is on screen for one frame is still seen by a test that polls later.
 */
import type { Page } from 'playwright-core';

/** Plain JavaScript for `addInitScript`: the test's TypeScript has no DOM types. */
const RECORDER = `(() => {
  const texts = [];
  let last = '';
  Object.defineProperty(window, '__kubedriftHealthTexts', { value: texts });
  const record = () => {
    const text = document.querySelector('[data-testid="cluster-health"] .text')?.textContent?.trim() ?? '';
    if (text && text !== last) texts.push(text);
    last = text;
  };
  new MutationObserver(record).observe(document, { subtree: true, childList: true, characterData: true });
})();`;

/** Installs the recorder for every document the page loads from now on. */
export async function recordStatusBar(page: Page): Promise<void> {
  await page.addInitScript({ content: RECORDER });
}

/** Every health text the current document has shown, oldest first. */
export async function statusBarTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => [...((globalThis as unknown as { __kubedriftHealthTexts?: string[] }).__kubedriftHealthTexts ?? [])]);
}

/** The texts shown after a position taken with `(await statusBarTexts(page)).length`. */
export async function statusBarTextsSince(page: Page, mark: number): Promise<string[]> {
  return (await statusBarTexts(page)).slice(mark);
}

/** What the health item says now ('' when it is not shown). */
export async function statusBarHealth(page: Page): Promise<string> {
  const item = page.getByTestId('cluster-health');
  return (await item.count()) > 0 ? ((await item.locator('.text').textContent()) ?? '').trim() : '';
}
