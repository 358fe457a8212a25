// `npm run lint` (part of `npm run checks`): typescript-eslint's type-aware promise rules on src/ and test/.
// A promise nobody awaits loses its rejection (an unhandled rejection ends the process) and its ordering.
// In the service's code even `void` does not excuse one: a background loop is started with an explicit
// `.catch` that logs (or `.then(onDone, onDone)` when it cannot reject). Tests may `void` a promise they
// deliberately leave pending. Formatting is prettier's business, not eslint's.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/**', 'clients/**', 'openapi/**', 'tools/**', 'scripts/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'ormconfig.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    // a few lines carry directives for rules this config does not run (no-console, no-require-imports)
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    files: ['src/**/*.ts', 'ormconfig.ts'],
    ignores: ['**/*.spec.ts'],
    rules: { '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: false }] },
  },
);
