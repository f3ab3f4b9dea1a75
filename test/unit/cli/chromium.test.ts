import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledBinDir, findChromium, SYSTEM_CHROMIUM } from '../../../electron/cli/chromium.ts';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('findChromium', () => {
  it('takes KUBEDRIFT_CHROMIUM first, and refuses one that does not exist instead of replacing it', async () => {
    const found = await findChromium({ env: { KUBEDRIFT_CHROMIUM: '/opt/c/chrome' }, exists: (file) => file === '/opt/c/chrome' || file === SYSTEM_CHROMIUM });
    expect(found).toEqual({ executablePath: '/opt/c/chrome', env: {}, source: 'KUBEDRIFT_CHROMIUM' });
    await expect(findChromium({ env: { KUBEDRIFT_CHROMIUM: '/nope' }, exists: () => true })).resolves.toMatchObject({ executablePath: '/nope' });
    await expect(findChromium({ env: { KUBEDRIFT_CHROMIUM: '/nope' }, exists: () => false })).rejects.toThrow('KUBEDRIFT_CHROMIUM is /nope, which does not exist');
  });

  it("takes the system's Chromium when it is there", async () => {
    const found = await findChromium({ env: {}, exists: (file) => file === SYSTEM_CHROMIUM, bundledBin: () => '/never' });
    expect(found).toEqual({ executablePath: SYSTEM_CHROMIUM, env: {}, source: 'system' });
  });

  it('says what to do when neither the system nor npm ci brought one', async () => {
    await expect(findChromium({ env: {}, exists: () => false, bundledBin: () => undefined })).rejects.toThrow(
      /no Chromium: \/usr\/bin\/chromium is missing and @sparticuz\/chromium is not installed/,
    );
  });

  it('unpacks the Chromium that npm ci installed, with its libraries and fonts, once per version', async () => {
    const bin = bundledBinDir();
    expect(bin, '@sparticuz/chromium is a dev dependency').toBeDefined();
    const cacheDir = await mkdtemp(path.join(tmpdir(), 'kubedrift-chromium-test-'));
    dirs.push(cacheDir);
    const found = await findChromium({ env: {}, exists: () => false, bundledBin: () => bin, cacheDir });
    expect(found.source).toBe('bundled');
    expect((await stat(found.executablePath)).mode & 0o111).not.toBe(0);
    expect(found.env['LD_LIBRARY_PATH']?.split(':')[0]).toMatch(/al2023\/lib$/);
    await expect(stat(path.join(found.env['LD_LIBRARY_PATH']!.split(':')[0]!, 'libnss3.so'))).resolves.toBeTruthy();
    expect(await readFile(path.join(found.env['FONTCONFIG_PATH']!, 'fonts.conf'), 'utf8')).toContain(`${found.env['FONTCONFIG_PATH']}/fonts`);
    const before = (await stat(found.executablePath)).mtimeMs;
    const again = await findChromium({ env: {}, exists: () => false, bundledBin: () => bin, cacheDir });
    expect(again).toEqual(found);
    expect((await stat(again.executablePath)).mtimeMs).toBe(before);
  }, 60_000);
});
