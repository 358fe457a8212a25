import { ublDocumentProblem } from './ubl-xml';

const INVOICE_NS = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
const ok = (xml: string | Buffer) => ublDocumentProblem(Buffer.isBuffer(xml) ? xml : Buffer.from(xml, 'utf8'));

describe('UBL e-invoice documents (CONTRACT §20: well-formed, no DTD, no entities, a UBL root)', () => {
  it('accepts the three UBL roots in their namespaces, prefixed or default, with a declaration, comments, PIs, CDATA and references', () => {
    const accepted = [
      `<Invoice xmlns="${INVOICE_NS}"/>`,
      `<?xml version="1.0" encoding="UTF-8"?>\n<!-- OIOUBL --><?xml-stylesheet href="x.xsl"?>\n<Invoice xmlns="${INVOICE_NS}" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">` +
        `<cbc:ID>A&amp;B &#229;&#xE6; &lt;1&gt;</cbc:ID><cbc:Note><![CDATA[<b>&nope;</b>]]></cbc:Note><cbc:Note a="x &quot;y&quot;" cbc:b='1'/></Invoice>\n<!-- end -->\n`,
      `<ubl:CreditNote xmlns:ubl="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"></ubl:CreditNote>`,
      `<ApplicationResponse xmlns="urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2"><x xmlns="">æøå</x></ApplicationResponse>`,
      ` \r\n<?xml version='1.0' standalone='yes'?><Invoice xmlns="${INVOICE_NS}"/>`,
    ];
    for (const xml of accepted) expect({ xml, problem: ok(xml) }).toEqual({ xml, problem: null });
    expect(ok(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`<Invoice xmlns="${INVOICE_NS}"/>`)]))).toBeNull();
    expect(
      ok(
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`<?xml version="1.0" encoding="UTF-16"?><Invoice xmlns="${INVOICE_NS}">å</Invoice>`, 'utf16le')]),
      ),
    ).toBeNull();
    expect(ok(Buffer.from(`<?xml version="1.0" encoding="ISO-8859-1"?><Invoice xmlns="${INVOICE_NS}">\u00e6</Invoice>`, 'latin1'))).toBeNull();
  });

  it('refuses a DTD and any entity: internal, external, parameter, the billion laughs', () => {
    const refused = [
      `<!DOCTYPE Invoice><Invoice xmlns="${INVOICE_NS}"/>`,
      `<?xml version="1.0"?><!DOCTYPE Invoice [<!ENTITY x "y">]><Invoice xmlns="${INVOICE_NS}">&x;</Invoice>`,
      `<!DOCTYPE Invoice SYSTEM "file:///etc/passwd"><Invoice xmlns="${INVOICE_NS}"/>`,
      `<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><Invoice xmlns="${INVOICE_NS}">&lol2;</Invoice>`,
      `<Invoice xmlns="${INVOICE_NS}">&x;</Invoice>`,
      `<Invoice xmlns="${INVOICE_NS}" a="&x;"/>`,
      `<Invoice xmlns="${INVOICE_NS}"><!ENTITY x "y"></Invoice>`,
      `<Invoice xmlns="${INVOICE_NS}">&#0;</Invoice>`,
      `<Invoice xmlns="${INVOICE_NS}">&#x110000;</Invoice>`,
    ];
    for (const xml of refused) expect({ xml, refused: ok(xml) !== null }).toEqual({ xml, refused: true });
    expect(ok(`<!DOCTYPE Invoice><Invoice xmlns="${INVOICE_NS}"/>`)).toMatch(/document type declaration/);
  });

  it('refuses HTML, SVG, HTA and other roots, a UBL name in another namespace or none, and a namespace that is almost UBL', () => {
    const refused = [
      '<html><body><script>alert(1)</script></body></html>',
      '<!doctype html><html></html>',
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      '<HTA:APPLICATION ID="x"/><script>x</script>',
      '<Invoice/>',
      '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"/>',
      `<x:Invoice xmlns="${INVOICE_NS}" xmlns:x="urn:other"/>`,
      `<Invoice xmlns="${INVOICE_NS}x"/>`,
      `<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>`,
    ];
    for (const xml of refused) expect({ xml, refused: ok(xml) !== null }).toEqual({ xml, refused: true });
    expect(ok('<svg xmlns="http://www.w3.org/2000/svg"/>')).toMatch(/root element is not a UBL 2.1 Invoice, CreditNote or ApplicationResponse/);
  });

  it('refuses what is not well-formed', () => {
    const root = (inner: string, attrs = '') => `<Invoice xmlns="${INVOICE_NS}"${attrs}>${inner}</Invoice>`;
    const refused = [
      root('<a>'),
      root('<a></b>'),
      root('</a>'),
      root('a & b'),
      root('a ]]> b'),
      root('<a b="1" b="2"/>'),
      root('<a x:b="1" y:b="2" xmlns:x="urn:u" xmlns:y="urn:u"/>'),
      root('<p:a/>'),
      root('<a p:b="1"/>'),
      root('<a b="1"c="2"/>'),
      root('<a b=1/>'),
      root('<a b="<"/>'),
      root('<!-- a -- b -->'),
      root('<![CDATA[ never closed'),
      root('<?xml version="1.0"?>'),
      root('\u0001'),
      root('', ' xmlns:p=""'),
      `<Invoice xmlns="${INVOICE_NS}"/><Invoice xmlns="${INVOICE_NS}"/>`,
      `<Invoice xmlns="${INVOICE_NS}"/>text`,
      `<Invoice xmlns="${INVOICE_NS}">`,
      `<?xml version="1.0"?><?xml version="1.0"?><Invoice xmlns="${INVOICE_NS}"/>`,
      `<?xml version="2.0"?><Invoice xmlns="${INVOICE_NS}"/>`,
      '',
      '   ',
    ];
    for (const xml of refused) expect({ xml, refused: ok(xml) !== null }).toEqual({ xml, refused: true });
    // bytes that are not UTF-8, or not in the declared encoding, or an encoding nobody knows
    expect(ok(Buffer.concat([Buffer.from(`<Invoice xmlns="${INVOICE_NS}">`), Buffer.from([0xe6]), Buffer.from('</Invoice>')]))).not.toBeNull();
    expect(ok(`<?xml version="1.0" encoding="x-unknown"?><Invoice xmlns="${INVOICE_NS}"/>`)).not.toBeNull();
    expect(ok(Buffer.from(`<Invoice xmlns="${INVOICE_NS}"/>`, 'utf16le'))).not.toBeNull();
  });

  it('answers for pathological documents of 10 MB (no pattern that backtracks: a long unclosed comment once overflowed the stack)', () => {
    const root = `<Invoice xmlns="${INVOICE_NS}">`;
    expect(ok(`${root}<!--${'a'.repeat(1e7)}`)).toMatch(/comment/);
    expect(ok(`${root}<?p ${'a'.repeat(1e7)}`)).toMatch(/processing instruction/);
    expect(ok(`${root}<![CDATA[${'a'.repeat(1e7)}`)).toMatch(/CDATA/);
    expect(ok(`${root}<${'a'.repeat(1e7)}`)).not.toBeNull();
    expect(ok(`${root}<!--${'- '.repeat(4e6)}--></Invoice>`)).toBeNull();
    expect(ok(`${root}${'<a>'.repeat(1e5)}${'</a>'.repeat(1e5)}</Invoice>`)).toBeNull();
    expect(ok(`${root}<a ${Array.from({ length: 100_000 }, (_, i) => `a${i}="1"`).join(' ')}/></Invoice>`)).toBeNull();
    expect(ok(`${root}<${'\u{10000}'.repeat(1e6)}/></Invoice>`)).toBeNull();
  });

  it('reads a large document (8 MB of lines)', () => {
    const line = '<cac:InvoiceLine><cbc:ID>1</cbc:ID><cbc:Note>Varer &amp; ydelser</cbc:Note></cac:InvoiceLine>\n';
    const xml = `<Invoice xmlns="${INVOICE_NS}" xmlns:cac="urn:a" xmlns:cbc="urn:b">${line.repeat(Math.ceil(8e6 / line.length))}</Invoice>`;
    expect(ok(xml)).toBeNull();
  });
});
