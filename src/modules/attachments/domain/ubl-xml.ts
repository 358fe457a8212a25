/**
 * CONTRACT §20 (Attachments): an `application/xml` attachment is well-formed XML with no DTD and no entity
 * expansion, whose root element is a UBL 2.1 Invoice, CreditNote or ApplicationResponse (OIOUBL and Peppol
 * BIS both are). HTML, SVG, HTA or anything else that merely starts with `<` is refused.
 *
 * A strict, non-validating, namespace-aware reader of the whole document (XML 1.0 fifth edition and
 * Namespaces in XML 1.0): it builds nothing, expands nothing (only the five predefined entities and character
 * references are known; any other reference is an error, as it is in a document without a DTD), and refuses
 * a document type declaration outright, so neither an external entity nor an entity bomb can be read.
 * Written here rather than taken from a package: no XML parser is among the dependencies, and this one only
 * has to say yes or no.
 */

/** The root elements §20 accepts, each in its own UBL 2.x namespace. */
export const UBL_ROOTS = ['Invoice', 'CreditNote', 'ApplicationResponse'] as const;
export const ublNamespaceOf = (root: (typeof UBL_ROOTS)[number]): string => `urn:oasis:names:specification:ubl:schema:xsd:${root}-2`;

const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NAMESPACE = 'http://www.w3.org/2000/xmlns/';

// XML 1.0 §2.3 NameStartChar / NameChar, without the colon (Namespaces: an NCName); the characters beyond the
// BMP (#x10000-#xEFFFF) as surrogate pairs, so the patterns need no `u` flag (several times faster on 10 MB)
const ASTRAL = '[\\uD800-\\uDB7F][\\uDC00-\\uDFFF]';
const NC_START =
  'A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD';
const NC_CHAR = `${NC_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040`;
const NCNAME = `(?:[${NC_START}]|${ASTRAL})(?:[${NC_CHAR}]|${ASTRAL})*`;
const QNAME = `(?:${NCNAME}:)?${NCNAME}`;
/** XML 1.0 §2.2 Char: anything else anywhere in the document is an error (also a lone surrogate). */
const NOT_A_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

const sticky = (source: string) => new RegExp(source, 'y');
const WS = sticky('[ \\t\\r\\n]*');
const XML_DECL = sticky(
  `<\\?xml[ \\t\\r\\n]+version[ \\t\\r\\n]*=[ \\t\\r\\n]*(?:"1\\.[0-9]+"|'1\\.[0-9]+')` +
    `(?:[ \\t\\r\\n]+encoding[ \\t\\r\\n]*=[ \\t\\r\\n]*(?:"([A-Za-z][A-Za-z0-9._-]*)"|'([A-Za-z][A-Za-z0-9._-]*)'))?` +
    `(?:[ \\t\\r\\n]+standalone[ \\t\\r\\n]*=[ \\t\\r\\n]*(?:"(?:yes|no)"|'(?:yes|no)'))?[ \\t\\r\\n]*\\?>`,
);
const START_TAG_NAME = sticky(`<(${QNAME})`);
const ATTRIBUTE = sticky(`[ \\t\\r\\n]+(${QNAME})[ \\t\\r\\n]*=[ \\t\\r\\n]*(?:"([^<"]*)"|'([^<']*)')`);
const TAG_END = sticky('[ \\t\\r\\n]*(/?)>');
const END_TAG = sticky(`</(${QNAME})[ \\t\\r\\n]*>`);
const PI_TARGET = sticky(`<\\?(${NCNAME})(\\?>|[ \\t\\r\\n])`);
/** a reference: one of the five predefined entities, or a character reference */
const REFERENCE = sticky('&(?:(amp|lt|gt|quot|apos)|#([0-9]+)|#x([0-9A-Fa-f]+));');

/** Why the bytes are not a UBL document §20 accepts, or null when they are. */
export function ublDocumentProblem(bytes: Buffer): string | null {
  const text = decode(bytes);
  if (text === null) return 'the bytes are not text in the encoding the document declares';
  try {
    return new Reader(text).document();
  } catch {
    // never a 500 for a file: whatever the reader cannot take is not a document it accepts
    return 'it cannot be read as XML';
  }
}

/** The document's characters: UTF-8 (BOM optional) or UTF-16 with its BOM, or the encoding the XML declaration names. */
function decode(bytes: Buffer): string | null {
  try {
    if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le', { fatal: true }).decode(bytes);
    if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be', { fatal: true }).decode(bytes);
    const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    // the declaration is ASCII in every encoding an e-invoice is written in; read it to learn the rest's
    const head = bytes.subarray(bom ? 3 : 0, 512).toString('latin1');
    WS.lastIndex = 0;
    WS.exec(head);
    XML_DECL.lastIndex = WS.lastIndex;
    const declared = XML_DECL.exec(head);
    const label = (declared?.[1] ?? declared?.[2] ?? 'utf-8').toLowerCase();
    if (bom && label !== 'utf-8') return null;
    // UTF-16 without its byte order mark is an error (XML 1.0 §4.3.3)
    if (label.startsWith('utf-16')) return null;
    return new TextDecoder(label, { fatal: true }).decode(bytes);
  } catch {
    // an encoding this runtime does not know, or bytes that are not in it
    return null;
  }
}

