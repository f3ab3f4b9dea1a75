import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBenchBrowser, type BenchBrowser, type BenchPage } from '../../bench/live-browser.ts';
import { installInteractions, interact } from '../../bench/page-interaction.ts';

/**
 * Two buttons that mark themselves clicked. The mouse going down on the first keeps the page
 * busy for BUSY_MS: the mouse coming up, sent meanwhile, and so the click, wait behind it, as a
 * user's click waits behind a long task.
 */
const BUSY_MS = 300;
const PAGE = `<!doctype html><html><body>
<button id="busy" data-state="idle" style="width:120px;height:40px">busy</button>
<button id="quick" data-state="idle" style="width:120px;height:40px">quick</button>
<script>
  for (const button of document.querySelectorAll('button')) button.addEventListener('click', () => button.setAttribute('data-state', 'clicked'));
  document.querySelector('#busy').addEventListener('mousedown', () => { const end = performance.now() + ${BUSY_MS}; while (performance.now() < end); });
</script></body></html>`;

let server: Server;
let browser: BenchBrowser;
let page: BenchPage;

beforeAll(async () => {
  server = createServer((_, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  browser = await launchBenchBrowser();
  page = await browser.newPage({ width: 800, height: 600 });
  await installInteractions(page);
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

const clicked = (id: string) => [{ selector: `#${id}`, attribute: 'data-state', equals: 'clicked' }];

describe('a timed mouse click', () => {
  it('counts the wait behind a task the page was running when the click was sent', async () => {
    const times = await interact(page, { press: '#busy' }, clicked('busy'), 10_000);
    expect(times.shownMs).toBeGreaterThanOrEqual(BUSY_MS * 0.8);
    expect(times.paintedMs).toBeGreaterThanOrEqual(times.shownMs);
  }, 30_000);

  it('is short when the page is free, and the same click made from inside the page sees no wait at all', async () => {
    const pressed = await interact(page, { press: '#quick' }, clicked('quick'), 10_000);
    expect(pressed.shownMs).toBeGreaterThan(0);
    expect(pressed.shownMs).toBeLessThan(BUSY_MS * 0.8);
    await page.evaluate(() => (globalThis as unknown as { document: { querySelector(css: string): { setAttribute(name: string, value: string): void } } }).document.querySelector('#busy').setAttribute('data-state', 'idle'));
    // Clicked from inside the page, no mouse goes down: nothing makes the page busy, and nothing would count if it did.
    const inPage = await interact(page, { click: '#busy' }, clicked('busy'), 10_000);
    expect(inPage.shownMs).toBeLessThan(BUSY_MS * 0.8);
  }, 30_000);

  it('fails with what the page did not show', async () => {
    await expect(interact(page, { press: '#quick' }, [{ selector: '#quick', attribute: 'data-state', equals: 'never' }], 500)).rejects.toThrow(/did not show/);
  }, 30_000);
});
