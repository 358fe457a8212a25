/**
 * Port: the SQL parts of an entry's attachments (CONTRACT §17), which live in the attachments module's
 * tables. The journal's entry reads (`GET {base}/journal/entries`, the owner's activity) compose them into
 * their one statement; the attachments module, which builds on the journal (an attachment belongs to an
 * entry), binds the port to its own sql.ts (`EntryAttachmentsSqlModule`: global, imported by
 * AttachmentsCoreModule and by the console listener), so the journal imports nothing of it. Each part is
 * plain SQL text, fixed at start: the composed statements are the same named prepared statements as before.
 */
export abstract class EntryAttachmentsSql {
  /** The attachments of the entry (organization `org`, id `entry`: SQL expressions) as a JSON array of `<attachment>`, `[]` when none. */
  abstract attachmentsOf(org: string, entry: string): string;
  /** A condition: the entry has at least one attachment. */
  abstract hasAttachment(org: string, entry: string): string;
}
