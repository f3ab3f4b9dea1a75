/**
 * The Diff screen's native pickers, end to end as the desktop app has them: the engine is given
 * dialogs (faked here, as Electron's would answer), so `diff:config` offers the picker and the
 * screen shows "Choose folder…" / "Choose file…". A cancelled pick changes nothing; a chosen
 * folder fills the field, is checked by the engine and, confirmed, can be diffed. (diff.e2e.ts
 * covers the browser shell, which has no picker.) Screenshots: diff-picker-desktop,
 * diff-picker-chosen.
 */
import { cp } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FileDialogs } from '../../electron/engine/dialogs.ts';
import { fixture } from '../unit/engine/diff/fixtures.ts';
import { useDemoShell } from './demo-shell.ts';
import { screenshot } from './harness.ts';

/** What the next folder pick answers (null: the user cancelled), and every pick asked for. */
let folderAnswer: string | null = null;
const picks: Array<{ kind: 'folder' | 'file'; title: string }> = [];
const dialogs: FileDialogs = {
  save: () => Promise.reject(new Error('the diff screen never saves')),
  open: async ({ title }) => {
    picks.push({ kind: 'file', title });
    return null;
  },
  openFolder: async ({ title }) => {
    picks.push({ kind: 'folder', title });
    return folderAnswer;
  },
};

const env = useDemoShell('diff-picker', { scenario: () => 'minimal', dialogs });

describe('diff screen in the desktop app', () => {
  it('picks a folder natively, checks it, uses it and diffs it; cancelling changes nothing', async () => {
    const manifests = path.join(env.dir, 'picked', 'guestbook');
    await cp(fixture('guestbook'), manifests, { recursive: true });
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 720 }, colorScheme: 'light' });
    await page.goto(`${env.shell.url}#/diff`);
    await expect.poll(() => page.getByTestId('connection-state').textContent(), { timeout: 30_000 }).toMatch(/Connected/);
    const input = page.getByTestId('diff-path-input');
    const folder = page.getByTestId('diff-choose-folder');
    await expect.poll(() => folder.textContent()).toBe('Choose folder…');
    expect(await page.getByTestId('diff-choose-file').textContent()).toBe('Choose file…');
    expect(await page.getByTestId('diff-path-hint').textContent()).not.toMatch(/Type or paste/);
    await page.mouse.move(0, 0);
    await screenshot(page, 'diff-picker-desktop');

    // Cancelled pickers (folder, then file) leave the field as it was.
    await folder.click();
    await page.getByTestId('diff-choose-file').click();
    await expect.poll(() => picks).toEqual([
      { kind: 'folder', title: 'Choose a folder of manifests' },
      { kind: 'file', title: 'Choose a manifest file' },
    ]);
    expect(await input.inputValue()).toBe('');

    // A chosen folder fills the field; the engine checks it and the confirm button takes the focus.
    folderAnswer = manifests;
    await folder.click();
    await expect.poll(() => input.inputValue()).toBe(manifests);
    await expect.poll(() => page.getByTestId('diff-path-feedback').textContent()).toBe(`${manifests}: Folder with 2 manifest files.`);
    await expect.poll(() => page.locator('[data-testid="diff-path-add"]:focus').count()).toBe(1);
    await page.mouse.move(0, 0);
    // Past the button's background transition to the primary colour.
    await page.waitForTimeout(300);
    await screenshot(page, 'diff-picker-chosen');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('diff-run').isDisabled()).toBe(false);

    // Neither object is in the minimal cluster: both Missing.
    await page.getByTestId('diff-run').click();
    await expect.poll(() => page.getByTestId('diff-count-Missing').locator('.value').textContent(), { timeout: 15_000 }).toBe('2');
    await page.close();
  });
});
