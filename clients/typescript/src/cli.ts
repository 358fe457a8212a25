#!/usr/bin/env node
/**
 * `partner-api`: local development without a public URL (CONTRACT §15). See the package README.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CliError, isHttpUrl, partnerEnvironment, UsageError } from './cli/common.ts';
import { DEFAULT_CURSOR_FILE, listen, type Output, SECRET_VARIABLE } from './cli/listen.ts';
import { trigger } from './cli/trigger.ts';

const USAGE = `usage:
  partner-api listen --forward-to <url> [--cursor-file <path>] [--from-start] [--poll-interval <seconds>]
  partner-api trigger
environment:
  PARTNER_API_BASE            the API base, e.g. http://127.0.0.1:3000/api/partner/sandbox/v1
  PARTNER_API_TOKEN           an access token of your app (trigger: a sandbox hsk_ token)
  ${SECRET_VARIABLE}  listen: the whsec_ secret to sign with (default: a new one, printed at start)
listen options:
  --forward-to <url>          where each event is posted, signed per Standard Webhooks
  --cursor-file <path>        where listen keeps its place in the feed (default ./${DEFAULT_CURSOR_FILE})
  --from-start                without a cursor file, forward every retained event (default: new ones only)
  --poll-interval <seconds>   how often an empty feed is read again (default 1)`;

const io: Output = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** parseArgs' complaint (an unknown option, a missing value) as a usage error. */
function usageOf<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.out(USAGE);
    return;
  }
  if (command === 'listen') {
    const { values } = usageOf(() =>
      parseArgs({
        args: rest,
        strict: true,
        options: {
          'forward-to': { type: 'string' },
          'cursor-file': { type: 'string' },
          'from-start': { type: 'boolean' },
          'poll-interval': { type: 'string' },
        },
      }),
    );
    const forwardTo = values['forward-to'];
    if (forwardTo === undefined) throw new UsageError('listen needs --forward-to <url>');
    if (!isHttpUrl(forwardTo)) throw new UsageError(`--forward-to is not an http(s) URL: ${forwardTo}`);
    const poll = values['poll-interval'] === undefined ? 1 : Number(values['poll-interval']);
    if (!Number.isFinite(poll) || poll < 0.1 || poll > 3600) throw new UsageError('--poll-interval is a number of seconds from 0.1 to 3600');
    const env = partnerEnvironment(process.env);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.on(signal, () => {
        // every delivered event is already in the cursor file: the next start resumes after it
        io.err('partner-api listen: stopped');
        process.exit(0);
      });
    }
    await listen(
      env,
      {
        forwardTo,
        cursorFile: resolve(values['cursor-file'] ?? DEFAULT_CURSOR_FILE),
        fromStart: values['from-start'] === true,
        pollIntervalMs: Math.round(poll * 1000),
      },
      process.env[SECRET_VARIABLE] || undefined,
      io,
    );
    return;
  }
  if (command === 'trigger') {
    usageOf(() => parseArgs({ args: rest, strict: true, options: {} }));
    await trigger(partnerEnvironment(process.env), io);
    return;
  }
  throw new UsageError(`unknown command: ${command}`);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) {
    io.err(`partner-api: ${err.message}`);
    io.err(USAGE);
  } else if (err instanceof CliError) {
    io.err(err.message.startsWith('partner-api') ? err.message : `partner-api: ${err.message}`);
  } else {
    io.err(`partner-api: ${err instanceof Error ? err.message : String(err)}`);
  }
  process.exitCode = err instanceof CliError ? err.exitCode : 1;
});