class Reader {
  private at = 0;
  /** the in-scope namespace bindings of each open element (prefix → name; '' the default namespace) */
  private readonly scopes: Array<Map<string, string>> = [
    new Map([
      ['xml', XML_NAMESPACE],
      ['xmlns', XMLNS_NAMESPACE],
    ]),
  ];
  private readonly open: string[] = [];

  constructor(private readonly s: string) {}

  document(): string | null {
    if (NOT_A_CHAR.test(this.s)) return 'it holds a character XML does not allow';
    // CONTRACT §17: optional whitespace before the declaration is tolerated (a strict reader would refuse it)
    this.skip(WS);
    this.skip(XML_DECL);
    if (this.s.startsWith('<?xml', this.at)) return 'its XML declaration is malformed or misplaced';
    let problem = this.misc();
    if (problem) return problem;
    if (this.s.startsWith('<!DOCTYPE', this.at) || this.s.startsWith('<!', this.at)) return 'it has a document type declaration (DTD), which is not accepted';
    const root = this.element();
    if (typeof root === 'string') return root;
    problem = this.content();
    if (problem) return problem;
    problem = this.misc();
    if (problem) return problem;
    if (this.at !== this.s.length) return 'there is more than one root element or text after the root element';
    const [namespace, local] = root.name;
    const accepted = (UBL_ROOTS as readonly string[]).includes(local) && namespace === ublNamespaceOf(local as (typeof UBL_ROOTS)[number]);
    return accepted ? null : `its root element is not a UBL 2.1 ${UBL_ROOTS.join(', ').replace(/, (?=[^,]*$)/, ' or ')} in its UBL namespace`;
  }

  /** Comments, processing instructions and whitespace (the prolog's and the epilog's Misc). */
  private misc(): string | null {
    for (;;) {
      this.skip(WS);
      if (this.s.startsWith('<!--', this.at)) {
        if (!this.comment()) return 'a comment is malformed';
      } else if (this.s.startsWith('<?', this.at)) {
        const problem = this.pi();
        if (problem) return problem;
      } else return null;
    }
  }

  /** A processing instruction at `at` (its target not `xml`), read with searches rather than a backtracking pattern. */
  private pi(): string | null {
    PI_TARGET.lastIndex = this.at;
    const m = PI_TARGET.exec(this.s);
    if (!m || m[1].toLowerCase() === 'xml') return 'a processing instruction is malformed';
    if (m[2] === '?>') {
      this.at = PI_TARGET.lastIndex;
      return null;
    }
    const end = this.s.indexOf('?>', PI_TARGET.lastIndex);
    if (end < 0) return 'a processing instruction is never closed';
    this.at = end + 2;
    return null;
  }

  /** A comment at `at`: `<!--`, no `--` inside, `-->`. */
  private comment(): boolean {
    const end = this.s.indexOf('-->', this.at + 4);
    if (end < 0 || this.s.indexOf('--', this.at + 4) < end) return false;
    this.at = end + 3;
    return true;
  }

  /** A CDATA section at `at`, up to its `]]>`. */
  private cdata(): boolean {
    const end = this.s.indexOf(']]>', this.at + 9);
    if (end < 0) return false;
    this.at = end + 3;
    return true;
  }

  /**
   * The element (start tag at `at`) with its attributes, its namespace bindings pushed: its expanded name, or why
   * it is not well-formed. An empty-element tag is closed at once.
   */
  private element(): { name: [string, string] } | string {
    START_TAG_NAME.lastIndex = this.at;
    const tag = START_TAG_NAME.exec(this.s);
    if (!tag) return 'a start tag is malformed';
    this.at = START_TAG_NAME.lastIndex;
    const attributes: Array<[string, string]> = [];
    const names = new Set<string>();
    for (;;) {
      ATTRIBUTE.lastIndex = this.at;
      const a = ATTRIBUTE.exec(this.s);
      if (!a) break;
      this.at = ATTRIBUTE.lastIndex;
      const value = this.references(a[2] ?? a[3]);
      if (value === null) return 'an attribute value has a reference XML does not define (no entities are expanded)';
      if (names.has(a[1])) return `the attribute ${a[1]} appears twice in one tag`;
      names.add(a[1]);
      attributes.push([a[1], value]);
    }
    TAG_END.lastIndex = this.at;
    const end = TAG_END.exec(this.s);
    if (!end) return 'a start tag is malformed';
    this.at = TAG_END.lastIndex;
    const parent = this.scopes[this.scopes.length - 1];
    // a new scope only where the element declares a namespace (most elements of an e-invoice declare none)
    const declares = attributes.some(([name]) => name === 'xmlns' || name.startsWith('xmlns:'));
    const scope = declares ? new Map(parent) : parent;
    for (const [name, value] of attributes) {
      if (name === 'xmlns') scope.set('', value);
      else if (name.startsWith('xmlns:')) {
        const prefix = name.slice(6);
        if (value === '' || prefix === 'xmlns' || (prefix === 'xml') !== (value === XML_NAMESPACE) || value === XMLNS_NAMESPACE)
          return `the namespace declaration ${name} is not allowed`;
        scope.set(prefix, value);
      }
    }
    const expanded = new Set<string>();
    for (const [name] of attributes) {
      const colon = name.indexOf(':');
      if (colon < 0 || name.startsWith('xmlns:')) continue;
      const namespace = scope.get(name.slice(0, colon));
      if (namespace === undefined) return `the prefix of ${name} is not declared`;
      const key = `${namespace} ${name.slice(colon + 1)}`;
      if (expanded.has(key)) return `the attribute ${name} appears twice in one tag`;
      expanded.add(key);
    }
    const colon = tag[1].indexOf(':');
    const namespace = scope.get(colon < 0 ? '' : tag[1].slice(0, colon)) ?? (colon < 0 ? '' : undefined);
    if (namespace === undefined) return `the prefix of ${tag[1]} is not declared`;
    if (end[1] !== '/') {
      this.scopes.push(scope);
      this.open.push(tag[1]);
    }
    return { name: [namespace, colon < 0 ? tag[1] : tag[1].slice(colon + 1)] };
  }

