/**
 * The dependency rules of docs/architecture.md, checked by `npm run lint:deps` (part of `npm test`).
 * A module's public surface is its `index.ts` (Nest module, services, ports, domain values) and its
 * `sql.ts` (the SQL parts of its tables that other modules compose into one statement; a leaf that
 * imports only src/shared). Other modules and the composition root (src/*.ts) import nothing else of
 * it. Tests (test/, *.spec.ts) may reach into a module.
 *
 * A module is a folder src/modules/<name>/, or src/modules/auth/<name>/ for the six auth modules
 * (access, organizations, apps, grants, sandbox, consent): `MODULE` below captures `auth/<name>` for
 * those and `<name>` otherwise. src/modules/auth/index.ts and auth.module.ts (AuthModule, which
 * composes the six) are the auth group's own surface: they import the six only through their index.ts,
 * and the composition root may import them.
 */

/** Known violations, none left (issue 16 part B removed the sender construction and the pipe imports). */
const APPLICATION_TO_INFRASTRUCTURE_EXCEPTIONS = [];
const APPLICATION_TO_HTTP_PIPE_EXCEPTIONS = [];

/** The path of a module inside src/modules/ (a capture group for `$1`): `auth/<name>` or `<name>`. */
const MODULE = '((?:auth/)?[^/]+)';
/** The same, without a capture group. */
const ANY_MODULE = '(?:auth/)?[^/]+';
/** The auth group's own files (AuthModule and its index.ts), which compose the six auth modules. */
const AUTH_GROUP = '^src/modules/auth/[^/]+\\.ts$';

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
      from: { path: `^src/modules/${MODULE}/`, pathNot: ['\\.spec\\.ts$', AUTH_GROUP] },
      to: { path: '^src/modules/', pathNot: ['^src/modules/$1/', `^src/modules/${ANY_MODULE}/(index|sql)\\.ts$`] },
    },
    {
      name: 'auth-group-public-surface',
      severity: 'error',
      comment: 'AuthModule and src/modules/auth/index.ts import the six auth modules (and any other) only through their index.ts or sql.ts.',
      from: { path: AUTH_GROUP },
      to: { path: '^src/modules/', pathNot: [AUTH_GROUP, `^src/modules/${ANY_MODULE}/(index|sql)\\.ts$`] },
    },
    {
      name: 'sql-parts-are-leaves',
      severity: 'error',
      comment: "A module's sql.ts imports nothing but src/shared, so composing SQL parts never makes a cycle.",
      from: { path: `^src/modules/${ANY_MODULE}/sql\\.ts$` },
      to: { path: '^src/', pathNot: '^src/shared/' },
    },
    {
      name: 'facts-are-leaves',
      severity: 'error',
      comment:
        "A module's facts.ts (src/shared/module-facts.ts) imports nothing but src/shared, its own sql.ts (its purge part) and its own domain/ (the operations whose receipts it declares): the kernel assembles facts, it never follows them into a module.",
      from: { path: `^src/modules/(${ANY_MODULE})/facts\\.ts$` },
      to: { path: '^src/', pathNot: ['^src/shared/', `^src/modules/$1/sql\\.ts$`, `^src/modules/$1/domain/`] },
    },
    {
      name: 'root-to-public-surface',
      severity: 'error',
      comment: 'The composition root (src/*.ts) imports a module only through its index.ts (the auth group also through auth.module.ts).',
      from: { path: '^src/[^/]+\\.ts$' },
      to: { path: '^src/modules/', pathNot: [`^src/modules/${ANY_MODULE}/index\\.ts$`, '^src/modules/auth/auth\\.module\\.ts$'] },
    },
    {
      name: 'domain-is-plain-typescript',
      severity: 'error',
      comment: 'domain/ is framework-free: no Nest, TypeORM, pg, class-validator or class-transformer.',
      from: { path: `(^src/modules/${ANY_MODULE}/domain/|^src/shared/domain/)` },
      to: {
        dependencyTypes: ['npm', 'npm-dev', 'npm-peer', 'npm-optional', 'npm-no-pkg', 'npm-unknown'],
        path: '(^|/)node_modules/(@nestjs/[^/]+|typeorm|pg|class-validator|class-transformer)/',
      },
    },
    {
      name: 'domain-not-up',
      severity: 'error',
      comment: "domain/ does not import its module's application/, api/ or infrastructure/.",
      from: { path: `^src/modules/${MODULE}/domain/` },
      to: { path: '^src/modules/$1/(application|api|infrastructure)/' },
    },
    {
      name: 'application-not-to-api-or-infrastructure',
      severity: 'error',
      comment: 'application/ talks to ports; it imports no api/ or infrastructure/ of any module.',
      from: { path: `^src/modules/${ANY_MODULE}/application/`, pathNot: ['\\.spec\\.ts$', ...APPLICATION_TO_INFRASTRUCTURE_EXCEPTIONS] },
      to: { path: `^src/modules/${ANY_MODULE}/(api|infrastructure)/` },
    },
    {
      name: 'application-not-to-http-pipe',
      severity: 'error',
      comment: 'application/ does not use the HTTP validation pipe.',
      from: { path: `^src/modules/${ANY_MODULE}/application/`, pathNot: ['\\.spec\\.ts$', ...APPLICATION_TO_HTTP_PIPE_EXCEPTIONS] },
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
