import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const pinned = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies.node;

/**
 * Issue 15: the README's two commands run on the pinned Node 24 (the registry's `node` package, a dev
 * dependency) whatever the system's Node is.
 */
describe('the runtime of npm test and npm start', () => {
  it('pins Node 24 LTS', () => {
    expect(pinned).toMatch(/^24\.\d+\.\d+$/);
  });

  // npm sets npm_lifecycle_event for the scripts it runs; a bare `jest` from a shell is not `npm test`
  const byNpm = process.env.npm_lifecycle_event?.startsWith('test') === true;
  (byNpm ? it : it.skip)(`npm test runs the tests on it${byNpm ? '' : ' — SKIPPED: jest was not started by npm test'}`, () => {
    expect(process.version).toBe(`v${pinned}`);
  });
  // npm start on it: readme.e2e-spec.ts (it starts the service as the README says)
});
