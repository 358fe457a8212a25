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
    expect(filenameOf(undefined)).toBeNull();
    expect(filenameOf('attachment')).toBeNull();
    expect(filenameOf('attachment; filename="faktura.pdf"')).toBe('faktura.pdf');
    expect(filenameOf(`attachment; filename="x.pdf"; filename*=UTF-8''%C3%A6bler.pdf`)).toBe('æbler.pdf');
    expect(filenameOf(`attachment; filename*=UTF-8''..%2F..%2Fa%00b%1Fc%7F%C2%85.pdf`)).toBe('abc.pdf');
    expect(filenameOf('attachment; filename="C:\\\\x\\\\y.pdf"')).toBe('y.pdf');
    expect(filenameOf('attachment; filename="dir/"')).toBeNull();
    expect(filenameOf('attachment; filename=".."')).toBeNull();
    expect([...filenameOf(`attachment; filename*=UTF-8''${encodeURIComponent('😀'.repeat(300))}`)!]).toHaveLength(255);
  });

  it('names a file without a name bilag-<voucher_year>-<voucher_number>-<n>.<ext>', () => {
    expect(defaultNameAround(2026, 17, 'image/jpeg')).toEqual({ prefix: 'bilag-2026-17-', suffix: '.jpg' });
    expect(defaultNameAround(2025, 1, 'application/xml')).toEqual({ prefix: 'bilag-2025-1-', suffix: '.xml' });
  });
});