  /** The root's content up to and including its end tag: text, references, CDATA, comments, PIs, elements. */
  private content(): string | null {
    while (this.open.length > 0) {
      const lt = this.s.indexOf('<', this.at);
      if (lt < 0) return `the element ${this.open[this.open.length - 1]} is never closed`;
      if (!this.text(this.at, lt)) return 'the text has a reference XML does not define (no entities are expanded), a bare & or ]]>';
      this.at = lt;
      if (this.s.startsWith('</', lt)) {
        END_TAG.lastIndex = lt;
        const m = END_TAG.exec(this.s);
        if (!m || m[1] !== this.open[this.open.length - 1]) return `the element ${this.open[this.open.length - 1]} is not closed by its own end tag`;
        this.at = END_TAG.lastIndex;
        this.open.pop();
        this.scopes.pop();
      } else if (this.s.startsWith('<!--', lt)) {
        if (!this.comment()) return 'a comment is malformed';
      } else if (this.s.startsWith('<![CDATA[', lt)) {
        if (!this.cdata()) return 'a CDATA section is never closed';
      } else if (this.s.startsWith('<?', lt)) {
        const problem = this.pi();
        if (problem) return problem;
      } else if (this.s.startsWith('<!', lt)) {
        return 'a declaration is not allowed here (no DTD, no entities)';
      } else {
        const child = this.element();
        if (typeof child === 'string') return child;
      }
    }
    return null;
  }

  /** Whether the character data between `from` and `to` has only known references, and no `]]>` (read in place). */
  private text(from: number, to: number): boolean {
    if (this.next(']]>', from) + 3 <= to) return false;
    for (let amp = this.next('&', from); amp < to; amp = this.next('&', amp + 1)) {
      REFERENCE.lastIndex = amp;
      const m = REFERENCE.exec(this.s);
      if (!m || REFERENCE.lastIndex > to || (!m[1] && !this.characterReference(m))) return false;
    }
    return true;
  }

  /** where each needle next occurs at or after the position last asked for (Infinity: nowhere), so no search runs twice */
  private readonly found = new Map<string, number>();

  /** The first `needle` at or after `from`, or Infinity: a search from the last match onwards only, linear over the document. */
  private next(needle: string, from: number): number {
    const known = this.found.get(needle);
    if (known !== undefined && known >= from) return known;
    const at = this.s.indexOf(needle, from);
    const found = at < 0 ? Infinity : at;
    this.found.set(needle, found);
    return found;
  }

  /** Whether a character reference (`&#…;`, `&#x…;`) names a character XML allows. */
  private characterReference(m: RegExpExecArray): string | null {
    const code = m[2] ? Number(m[2]) : parseInt(m[3], 16);
    if (!(code <= 0x10ffff)) return null;
    const ch = String.fromCodePoint(code);
    return NOT_A_CHAR.test(ch) ? null : ch;
  }

  /** An attribute value with its references replaced, or null when one is not known. */
  private references(chunk: string): string | null {
    let amp = chunk.indexOf('&');
    if (amp < 0) return chunk;
    let out = '';
    let from = 0;
    while (amp >= 0) {
      REFERENCE.lastIndex = amp;
      const m = REFERENCE.exec(chunk);
      if (!m) return null;
      const ch = m[1] ? { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[m[1] as 'amp'] : this.characterReference(m);
      if (ch === null) return null;
      out += chunk.slice(from, amp) + ch;
      from = REFERENCE.lastIndex;
      amp = chunk.indexOf('&', from);
    }
    return out + chunk.slice(from);
  }

  /** Moves past `pattern` when it matches at `at`. */
  private skip(pattern: RegExp): boolean {
    pattern.lastIndex = this.at;
    if (!pattern.exec(this.s)) return false;
    this.at = pattern.lastIndex;
    return true;
  }
}
