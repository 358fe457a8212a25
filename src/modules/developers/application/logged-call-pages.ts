import type { LoggedCallColumns } from '../domain/developer.repository';

/** Calls per page: what one insert statement takes at most. */
export const PAGE_CALLS = 500;
/** Bytes of text per page: a page is closed early when the next call's text does not fit (≥ 100 calls of the longest paths). */
const PAGE_BYTES = 256 * 1024;
/** Spare pages kept for reuse once written (the rest are left to the collector). */
const SPARE_PAGES = 2;

/** The text fields of a call, in the order they are written into a page's bytes. */
const TEXTS = 7;
const [APP_ID, ENVIRONMENT, METHOD, PATH, REQUEST_ID, CLIENT_ADDRESS, KEY_PREFIX] = [0, 1, 2, 3, 4, 5, 6];

/** One call as the completion hook hands it over: only strings and numbers, nothing of the request kept. */
export interface CallFields {
  appId: string;
  environment: string;
  atMs: number;
  method: string;
  path: string;
  status: number;
  code: string | null;
  pointers: readonly string[] | null;
  durationMs: number;
  requestId: string;
  clientAddress: string;
  /** the Idempotency-Key's first 8 characters, or null when the call had none */
  keyPrefix: string | null;
}

/**
 * Up to PAGE_CALLS calls, by column: numbers in typed arrays, the text fields as latin1 bytes in one
 * buffer (start offsets per field), so a queued call holds no JavaScript object and no string. A call
 * queued for 200 ms would otherwise keep its strings alive through the young generation's collections
 * and have them promoted into the old one (bench/RESULTS.md, the request log).
 *
 * latin1 is exact for every text field: Node gives the request line and header values (path, method,
 * Idempotency-Key) as one-byte strings, one character per byte received; the request id is visible ASCII
 * or a UUID, the app id a UUID, the environment and the client address ASCII. The problem `code` is one of
 * the catalogue's constant strings and the pointers (a refused call's, rare) may name any field the body
 * had: both are kept as they are.
 */
class Page {
  size = 0;
  private used = 0;
  readonly bytes = Buffer.allocUnsafeSlow(PAGE_BYTES);
  /** start of each text field of each call; the field ends where the next starts (an extra entry per call ends the last) */
  private readonly starts = new Uint32Array(PAGE_CALLS * (TEXTS + 1));
  private readonly hasKey = new Uint8Array(PAGE_CALLS);
  private readonly at = new Float64Array(PAGE_CALLS);
  private readonly status = new Uint16Array(PAGE_CALLS);
  private readonly duration = new Uint32Array(PAGE_CALLS);
  private readonly code: Array<string | null> = new Array<string | null>(PAGE_CALLS).fill(null);
  private readonly pointers: Array<readonly string[] | null> = new Array<readonly string[] | null>(PAGE_CALLS).fill(null);

  /** Adds the call if it fits (false: the page is full, in calls or in bytes). */
  add(c: CallFields): boolean {
    if (this.size === PAGE_CALLS) return false;
    const key = c.keyPrefix ?? '';
    // latin1: one byte per character, so the lengths are the byte counts
    const bytes = c.appId.length + c.environment.length + c.method.length + c.path.length + c.requestId.length + c.clientAddress.length + key.length;
    if (this.used + bytes > PAGE_BYTES) return false;
    const i = this.size++;
    const s = i * (TEXTS + 1);
    let at = this.used;
    const b = this.bytes;
    this.starts[s + APP_ID] = at;
    at += b.write(c.appId, at, 'latin1');
    this.starts[s + ENVIRONMENT] = at;
    at += b.write(c.environment, at, 'latin1');
    this.starts[s + METHOD] = at;
    at += b.write(c.method, at, 'latin1');
    this.starts[s + PATH] = at;
    at += b.write(c.path, at, 'latin1');
    this.starts[s + REQUEST_ID] = at;
    at += b.write(c.requestId, at, 'latin1');
    this.starts[s + CLIENT_ADDRESS] = at;
    at += b.write(c.clientAddress, at, 'latin1');
    this.starts[s + KEY_PREFIX] = at;
    at += b.write(key, at, 'latin1');
    this.starts[s + TEXTS] = at;
    this.used = at;
    this.hasKey[i] = c.keyPrefix === null ? 0 : 1;
    this.at[i] = c.atMs;
    this.status[i] = c.status;
    this.duration[i] = c.durationMs;
    this.code[i] = c.code;
    this.pointers[i] = c.pointers;
    return true;
  }

  /** The calls as the insert takes them; the page is empty afterwards. */
  take(): LoggedCallColumns {
    const n = this.size;
    const out: LoggedCallColumns = {
      appId: new Array<string>(n),
      environment: new Array<string>(n),
      at: new Array<number>(n),
      method: new Array<string>(n),
      path: new Array<string>(n),
      status: new Array<number>(n),
      code: new Array<string | null>(n),
      pointers: new Array<string>(n),
      durationMs: new Array<number>(n),
      requestId: new Array<string>(n),
      clientAddress: new Array<string>(n),
      idempotencyKeyPrefix: new Array<string | null>(n),
    };
    const text = (i: number, field: number) => this.bytes.toString('latin1', this.starts[i * (TEXTS + 1) + field], this.starts[i * (TEXTS + 1) + field + 1]);
    for (let i = 0; i < n; i++) {
      out.appId[i] = text(i, APP_ID);
      out.environment[i] = text(i, ENVIRONMENT);
      out.at[i] = this.at[i];
      out.method[i] = text(i, METHOD);
      out.path[i] = text(i, PATH);
      out.status[i] = this.status[i];
      out.code[i] = this.code[i];
      out.pointers[i] = this.pointers[i]?.join('\n') ?? '';
      out.durationMs[i] = this.duration[i];
      out.requestId[i] = text(i, REQUEST_ID);
      out.clientAddress[i] = text(i, CLIENT_ADDRESS);
      out.idempotencyKeyPrefix[i] = this.hasKey[i] ? text(i, KEY_PREFIX) : null;
      this.code[i] = null;
      this.pointers[i] = null;
    }
    this.size = 0;
    this.used = 0;
    return out;
  }
}

/**
 * The request log's bounded queue: pages of calls, the oldest first. `add` never allocates at a steady
 * rate (a written page is reused) and refuses a call once `limit` calls wait.
 */
export class LoggedCallPages {
  private readonly pages: Page[] = [];
  private readonly spare: Page[] = [];
  private waiting = 0;

  constructor(private readonly limit: number) {}

  /** Calls waiting to be taken. */
  get length(): number {
    return this.waiting;
  }

  /** Whether a whole page waits (it can be written at once). */
  get pageFull(): boolean {
    return this.pages.length > 1 || (this.pages.length === 1 && this.pages[0].size === PAGE_CALLS);
  }

  /** Queues the call; false when `limit` calls wait already (the caller drops and counts it). */
  add(call: CallFields): boolean {
    if (this.waiting >= this.limit) return false;
    let page = this.pages[this.pages.length - 1];
    if (!page || !page.add(call)) {
      page = this.spare.pop() ?? new Page();
      if (!page.add(call)) return false; // longer than a page's bytes: cannot be (the recorder cuts the path), refused all the same
      this.pages.push(page);
    }
    this.waiting++;
    return true;
  }

  /** The oldest page's calls (at most PAGE_CALLS), or null when none wait. */
  take(): LoggedCallColumns | null {
    const page = this.pages.shift();
    if (!page) return null;
    this.waiting -= page.size;
    const columns = page.take();
    if (this.spare.length < SPARE_PAGES) this.spare.push(page);
    return columns;
  }
}
