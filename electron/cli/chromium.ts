/**
 * Which headless Chromium the smoke test, the end-to-end tests and the bench drive:
 * `KUBEDRIFT_CHROMIUM`, else the system's `/usr/bin/chromium`, else the Chromium that
 * `npm ci` brings in the dev dependency `@sparticuz/chromium` (a brotli-compressed headless
 * shell with the NSS libraries and fonts it needs), so a fresh machine needs no apt step.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliDecompress } from 'node:zlib';

export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/**
 * Flags for a headless run on a build machine: no GPU, no sandbox (root in CI), and none of
 * Chromium's background traffic, which a closed network refuses many times a second.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const BUNDLED_PACKAGE = '@sparticuz/chromium';

export interface ChromiumBinary {
  executablePath: string;
  /** Variables the browser process needs on top of this process's environment. */
  env: Record<string, string>;
  source: 'KUBEDRIFT_CHROMIUM' | 'system' | 'bundled';
}

export interface FindChromiumOptions {
  env?: Record<string, string | undefined>;
  exists?: (file: string) => boolean;
  /** The bundled package's bin folder, or undefined when the package is not installed. */
  bundledBin?: () => string | undefined;
  /** Where the bundled browser is unpacked (once per version). */
  cacheDir?: string;
}

/**
 * Finds a Chromium to launch. Throws with what to do when none is found; an explicit
 * `KUBEDRIFT_CHROMIUM` that does not exist is an error, never silently replaced.
 */
export async function findChromium(options: FindChromiumOptions = {}): Promise<ChromiumBinary> {
  const env = options.env ?? process.env;
  const exists = options.exists ?? existsSync;
  const explicit = env['KUBEDRIFT_CHROMIUM'];
  if (explicit) {
    if (!exists(explicit)) throw new Error(`KUBEDRIFT_CHROMIUM is ${explicit}, which does not exist`);
    return { executablePath: explicit, env: {}, source: 'KUBEDRIFT_CHROMIUM' };
  }
  if (exists(SYSTEM_CHROMIUM)) return { executablePath: SYSTEM_CHROMIUM, env: {}, source: 'system' };
  const bin = (options.bundledBin ?? bundledBinDir)();
  if (!bin) {
    throw new Error(`no Chromium: ${SYSTEM_CHROMIUM} is missing and ${BUNDLED_PACKAGE} is not installed (run "npm ci", install chromium, or set KUBEDRIFT_CHROMIUM)`);
  }
  return unpackBundled(bin, options.cacheDir ?? path.join(tmpdir(), 'kubedrift-chromium'));
}

/** The bin folder of the installed `@sparticuz/chromium`, if any. */
export function bundledBinDir(): string | undefined {
  try {
    const entry = fileURLToPath(import.meta.resolve(BUNDLED_PACKAGE));
    const bin = path.join(path.dirname(entry), '..', 'bin');
    return existsSync(path.join(bin, 'chromium.br')) ? bin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Unpacks the bundled browser, its libraries and fonts into `cacheDir/<package version>`,
 * each piece written under a temporary name and renamed, so parallel callers never see half a
 * file. Later calls find the pieces and return at once.
 */
export async function unpackBundled(bin: string, cacheDir: string): Promise<ChromiumBinary> {
  const version = await bundledVersion(bin);
  const root = path.join(cacheDir, version);
  const executablePath = path.join(root, 'chromium');
  const libDir = path.join(root, 'al2023', 'lib');
  const fontsDir = path.join(root, 'fonts');
  await mkdir(root, { recursive: true });
  if (!existsSync(executablePath)) {
    const temporary = `${executablePath}.${process.pid}.tmp`;
    await writeFile(temporary, await inflate(path.join(bin, 'chromium.br')), { mode: 0o755 });
    await rename(temporary, executablePath);
  }
  if (!existsSync(libDir)) await untarInto(await inflate(path.join(bin, 'al2023.tar.br')), path.join(root, 'al2023'));
  if (!existsSync(path.join(fontsDir, 'fonts.conf'))) {
    await untarInto(await inflate(path.join(bin, 'fonts.tar.br')), fontsDir);
    // The package's fonts.conf names AWS Lambda's folders; point it at ours.
    const conf = `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${fontsDir}/fonts</dir>\n  <dir>/usr/share/fonts</dir>\n  <cachedir>${fontsDir}/cache</cachedir>\n</fontconfig>\n`;
    await writeFile(path.join(fontsDir, 'fonts.conf'), conf);
  }
  const ldPath = [libDir, process.env['LD_LIBRARY_PATH']].filter(Boolean).join(':');
  return { executablePath, env: { LD_LIBRARY_PATH: ldPath, FONTCONFIG_PATH: fontsDir }, source: 'bundled' };
}

async function bundledVersion(bin: string): Promise<string> {
  const manifest = JSON.parse(await readFile(path.join(bin, '..', 'package.json'), 'utf8')) as { version?: unknown };
  return typeof manifest.version === 'string' ? manifest.version : 'unknown';
}

async function inflate(file: string): Promise<Buffer> {
  return promisify(brotliDecompress)(await readFile(file));
}

/** Extracts a tar archive with the system's tar into `target`, via a temporary folder. */
async function untarInto(archive: Buffer, target: string): Promise<void> {
  const temporary = `${target}.${process.pid}.tmp`;
  await rm(temporary, { recursive: true, force: true });
  await mkdir(temporary, { recursive: true });
  const result = spawnSync('tar', ['-x', '-C', temporary], { input: archive });
  if (result.status !== 0) throw new Error(`could not unpack the bundled Chromium: tar ${result.error?.message ?? result.stderr.toString().trim()}`);
  await rename(temporary, target).catch(async (error: unknown) => {
    // Another process finished first: keep its copy.
    await rm(temporary, { recursive: true, force: true });
    if (!existsSync(target)) throw error;
  });
}
