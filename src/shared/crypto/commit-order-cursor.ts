import type { CallerContext } from '../domain/caller-context';
import { type CommitPosition, parsePositionText, positionText } from '../domain/commit-order';
import type { SecretBox } from './secret-box';

/**
 * The cursor of a commit-ordered list (docs/adr/0006-events-feed-commit-order.md): the position's text
 * (base64url) and a tag (SecretBox.tag) over the position AND the caller's environment, organization and
 * app, under a context per list (`TAG_CONTEXT`): a cursor this service did not issue, a changed one, one
 * issued to another app, or one of another list is refused before anything is read.
 */
export class CommitOrderCursor {
  constructor(
    private readonly box: SecretBox,
    private readonly context: string,
  ) {}

  cursorOf(caller: CallerContext, p: CommitPosition): string {
    const text = positionText(p);
    return `${Buffer.from(text, 'utf8').toString('base64url')}.${this.box.tag(tagMessage(caller, text), this.context)}`;
  }

  /** The position the cursor names, or null when it is not one this service issued to this caller for this list. */
  positionOf(caller: CallerContext, cursor: unknown): CommitPosition | null {
    if (typeof cursor !== 'string' || cursor.length > 200) return null;
    const dot = cursor.indexOf('.');
    if (dot <= 0 || !/^[A-Za-z0-9_-]+$/.test(cursor.slice(0, dot))) return null;
    const text = Buffer.from(cursor.slice(0, dot), 'base64url').toString('utf8');
    const position = parsePositionText(text);
    if (!position || Buffer.from(text, 'utf8').toString('base64url') !== cursor.slice(0, dot)) return null;
    return this.box.verifyTag(tagMessage(caller, text), this.context, cursor.slice(dot + 1)) ? position : null;
  }
}

/** What a cursor's tag vouches for: this position in this caller's list. */
function tagMessage(caller: CallerContext, position: string): string {
  return `${caller.environment}|${caller.organizationId}|${caller.appId}|${position}`;
}
