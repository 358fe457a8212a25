/**
 * Projects: unit specs beside the code, e2e specs through HTTP under test/e2e (in parallel jest workers,
 * each on its own database: test/support/database-setup.js), and the fault suite under test/faults (its
 * own private PostgreSQL cluster and built service processes; `npm run test:faults`, run by .ci/run, not
 * by `npm test`).
 */
const { availableParallelism } = require('node:os');

const transform = {
  '^.+\\.(t|j)sx?$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2023',
        keepClassNames: true,
      },
      module: { type: 'commonjs' },
    },
  ],
};
const common = {
  testEnvironment: 'node',
  transform,
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|oauth4webapi)/)'],
  moduleFileExtensions: ['ts', 'js', 'json'],
};
module.exports = {
  // a global option: jest ignores testTimeout inside a project. A ceiling, not a pace: a test waits for
  // events, and on a busy machine (load 4× the cores) they come late, not never.
  testTimeout: 180_000,
  // e2e files spend part of their time waiting on sockets, timers and child processes: two workers more
  // than the cores (each e2e worker has its own database, test/support/database-setup.js). On 2 cores, PGlite,
  // caches warm, back to back: 3 workers 279 s, 4 workers 266 s (docs/contributing.md)
  maxWorkers: Math.max(2, availableParallelism() + 2),
  // the default reporter, and a line per finished file with how far the run is (never silent for minutes)
  reporters: ['default', '<rootDir>/test/support/progress-reporter.js'],
  projects: [
    // test/docs: the docs' links and shell blocks, no service needed (issue 34)
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/docs/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/database-setup.js',
      globalTeardown: '<rootDir>/test/support/database-teardown.js',
      setupFiles: ['<rootDir>/test/support/worker-database.js'],
    },
    // a real browser (Debian's Chromium); not part of `npm test`: `npm run test:browser`
    { ...common, displayName: 'browser', testMatch: ['<rootDir>/test/browser/**/*.browser-spec.ts'] },
    { ...common, displayName: 'faults', testMatch: ['<rootDir>/test/faults/**/*.faults-spec.ts'] },
  ],
};
