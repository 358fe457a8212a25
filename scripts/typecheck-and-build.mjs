#!/usr/bin/env node
/**
 * The type-check and the build of `npm run checks` in ONE TypeScript program (issue 46: `npm run typecheck`
 * and `npm run build` each type-checked all of src/, twice the work): the program of tsconfig.json (src/,
 * test/, ormconfig.ts) is checked once, and only the files of tsconfig.build.json (src/ without its specs,
 * ormconfig.ts) are written to dist/, the same files with the same options as `npm run build`. Incremental
 * (dist/.checks.tsbuildinfo): a second run checks and emits only what changed. On success it
 * writes dist/.build-stamp as scripts/build-if-stale.mjs does, so `npm start` then does not build again.
 * Exit status 1 on any error; the files are written anyway, as `tsc` does.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

const root = join(import.meta.dirname, '..');
const ts = createRequire(import.meta.url)(join(root, 'node_modules', 'typescript'));
const stamp = join(root, 'dist', '.build-stamp');
// in dist/, not node_modules/.cache: it records which outputs are in THIS tree's dist/
const buildInfo = join(root, 'dist', '.checks.tsbuildinfo');

function parse(file) {
  const config = ts.getParsedCommandLineOfConfigFile(join(root, file), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => report([d]) });
  if (!config) process.exit(1);
  return config;
}

function report(diagnostics) {
  if (diagnostics.length === 0) return;
  const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
  process.stderr.write(process.stderr.isTTY ? ts.formatDiagnosticsWithColorAndContext(diagnostics, host) : ts.formatDiagnostics(diagnostics, host));
}

const all = parse('tsconfig.json');
const build = parse('tsconfig.build.json');
// what `npm run build` writes: the build's outputs are under the same outDir and rootDir as the whole program's
const built = new Set(build.fileNames.map((f) => resolve(f)));
for (const key of ['outDir', 'rootDir', 'module', 'target', 'sourceMap', 'declaration', 'emitDecoratorMetadata', 'experimentalDecorators', 'esModuleInterop']) {
  if (all.options[key] !== build.options[key])
    throw new Error(`tsconfig.build.json's ${key} differs from tsconfig.json's: run npm run typecheck and npm run build instead`);
}
// a dist/ removed since the last run: the cached program would think its files written, so start over
if (!existsSync(join(root, 'dist', 'src', 'main.js'))) rmSync(buildInfo, { force: true });
mkdirSync(dirname(buildInfo), { recursive: true });

const options = { ...all.options, incremental: true, tsBuildInfoFile: buildInfo, noEmit: false };
const host = ts.createIncrementalCompilerHost(options);
const program = ts.createIncrementalProgram({
  rootNames: all.fileNames,
  options,
  host,
  projectReferences: all.projectReferences,
  configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(all),
});
const diagnostics = [...ts.getPreEmitDiagnostics(program)];
// the outputs of test files and specs are dropped; the build info is written
const writeFile = (fileName, text, bom, onError, sourceFiles) => {
  const source = sourceFiles?.[0]?.fileName;
  if (source !== undefined && !built.has(resolve(source))) return;
  host.writeFile(fileName, text, bom, onError, sourceFiles);
};
diagnostics.push(...program.emit(undefined, writeFile).diagnostics);
report(diagnostics);
const errors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).length;
if (errors > 0) {
  process.stderr.write(`${errors} error(s)\n`);
  process.exit(1);
}
writeFileSync(stamp, `${new Date().toISOString()}\n`);
