import 'reflect-metadata';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createApplications } from '../../../bootstrap';
import { loadConfig } from '../../config/app-config';
import { consoleDocumentFromRoutes } from './console-document';
import { partnerDocumentFromRoutes } from './partner-document';

/** The checked-in documents' text: the served JSON, pretty-printed. */
export const documentText = (document: unknown): string => `${JSON.stringify(document, null, 2)}\n`;

/**
 * `npm run openapi`: builds both Nest applications over an in-memory store, without listening, and
 * writes openapi/partner.json and openapi/console.json.
 */
async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'partner-api-openapi-'));
  const config = {
    ...loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'pglite://memory', CONSOLE_PORT: '1', CONSOLE_API_KEY: 'openapi-export-0123456789', LOG_LEVEL: 'silent' }),
  };
  const apps = await createApplications(config);
  try {
    const out = resolve(process.argv[2] ?? 'openapi');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'partner.json'), documentText(partnerDocumentFromRoutes(apps.partner)));
    writeFileSync(join(out, 'console.json'), documentText(consoleDocumentFromRoutes(apps.console!)));
    process.stdout.write(`wrote ${out}/partner.json and ${out}/console.json\n`);
  } finally {
    await apps.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((err: Error) => {
    process.stderr.write(`openapi export failed: ${err.stack ?? err.message}\n`);
    process.exit(1);
  });
}
