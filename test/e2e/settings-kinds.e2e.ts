/**
 * Settings on the demo cluster: "Watched kinds" shows the demo context's default exclusion
 * rules with what each matches among the kinds the cluster serves; a rule added for
 * cert-manager.io stops the Certificate and Issuer informers at once (their objects leave the
 * engine's cache), and "Reset to defaults" brings them back. "Status rules" names what is wrong
 * with a rule before saving it.
 */
import { describe, expect, it } from 'vitest';
import { useDemoShell } from './demo-shell.ts';
import { screenshot } from './harness.ts';

const env = useDemoShell('settings-kinds');
const CERT_MANAGER = ['certificates.cert-manager.io', 'issuers.cert-manager.io'];

const certManagerCached = (): number => env.shell.engine.inspectCache().filter((stamp) => CERT_MANAGER.includes(stamp.kind)).length;

describe('settings: watched kinds and status rules', () => {
  it('excludes cert-manager.io for the demo context and takes it back, and checks status rules as they are typed', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 1000 }, colorScheme: 'dark' });
    await page.goto(`${env.shell.url}#/settings`);
    const card = page.getByTestId('settings-kinds');
    await expect.poll(() => card.getByTestId('exclusion-rule').count(), { timeout: 20_000 }).toBe(3);
    // The demo serves core Endpoints (excluded by default), not Leases.
    await expect.poll(() => card.getByTestId('exclusion-matches').last().textContent(), { timeout: 20_000 }).toBe('matches 1 kind');
    await expect.poll(certManagerCached, { timeout: 20_000 }).toBeGreaterThan(0);

    await card.getByTestId('exclusion-groups').fill('cert-manager.io');
    await card.getByTestId('exclusion-kinds').fill('*');
    await card.getByTestId('exclusion-add').click();
    await expect.poll(() => card.getByTestId('exclusion-rule').count()).toBe(4);
    await expect.poll(() => card.getByTestId('exclusion-matches').last().textContent()).toBe('matches 2 kinds');
    await expect.poll(certManagerCached, { timeout: 10_000 }).toBe(0);

    const rules = page.getByTestId('settings-status-rules');
    await rules.getByTestId('status-rules-text').fill('- group: cert-manager.io\n  kind: certificate\n  conditionType: Issuing\n  state: stuck\n');
    await expect.poll(() => rules.getByTestId('status-rules-problems').textContent()).toContain('rule 1, kind: kind must be a Kind as the API spells it');
    await card.scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0);
    await screenshot(page, 'settings-kinds-dark');

    await card.getByTestId('exclusion-reset').click();
    await expect.poll(() => card.getByTestId('exclusion-rule').count()).toBe(3);
    await expect.poll(certManagerCached, { timeout: 10_000 }).toBeGreaterThan(0);
    await page.close();
  });
});
