import type { CallerContext } from '../domain/caller-context';
import { positionText } from '../domain/commit-order';
import { CommitOrderCursor } from './commit-order-cursor';
import { SecretBox } from './secret-box';

const K1 = `v1:${Buffer.alloc(32, 1).toString('base64url')}`;
const K2 = `v2:${Buffer.alloc(32, 2).toString('base64url')}`;
const caller = (appId: string) => ({ environment: 'sandbox', organizationId: 'org-1', appId }) as unknown as CallerContext;
const position = { xid: '18446744073709551615', id: '65993fb7-5a57-4d2a-9cbc-c85576328153' };

describe('CommitOrderCursor (CONTRACT §14, §20: opaque, bound to the caller)', () => {
  it('round-trips a position, the same cursor each time, with nothing of it readable and one length for every position', () => {
    const cursors = new CommitOrderCursor(SecretBox.fromSpec(K1), 'events-feed.cursor');
    const cursor = cursors.cursorOf(caller('a'), position);
    expect(cursors.cursorOf(caller('a'), position)).toBe(cursor);
    expect(cursors.positionOf(caller('a'), cursor)).toEqual(position);
    expect(Buffer.from(cursor.slice(3), 'base64url').toString('latin1')).not.toContain('1844674407');
    expect(cursors.cursorOf(caller('a'), { xid: '7', id: position.id })).toHaveLength(cursor.length);
  });

  it('opens only for its caller and list, and under a key rotated in after it', () => {
    const cursors = new CommitOrderCursor(SecretBox.fromSpec(K1), 'events-feed.cursor');
    const cursor = cursors.cursorOf(caller('a'), position);
    expect(cursors.positionOf(caller('b'), cursor)).toBeNull();
    expect(new CommitOrderCursor(SecretBox.fromSpec(K1), 'journal-entries.cursor').positionOf(caller('a'), cursor)).toBeNull();
    expect(new CommitOrderCursor(SecretBox.fromSpec(`${K2},${K1}`), 'events-feed.cursor').positionOf(caller('a'), cursor)).toEqual(position);
    expect(new CommitOrderCursor(SecretBox.fromSpec(K2), 'events-feed.cursor').positionOf(caller('a'), cursor)).toBeNull();
  });

  it('still reads a cursor of the earlier form (position text and tag), so a saved cursor survives the upgrade; a changed one is refused', () => {
    const box = SecretBox.fromSpec(K1);
    const cursors = new CommitOrderCursor(box, 'events-feed.cursor');
    const text = positionText(position);
    const legacy = `${Buffer.from(text).toString('base64url')}.${box.tag(`sandbox|org-1|a|${text}`, 'events-feed.cursor')}`;
    expect(cursors.positionOf(caller('a'), legacy)).toEqual(position);
    expect(cursors.positionOf(caller('b'), legacy)).toBeNull();
    const moved = `${Buffer.from(positionText({ ...position, xid: '1' })).toString('base64url')}${legacy.slice(legacy.indexOf('.'))}`;
    expect(cursors.positionOf(caller('a'), moved)).toBeNull();
  });
});
