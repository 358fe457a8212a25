/**
 * The journal's writes as their receipts name them (CONTRACT §7, §19): the kind, which is also the operation the
 * key's fingerprint names, what the receipt names, and that a production call needs the posting mandate.
 * Declared once: the service writes them, the module's facts.ts declares them to the rest of the service.
 */
export const JOURNAL_POST = { kind: 'journal.post', resourceType: 'journal_entry', mandate: true } as const;
export const JOURNAL_REVERSE = { kind: 'journal.reverse', resourceType: 'journal_entry', mandate: true } as const;
export const JOURNAL_BATCH = { kind: 'journal.batch', resourceType: 'journal_batch', mandate: true } as const;
