import type { CallerContext } from '../domain/caller-context';
import { type CommitPosition, parsePositionText } from '../domain/commit-order';
import type { SecretBox } from './secret-box';

/** The position as 24 bytes: the xid as an unsigned 64-bit integer, then the id's 16 bytes (every cursor is as long as any other). */
function positionBytes(p: CommitPosition): Buffer {
  const bytes = Buffer.alloc(24);
  bytes.writeBigUInt64BE(BigInt(p.xid), 0);
  Buffer.from(p.id.replace(/-/g, ''), 'hex').copy(bytes, 8);
  return bytes;
}

function positionFromBytes(bytes: Buffer): CommitPosition | null {
  if (bytes.length !== 24) return null;
  const hex = bytes.subarray(8).toString('hex');
  return parsePositionText(`${bytes.readBigUInt64BE(0)}:${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`);
}

/**
 * The cursor of a commit-ordered list (docs/adr/0006-events-feed-commit-order.md): the position sealed
 * (SecretBox.sealToken: AES-256-GCM) with the caller's environment, organization and app as authenticated
 * data, under a context per list (`TAG_CONTEXT`). No transaction id or row id can be read from it (CONTRACT
 * §20: a counter of the service would tell how much other tenants wrote), and a cursor this service did not
 * issue, a changed one, one issued to another app, or one of another list is refused before anything is read.
 *
 * Cursors issued before version 6 (the position's text in base64url, a dot, and SecretBox.tag over caller
 * and position) are still read, so a partner's saved cursor survives the upgrade; none are issued any more.
 */
export class CommitOrderCursor {
  constructor(
    private readonly box: SecretBox,
    private readonly context: string,
  ) {}

  cursorOf(caller: CallerContext, p: CommitPosition): string {
    return this.box.sealToken(positionBytes(p), this.context, binding(caller));
  }

  /** The position the cursor names, or null when it is not one this service issued to this caller for this list. */
  positionOf(caller: CallerContext, cursor: unknown): CommitPosition | null {
    if (typeof cursor !== 'string' || cursor.length > 200) return null;
    if (cursor.startsWith('v')) {
      const bytes = this.box.openToken(cursor, this.context, binding(caller));
      return bytes === null ? null : positionFromBytes(bytes);
    }
    return this.legacyPositionOf(caller, cursor);
  }

  /** A cursor of the earlier form: `<base64url of the position's text>.<tag>`. */
  private legacyPositionOf(caller: CallerContext, cursor: string): CommitPosition | null {
    const dot = cursor.indexOf('.');
    if (dot <= 0 || !/^[A-Za-z0-9_-]+$/.test(cursor.slice(0, dot))) return null;
    const text = Buffer.from(cursor.slice(0, dot), 'base64url').toString('utf8');
    const position = parsePositionText(text);
    if (!position || Buffer.from(text, 'utf8').toString('base64url') !== cursor.slice(0, dot)) return null;
    return this.box.verifyTag(`${binding(caller)}|${text}`, this.context, cursor.slice(dot + 1)) ? position : null;
  }
}

/** Whose list a cursor belongs to: this caller's. */
function binding(caller: CallerContext): string {
  return `${caller.environment}|${caller.organizationId}|${caller.appId}`;
}
