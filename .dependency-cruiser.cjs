/**
 * The dependency rules of docs/architecture.md, checked by `npm run lint:deps` (part of `npm test`).
 * A module's public surface is its `index.ts` (Nest module, services, ports, domain values) and its
 * `sql.ts` (the SQL parts of its tables that other modules compose into one statement; a leaf that
 * imports only src/shared). Other modules and the composition root (src/*.ts) import nothing else of
 * it. Tests (test/, *.spec.ts) may reach into a module.
 */

/** Known violations, none left (issue 16 part B removed the sender construction and the pipe imports). */
const APPLICATION_TO_INFRASTRUCTURE_EXCEPTIONS = [];
const APPLICATION_TO_HTTP_PIPE_EXCEPTIONS = [];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles, at any distance.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'shared-not-to-modules',
      severity: 'error',
      comment: 'src/shared is the kernel every module may use; it knows no module.',
      from: { path: '^src/shared/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^src/modules/' },
    },
    {
      name: 'module-public-surface',
      severity: 'error',
      comment: "A module imports another module only through that module's index.ts or sql.ts.",
      from: { path: '^src/modules/([^/]+)/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^src/modules/([^/]+)/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/(index|sql)\\.ts$'] },
    },
    {
      name: 'sql-parts-are-leaves',
      severity: 'error',
      comment: "A module's sql.ts imports nothing but src/shared, so composing SQL parts never makes a cycle.",
      from: { path: '^src/modules/[^/]+/sql\\.ts$' },
      to: { path: '^src/', pathNot: '^src/shared/' },
    },
    {
      name: 'root-to-public-surface',
      severity: 'error',
      comment: "The composition root (src/*.ts) imports a module only through its index.ts.",
      from: { path: '^src/[^/]+\\.ts$' },
      to: { path: '^src/modules/', pathNot: '^src/modules/[^/]+/index\\.ts$' },
    },
    {
      name: 'domain-is-plain-typescript',
      severity: 'error',
      comment: 'domain/ is framework-free: no Nest, TypeORM, pg, class-validator or class-transformer.',
      from: { path: '(^src/modules/[^/]+/domain/|^src/shared/domain/)' },
      to: {
        dependencyTypes: ['npm', 'npm-dev', 'npm-peer', 'npm-optional', 'npm-no-pkg', 'npm-unknown'],
        path: '(^|/)node_modules/(@nestjs/[^/]+|typeorm|pg|class-validator|class-transformer)/',
      },
    },
    {
      name: 'domain-not-up',
      severity: 'error',
      comment: "domain/ does not import its module's application/, api/ or infrastructure/.",
      from: { path: '^src/modules/([^/]+)/domain/' },
      to: { path: '^src/modules/$1/(application|api|infrastructure)/' },
    },
    {
      name: 'application-not-to-api-or-infrastructure',
      severity: 'error',
      comment: 'application/ talks to ports; it imports no api/ or infrastructure/ of any module.',
      from: { path: '^src/modules/[^/]+/application/', pathNot: ['\\.spec\\.ts$', ...APPLICATION_TO_INFRASTRUCTURE_EXCEPTIONS] },
      to: { path: '^src/modules/[^/]+/(api|infrastructure)/' },
    },
    {
      name: 'application-not-to-http-pipe',
      severity: 'error',
      comment: 'application/ does not use the HTTP validation pipe.',
      from: { path: '^src/modules/[^/]+/application/', pathNot: ['\\.spec\\.ts$', ...APPLICATION_TO_HTTP_PIPE_EXCEPTIONS] },
      to: { path: '^src/shared/http/validation/body-validation\\.pipe\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|test|bench|clients)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
