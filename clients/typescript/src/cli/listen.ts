import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { createPartnerClient } from '../index.ts';
import { CliError, describeAnswer, describeFailure, type PartnerEnvironment, sleep, utcTime } from './common.ts';

export const DEFAULT_CURSOR_FILE = '.partner-api-listen.json';
export const SECRET_VARIABLE = 'PARTNER_API_WEBHOOK_SECRET';
const PAGE_LIMIT = 100;
/** A local receiver gets as long as the service gives an endpoint (CONTRACT §9). */
const DELIVERY_TIMEOUT_MS = 10_000;
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

export interface ListenOptions {
  forwardTo: string;
  cursorFile: string;
  /** Without a cursor file: forward every retained event, not only those that arrive from now on. */
  fromStart: boolean;
  pollIntervalMs: number;
}

export interface Output {
  out: (line: string) => void;
  err: (line: string) => void;
}

interface FeedEvent {
  id: string;
  type: string;
  [member: string]: unknown;
}
interface FeedPage {
  data: FeedEvent[];
  next_cursor: string;
  has_more: boolean;
}

/**
 * Where listen stands, written after every delivered event (atomically: a kill never leaves half a file):
 * `after`, the cursor of the page being forwarded (null: the feed's start), and `delivered`, the ids of
 * that page's events already answered 2xx. A restart reads the same page again and skips those, so it
 * neither sends an event twice nor passes one that was not delivered.
 */
interface ListenState {
  after: string | null;
  delivered: string[];
}

/** `whsec_` + base64 of 24 random bytes, as the service makes endpoint secrets. */
export function generateSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * `partner-api listen --forward-to <url>`: follows the events feed (CONTRACT §14) and posts each event to
 * a local URL, signed per Standard Webhooks exactly as a webhook delivery of it would be (the same body
 * and webhook-id), in feed order. A receiver that is down or answers non-2xx gets the same event again
 * with backoff (1 s doubling to 30 s, ±10 %) until it takes it; the next event waits. Runs until stopped.
 */
export async function listen(env: PartnerEnvironment, options: ListenOptions, secretFromEnv: string | undefined, io: Output): Promise<never> {
  const secret = secretFromEnv ?? generateSecret();
  let signer: Webhook;
  try {
    if (!secret.startsWith('whsec_')) throw new Error('no prefix');
    signer = new Webhook(secret);
  } catch {
    throw new CliError(`${SECRET_VARIABLE} is not a Standard Webhooks secret (whsec_ followed by base64)`);
  }
  const feed = new Feed(env, io);
  lockCursorFile(options.cursorFile);
  const stored = readState(options.cursorFile);
  let state: ListenState;
  let page: FeedPage;
  let start: string;
  if (stored) {
    state = stored;
    page = await feed.page(state.after, options.cursorFile);
    start = 'resuming where the last session stopped';
  } else if (options.fromStart) {
    state = { after: null, delivered: [] };
    page = await feed.page(null, options.cursorFile);
    start = 'from the oldest retained event';
  } else {
    // only what arrives from now on: read to the feed's end, forwarding nothing
    page = await feed.page(null, options.cursorFile);
    while (page.has_more) page = await feed.page(page.next_cursor, options.cursorFile);
    state = { after: page.next_cursor, delivered: [] };
    page = { ...page, data: [] };
    start = 'forwarding events that arrive from now on';
  }
  writeState(options.cursorFile, state);

  io.out(`partner-api listen: the events of ${env.base}, forwarded to ${options.forwardTo}`);
  io.out(
    secretFromEnv
      ? `Signing with the secret in ${SECRET_VARIABLE}.`
      : `Signing secret: ${secret}  (new for this session; give your receiver this one, or set ${SECRET_VARIABLE} to keep one across restarts)`,
  );
  io.out(`Cursor file: ${options.cursorFile} (${start})`);
  io.out('Ready: waiting for events (Ctrl-C to stop).');

  for (;;) {
    for (const event of page.data) {
      if (state.delivered.includes(event.id)) continue;
      const status = await deliver(signer, options.forwardTo, event, io);
      state = { after: state.after, delivered: [...state.delivered, event.id] };
      writeState(options.cursorFile, state);
      io.out(`${utcTime()}  ${event.type}  ${event.id}  → ${status}`);
    }
    if (state.after !== page.next_cursor || state.delivered.length > 0) {
      state = { after: page.next_cursor, delivered: [] };
      writeState(options.cursorFile, state);
    }
    if (!page.has_more) await sleep(options.pollIntervalMs);
    page = await feed.page(state.after, options.cursorFile);
  }
}

