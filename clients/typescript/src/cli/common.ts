/** What the `partner-api` commands share: their environment, one-line errors, times with their zone. */

/** An error the command reports as one line on stderr, then exits with `exitCode`. */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** A command line the command does not understand: the message, the usage, exit 2. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, 2);
  }
}

export interface PartnerEnvironment {
  /** `PARTNER_API_BASE` without a trailing slash: `…/api/partner/sandbox/v1` or `…/api/partner/v1` */
  base: string;
  /** `PARTNER_API_TOKEN`: an `hsk_` sandbox or `hat_` production access token */
  token: string;
}

export function partnerEnvironment(env: NodeJS.ProcessEnv): PartnerEnvironment {
  const token = env.PARTNER_API_TOKEN?.trim();
  const base = env.PARTNER_API_BASE?.trim();
  if (!token) throw new CliError('set PARTNER_API_TOKEN to an access token of your app (hsk_… for the sandbox)');
  if (!base) throw new CliError('set PARTNER_API_BASE to the base URL, e.g. http://127.0.0.1:3000/api/partner/sandbox/v1');
  if (!isHttpUrl(base)) throw new CliError(`PARTNER_API_BASE is not an http(s) URL: ${base}`);
  return { base: base.replace(/\/+$/, ''), token };
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The sandbox base ends in `/sandbox/v1` (CONTRACT seed 4); the production base in `/api/partner/v1`. */
export function isSandboxBase(base: string): boolean {
  return /\/sandbox\/v1\/?$/.test(new URL(base).pathname);
}

interface ProblemLike {
  code?: unknown;
  detail?: unknown;
  errors?: Array<{ pointer?: unknown; code?: unknown }>;
}

/** `401 invalid_token (<detail>; /pointer code, …)` from a status and a problem body (CONTRACT §4), if any. */
export function describeAnswer(status: number, body: unknown): string {
  const problem = (typeof body === 'object' && body !== null ? body : {}) as ProblemLike;
  const code = typeof problem.code === 'string' ? ` ${problem.code}` : '';
  const detail = typeof problem.detail === 'string' ? [problem.detail] : [];
  const errors = Array.isArray(problem.errors) ? problem.errors.map((e) => `${String(e.pointer)} ${String(e.code)}`) : [];
  const why = [...detail, ...errors].join('; ');
  return `${status}${code}${why ? ` (${why})` : ''}`;
}

/** The reason a request did not get through: `connection refused`, `timeout`, or the system's code. */
export function describeFailure(err: unknown): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return 'timeout';
  const cause = err instanceof Error ? (err.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `host not found (${code})`;
  if (code) return code;
  if (typeof cause?.message === 'string') return cause.message;
  return err instanceof Error ? err.message : String(err);
}

/** `2026-11-25 23:15:58 UTC`, as the service's pages write times. */
export function utcTime(at: Date = new Date()): string {
  return `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
