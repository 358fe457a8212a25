import { attachmentMediaTypeOf, defaultNameAround, filenameOf, startsAs } from './attachment';

describe('attachment rules (CONTRACT §17)', () => {
  it('knows the four media types, parameters and case aside, and nothing else', () => {
    expect(attachmentMediaTypeOf('Application/PDF; name=x')).toBe('application/pdf');
    expect(attachmentMediaTypeOf('image/jpeg')).toBe('image/jpeg');
    for (const other of [undefined, '', 'text/xml', 'image/jpg', 'application/pdfx', 'toString', '__proto__']) {
      expect({ other, type: attachmentMediaTypeOf(other) }).toEqual({ other, type: null });
    }
  });

  it('checks the first bytes against the declared type', () => {
    const bytes = (...b: number[]) => Buffer.from(b);
    expect(startsAs('application/pdf', Buffer.from('%PDF-1.4'))).toBe(true);
    expect(startsAs('application/pdf', Buffer.from('%PDF'))).toBe(false);
    expect(startsAs('image/png', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe(true);
    expect(startsAs('image/png', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a))).toBe(false);
    expect(startsAs('image/jpeg', bytes(0xff, 0xd8, 0xff, 0xdb))).toBe(true);
    expect(startsAs('image/jpeg', bytes(0xff, 0xd8, 0xfe))).toBe(false);
    expect(startsAs('application/xml', Buffer.from('<Invoice/>'))).toBe(true);
    expect(startsAs('application/xml', Buffer.from(' \t\r\n<?xml version="1.0"?>'))).toBe(true);
    expect(startsAs('application/xml', Buffer.concat([bytes(0xef, 0xbb, 0xbf), Buffer.from('\n<a/>')]))).toBe(true);
    expect(startsAs('application/xml', Buffer.concat([bytes(0xff, 0xfe), Buffer.from(' <a/>', 'utf16le')]))).toBe(true);
    expect(startsAs('application/xml', Buffer.concat([bytes(0xfe, 0xff), Buffer.from(' <', 'utf16le').swap16()]))).toBe(true);
    expect(startsAs('application/xml', Buffer.from('  x<a/>'))).toBe(false);
    expect(startsAs('application/xml', Buffer.from('   '))).toBe(false);
  });

  it('keeps a given name without any path, control characters removed, at most 255 characters', () => {
    const pdf = (header: string | undefined) => filenameOf(header, 'application/pdf');
    expect(pdf(undefined)).toBeNull();
    expect(pdf('attachment')).toBeNull();
    expect(pdf('attachment; filename="faktura.pdf"')).toBe('faktura.pdf');
    expect(pdf(`attachment; filename="x.pdf"; filename*=UTF-8''%C3%A6bler.pdf`)).toBe('æbler.pdf');
    expect(pdf(`attachment; filename*=UTF-8''..%2F..%2Fa%00b%1Fc%7F%C2%85.pdf`)).toBe('abc.pdf');
    expect(pdf('attachment; filename="C:\\\\x\\\\y.pdf"')).toBe('y.pdf');
    expect(pdf('attachment; filename="dir/"')).toBeNull();
    expect(pdf('attachment; filename=".."')).toBeNull();
    expect([...pdf(`attachment; filename*=UTF-8''${encodeURIComponent('😀'.repeat(300))}`)!]).toHaveLength(255);
  });

  it("CONTRACT §20: no bidirectional controls, always the type's extension, a raw UTF-8 filename read as UTF-8", () => {
    expect(filenameOf('attachment; filename="faktura.hta"', 'application/pdf')).toBe('faktura.pdf');
    expect(filenameOf(`attachment; filename*=UTF-8''${encodeURIComponent('faktura-1042\u202Efdp.hta')}`, 'application/pdf')).toBe('faktura-1042fdp.pdf');
    const bidi = '\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069';
    expect(filenameOf(`attachment; filename*=UTF-8''${encodeURIComponent(`a${bidi}b.png`)}`, 'image/png')).toBe('ab.png');
    expect(filenameOf('attachment; filename="scan.JPEG"', 'image/jpeg')).toBe('scan.jpg');
    expect(filenameOf('attachment; filename="faktura"', 'application/xml')).toBe('faktura.xml');
    expect(filenameOf('attachment; filename="faktura.pdf. . "', 'application/pdf')).toBe('faktura.pdf');
    expect(filenameOf('attachment; filename=".hta"', 'application/pdf')).toBeNull();
    // Node hands header bytes over one character per byte: UTF-8 bytes are read as UTF-8, other bytes stay ISO-8859-1
    expect(filenameOf(`attachment; filename="${Buffer.from('æøå.pdf', 'utf8').toString('latin1')}"`, 'application/pdf')).toBe('æøå.pdf');
    expect(filenameOf(`attachment; filename="${Buffer.from('æøå.pdf', 'latin1').toString('latin1')}"`, 'application/pdf')).toBe('æøå.pdf');
    expect([...filenameOf(`attachment; filename="${'å'.repeat(300)}.hta"`, 'application/pdf')!].slice(-5).join('')).toBe('å.pdf');
  });

  it('names a file without a name bilag-<voucher_year>-<voucher_number>-<n>.<ext>', () => {
    expect(defaultNameAround(2026, 17, 'image/jpeg')).toEqual({ prefix: 'bilag-2026-17-', suffix: '.jpg' });
    expect(defaultNameAround(2025, 1, 'application/xml')).toEqual({ prefix: 'bilag-2025-1-', suffix: '.xml' });
  });
});
