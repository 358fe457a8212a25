const UPPER_CASE = /[A-Z]/;

/**
 * An id (a uuid, an account number's key) in lower case, the form ids are compared and stored in. The
 * same string when it is lower case already — the usual case — so comparing the ids of a 500-line journal
 * allocates no copy per line (String.prototype.toLowerCase always returns a new string).
 */
export function lowerCaseId(id: string): string {
  return UPPER_CASE.test(id) ? id.toLowerCase() : id;
}