/** Posts one event until the receiver answers 2xx; the status it answered. */
async function deliver(signer: Webhook, url: string, event: FeedEvent, io: Output): Promise<number> {
  // the webhook body of CONTRACT §9: the feed's event without its id, which travels as webhook-id
  const { id, ...webhook } = event;
  const body = JSON.stringify(webhook);
  let wait = FIRST_RETRY_MS;
  for (;;) {
    let failure: string;
    try {
      const sentAt = new Date();
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
          'webhook-signature': signer.sign(id, sentAt, body),
        },
        body,
        redirect: 'manual', // a redirect is not a delivery
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      });
      await res.arrayBuffer().catch(() => undefined);
      if (res.status >= 200 && res.status < 300) return res.status;
      failure = `answered ${res.status}`;
    } catch (err) {
      failure = describeFailure(err);
    }
    const delay = Math.round(wait * (0.9 + Math.random() * 0.2));
    io.err(`${utcTime()}  ${event.type}  ${id}  → ${failure}; retrying in ${(delay / 1000).toFixed(1)} s`);
    await sleep(delay);
    wait = Math.min(wait * 2, MAX_RETRY_MS);
  }
}

/** The events feed: pages, with waits for the service to come back; a refusal is a CliError. */
class Feed {
  private readonly client;
  private readonly env: PartnerEnvironment;
  private readonly io: Output;
  constructor(env: PartnerEnvironment, io: Output) {
    this.env = env;
    this.io = io;
    this.client = createPartnerClient(env.base, env.token);
  }

  async page(after: string | null, cursorFile: string): Promise<FeedPage> {
    const call = `GET ${this.env.base}/events`;
    let wait = FIRST_RETRY_MS;
    for (;;) {
      let retryIn: number;
      let reason: string;
      try {
        const { data, error, response } = await this.client.GET('/events', {
          params: { query: { limit: PAGE_LIMIT, ...(after === null ? {} : { after }) } },
        });
        if (data) return data as FeedPage;
        const answer = describeAnswer(response.status, error);
        if (response.status === 401) {
          throw new CliError(
            `partner-api listen: ${call} answered ${answer}: the token in PARTNER_API_TOKEN was refused (is it current, and for the environment of PARTNER_API_BASE?)`,
          );
        }
        if (response.status === 400 && after !== null) {
          throw new CliError(
            `partner-api listen: ${call} answered ${answer}: the cursor in ${cursorFile} was not issued to this app and environment; remove the file or choose another --cursor-file`,
          );
        }
        if (response.status !== 429 && response.status < 500) throw new CliError(`partner-api listen: ${call} answered ${answer}`);
        const retryAfter = Number(response.headers.get('retry-after'));
        retryIn = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : wait;
        reason = answer;
      } catch (err) {
        if (err instanceof CliError) throw err;
        retryIn = wait;
        reason = describeFailure(err);
      }
      this.io.err(`${utcTime()}  ${call} → ${reason}; retrying in ${(retryIn / 1000).toFixed(1)} s`);
      await sleep(retryIn);
      wait = Math.min(wait * 2, MAX_RETRY_MS);
    }
  }
}

/**
 * One listen per cursor file: two would forward the same events. `<file>.lock` holds the pid of the
 * listen using it and goes when that listen exits; one left by a listen that was killed is taken over.
 */
function lockCursorFile(file: string): void {
  const lock = `${file}.lock`;
  mkdirSync(dirname(file), { recursive: true });
  for (let tries = 0; tries < 3; tries++) {
    try {
      writeFileSync(lock, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      process.on('exit', () => {
        try {
          if (readFileSync(lock, 'utf8').trim() === String(process.pid)) unlinkSync(lock);
        } catch {
          // already gone
        }
      });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new CliError(`cannot create ${lock}: ${(err as Error).message}`);
    }
    let holder = Number.NaN;
    try {
      holder = Number(readFileSync(lock, 'utf8').trim());
    } catch {
      continue; // removed meanwhile: try again
    }
    if (Number.isInteger(holder) && holder > 0 && isRunning(holder)) {
      throw new CliError(
        `partner-api listen: another listen (pid ${holder}) is using the cursor file ${file}; stop it, or give this one another --cursor-file`,
      );
    }
    try {
      unlinkSync(lock); // its listen was killed
    } catch {
      // removed meanwhile
    }
  }
  throw new CliError(`cannot take the lock ${lock}`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readState(file: string): ListenState | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new CliError(`cannot read the cursor file ${file}: ${(err as Error).message}`);
  }
  try {
    const value = JSON.parse(text) as Partial<ListenState>;
    const after = value.after;
    if ((after === null || typeof after === 'string') && Array.isArray(value.delivered) && value.delivered.every((d) => typeof d === 'string')) {
      return { after, delivered: value.delivered };
    }
  } catch {
    // reported below
  }
  throw new CliError(`${file} is not a partner-api listen cursor file; remove it or choose another --cursor-file`);
}

function writeState(file: string, state: ListenState): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}
