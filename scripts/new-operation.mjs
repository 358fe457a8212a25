#!/usr/bin/env node
/**
 * npm run new:operation -- <module> <resource> <scope> [field:type …] [--words-en "Title|text"] [--words-da "Titel|tekst"]
 *
 * A new partner write operation like POST /products, ready to build and test: the module's own files
 * (templates.mjs: api, application, domain, infrastructure, index.ts, sql.ts, facts.ts, a migration, an
 * e2e spec) and the wiring outside it (wiring.mjs: the partner listener's module list and the migration list). Then it regenerates the
 * checked-in OpenAPI document and the client's types (npm run openapi) unless --no-openapi.
 *
 *   npm run new:operation -- customers customer customers:create code:text name:text note:text? credit_limit_minor:amount? \
 *     --words-da "Oprette kunder|tilføje kunder til din kundeliste"
 *
 * Fields: name:text, name:text?, name:amount (øre), name:amount?; the first is the business key (required
 * text, unique per organization and environment). Without fields: code:text name:text.
 * The scope's consent words: English derived from the names unless --words-en; Danish required (--words-da),
 * every consent page is in both languages.
 * A plain Node script rather than a Nest schematic: see docs/architecture.md ("A new module").
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { namesFor, UsageError } from './new-operation/names.mjs';
import { files, migrationClass } from './new-operation/templates.mjs';
import { wire, wiringSteps, WiringError } from './new-operation/wiring.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function parse(argv) {
  const positional = [];
  const options = { openapi: true, wordsEn: null, wordsDa: null, timestamp: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new UsageError(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--no-openapi') options.openapi = false;
    else if (a === '--words-en') options.wordsEn = value();
    else if (a === '--words-da') options.wordsDa = value();
    else if (a === '--timestamp') options.timestamp = value();
    else if (a.startsWith('--')) throw new UsageError(`unknown option ${a}`);
    else positional.push(a);
  }
  return { positional, options };
}

function words(spec, flag) {
  const [title, text, ...more] = spec.split('|').map((s) => s.trim());
  if (!title || !text || more.length) throw new UsageError(`${flag} "${spec}": write "Title|what the app will be able to do"`);
  return { title, text };
}

function main() {
  const { positional, options } = parse(process.argv.slice(2));
  const [moduleName, resource, scope, ...fieldSpecs] = positional;
  const n = namesFor(moduleName, resource, scope, fieldSpecs);
  if (!options.wordsDa) throw new UsageError('--words-da "Titel|hvad appen kan" is required: the consent page asks the owner in Danish and English');
  const spaced = (s) => s.replaceAll('-', ' ');
  n.words = {
    en: options.wordsEn ? words(options.wordsEn, '--words-en') : { title: `Create ${spaced(n.module)}`, text: `add ${spaced(n.module)}` },
    da: words(options.wordsDa, '--words-da'),
  };
  for (const taken of [`src/modules/${n.module}`, `src/modules/auth/${n.module}`]) {
    if (existsSync(join(root, taken)))
      throw new UsageError(`${taken} exists already: a module name is used once (lint:deps and the facts' module: name modules by folder)`);
  }
  const timestamp = options.timestamp ?? String(Date.now());
  if (!/^\d{13}$/.test(timestamp)) throw new UsageError(`--timestamp ${timestamp}: 13 digits (milliseconds)`);

  const written = files(n, timestamp);
  for (const path of Object.keys(written)) if (existsSync(join(root, path))) throw new UsageError(`${path} exists already`);
  // the wiring first: a missing anchor stops the run before anything is written
  const migration = { className: migrationClass(n, timestamp), file: `${timestamp}-${n.module}` };
  const wired = wire(root, wiringSteps(n, migration));
  for (const [path, text] of Object.entries(written)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text, { flag: 'wx' });
  }
  // the module's own files in the house style (.prettierrc.json), so that npm run checks passes at once
  execFileSync(join(root, 'node_modules', '.bin', 'prettier'), ['--write', '--log-level', 'warn', ...Object.keys(written)], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });

  console.log(
    `created (the module's own files):\n${Object.keys(written)
      .map((p) => `  ${p}`)
      .join('\n')}`,
  );
  console.log(`wired (outside the module, scripts/new-operation/wiring.mjs):`);
  for (const w of wired) console.log(`  ${w.file}: ${w.what}${w.changed ? '' : ' (already there)'}`);
  if (options.openapi) {
    console.log('regenerating openapi/partner.json and the client types (npm run openapi) …');
    try {
      execFileSync('npm', ['run', '--silent', 'openapi'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    } catch {
      throw new UsageError('npm run openapi failed (above); the files are written: fix what it names, then run npm run openapi');
    }
  }
  const edit = [
    [`src/modules/${n.module}/api/create-${n.resource}.request.dto.ts`, "the fields' constraints"],
    [`src/modules/${n.module}/domain/${n.resource}.ts`, 'the input and its rules'],
    [`src/shared/database/migrations/${timestamp}-${n.module}.ts`, 'columns, checks, indexes'],
    [`src/modules/${n.module}/api/${n.module}.controller.ts`, '@PartnerOperation: summary, the codes it answers'],
    [`src/modules/${n.module}/api/${n.module}.openapi.ts`, 'the result schemas'],
    [`src/modules/${n.module}/facts.ts`, "the scope's words, receipt kind, OpenAPI tag, purge part, tables"],
    [`test/e2e/${n.module}.e2e-spec.ts`, "the operation's own cases"],
    ['docs/architecture.md', `a row of "Who owns which table": | ${n.module} | \`${n.table}\` | (npm run checks names it until then)`],
  ];
  const width = Math.max(...edit.map(([path]) => path.length));
  console.log(`
next: edit these to your rules, then run its checks and tests
${edit.map(([path, what]) => `  ${path.padEnd(width)}  ${what}`).join('\n')}
  npm run typecheck && npm run lint:deps && npm run test:e2e -- test/e2e/${n.module}.e2e-spec.ts
  npm run openapi   (after a change to the DTO or the operation's OpenAPI facts)`);
}

try {
  main();
} catch (err) {
  if (err instanceof UsageError || err instanceof WiringError) {
    console.error(`new:operation: ${err.message}`);
    process.exit(2);
  }
  throw err;
}
