import type { LoggedCallColumns } from '../domain/developer.repository';

/** Calls per page: what one insert statement takes at most. */
export const PAGE_CALLS = 500;
/** Spare pages kept for reuse once written (the rest are left to the collector). */
const SPARE_PAGES = 2;

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
 * Up to PAGE_CALLS calls, by column: numbers in typed arrays, strings in arrays made once per page, so a
 * queued call is no object of its own (no LoggedCall, Date or pointer array per call, as before) and a page
 * is reused once written. The strings are those the request had anyway (its id, path, address …). The
 * cheapest of three layouts measured (bench/RESULTS.md, "Figures behind code comments").
 */
class Page {
  size = 0;
  private readonly appId = new Array<string>(PAGE_CALLS).fill('');
  private readonly environment = new Array<string>(PAGE_CALLS).fill('');
  private readonly method = new Array<string>(PAGE_CALLS).fill('');
  private readonly path = new Array<string>(PAGE_CALLS).fill('');
  private readonly requestId = new Array<string>(PAGE_CALLS).fill('');
  private readonly clientAddress = new Array<string>(PAGE_CALLS).fill('');
  private readonly keyPrefix = new Array<string | null>(PAGE_CALLS).fill(null);
  private readonly code = new Array<string | null>(PAGE_CALLS).fill(null);
  private readonly pointers = new Array<readonly string[] | null>(PAGE_CALLS).fill(null);
  private readonly at = new Float64Array(PAGE_CALLS);
  private readonly status = new Uint16Array(PAGE_CALLS);
  private readonly duration = new Uint32Array(PAGE_CALLS);

  /** Adds the call if the page has room (false: full). */
  add(c: CallFields): boolean {
    if (this.size === PAGE_CALLS) return false;
    const i = this.size++;
    this.appId[i] = c.appId;
    this.environment[i] = c.environment;
    this.method[i] = c.method;
    this.path[i] = c.path;
    this.requestId[i] = c.requestId;
    this.clientAddress[i] = c.clientAddress;
    this.keyPrefix[i] = c.keyPrefix;
    this.code[i] = c.code;
    this.pointers[i] = c.pointers;
    this.at[i] = c.atMs;
    this.status[i] = c.status;
    this.duration[i] = c.durationMs;
    return true;
  }

  /** The calls as the insert takes them; the page is empty afterwards and keeps no string of them. */
  take(): LoggedCallColumns {
    const n = this.size;
    const pointers = new Array<string>(n);
    for (let i = 0; i < n; i++) pointers[i] = this.pointers[i]?.join('\n') ?? '';
    const out: LoggedCallColumns = {
      appId: this.appId.slice(0, n),
      environment: this.environment.slice(0, n),
      at: Array.from(this.at.subarray(0, n)),
      method: this.method.slice(0, n),
      path: this.path.slice(0, n),
      status: Array.from(this.status.subarray(0, n)),
      code: this.code.slice(0, n),
      pointers,
      durationMs: Array.from(this.duration.subarray(0, n)),
      requestId: this.requestId.slice(0, n),
      clientAddress: this.clientAddress.slice(0, n),
      idempotencyKeyPrefix: this.keyPrefix.slice(0, n),
    };
    for (const column of [this.appId, this.environment, this.method, this.path, this.requestId, this.clientAddress]) column.fill('', 0, n);
    for (const column of [this.keyPrefix, this.code, this.pointers]) column.fill(null, 0, n);
    this.size = 0;
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
      page.add(call);
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
