/**
 * Issue 35 finding 8: C0 control characters (U+0000–U+001F) and DEL (U+007F) have no place in what
 * people type into a form or what a page shows — a name, an e-mail address, a URI — and NUL cannot even
 * be stored (PostgreSQL text). Multi-line fields (a textarea of redirect URIs) keep tab, line feed and
 * carriage return.
 */
const ANY_CONTROL = /[\u0000-\u001f\u007f]/;
const CONTROL_EXCEPT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** The JSON Schema `pattern` of text without control characters (for the OpenAPI documents). */
export const NO_CONTROL_CHARACTERS_PATTERN = '^[^\\u0000-\\u001f\\u007f]*$';

export function hasControlCharacter(s: string, allow: 'nothing' | 'line breaks' = 'nothing'): boolean {
  return (allow === 'line breaks' ? CONTROL_EXCEPT_LINE_BREAKS : ANY_CONTROL).test(s);
}
