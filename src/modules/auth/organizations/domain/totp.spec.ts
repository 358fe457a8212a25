import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { Secret, TOTP } from 'otpauth';
import { generateTotpSecret, totpCodeAt, totpUri, verifyTotp } from './totp';

/** Independent RFC 4226 HOTP (SHA-1, dynamic truncation), used to make codes for other steps. */
function referenceHotp(key: Uint8Array, counter: number, digits: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

const RFC_KEY = Buffer.from('12345678901234567890', 'ascii');
const RFC_SECRET_BASE32 = new Secret({ buffer: Uint8Array.from(RFC_KEY).buffer }).base32;

/** RFC 6238 Appendix B, SHA-1 rows: time (s), T as printed there (hex), 8-digit TOTP. */
const RFC_6238_SHA1: ReadonlyArray<[number, number, string]> = [
  [59, 0x0000000000000001, '94287082'],
  [1111111109, 0x00000000023523ec, '07081804'],
  [1111111111, 0x00000000023523ed, '14050471'],
  [1234567890, 0x000000000273ef07, '89005924'],
  [2000000000, 0x0000000003f940aa, '69279037'],
  [20000000000, 0x0000000027bc86aa, '65353130'],
];

const STEP_MS = 30_000;

describe('RFC 6238 Appendix B (SHA-1)', () => {
  it.each(RFC_6238_SHA1)('at %i s: the reference HOTP, otpauth with 8 digits, and our 6-digit code agree', (seconds, t, eight) => {
    expect(referenceHotp(RFC_KEY, t, 8)).toBe(eight);
    expect(TOTP.generate({ secret: Secret.fromBase32(RFC_SECRET_BASE32), algorithm: 'SHA1', digits: 8, period: 30, timestamp: seconds * 1000 })).toBe(eight);
    expect(totpCodeAt(RFC_SECRET_BASE32, seconds * 1000)).toBe(eight.slice(-6));
  });

  it.each(RFC_6238_SHA1)('at %i s: verifyTotp accepts the last six digits and returns T = %i', (seconds, t, eight) => {
    expect(verifyTotp(RFC_SECRET_BASE32, eight.slice(-6), seconds * 1000, null)).toEqual({ ok: true, step: t });
  });

  it.each(RFC_6238_SHA1)('at %i s: the 8-digit value itself is refused (six digits only)', (seconds, _t, eight) => {
    expect(verifyTotp(RFC_SECRET_BASE32, eight, seconds * 1000, null)).toEqual({ ok: false });
  });
});

describe('verifyTotp', () => {
  // Fixed clock and secret, so the codes of neighbouring steps are known to differ (asserted below).
  const nowMs = 1_700_000_012_345;
  const step = Math.floor(nowMs / STEP_MS);
  const codeOf = (s: number) => referenceHotp(RFC_KEY, s, 6);

  it('works on codes that differ across the steps used here', () => {
    const codes = [-3, -2, -1, 0, 1, 2, 3].map((d) => codeOf(step + d));
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('accepts the current step and one either side, returning the matched step', () => {
    for (const delta of [-1, 0, 1]) {
      expect(verifyTotp(RFC_SECRET_BASE32, codeOf(step + delta), nowMs, null)).toEqual({ ok: true, step: step + delta });
    }
  });

  it('refuses two or more steps away', () => {
    for (const delta of [-3, -2, 2, 3]) {
      expect([delta, verifyTotp(RFC_SECRET_BASE32, codeOf(step + delta), nowMs, null)]).toEqual([delta, { ok: false }]);
    }
  });

  it('judges the window at the edges of a step', () => {
    const start = step * STEP_MS;
    const end = start + STEP_MS - 1;
    for (const at of [start, end]) {
      expect(verifyTotp(RFC_SECRET_BASE32, codeOf(step - 1), at, null)).toEqual({ ok: true, step: step - 1 });
      expect(verifyTotp(RFC_SECRET_BASE32, codeOf(step + 1), at, null)).toEqual({ ok: true, step: step + 1 });
    }
    expect(verifyTotp(RFC_SECRET_BASE32, codeOf(step - 1), end + 1, null)).toEqual({ ok: false });
    expect(verifyTotp(RFC_SECRET_BASE32, codeOf(step + 1), start - 1 - STEP_MS, null)).toEqual({ ok: false });
  });

  it('refuses a replay: no code of the last accepted step or earlier (RFC 6238 §5.2)', () => {
    const first = verifyTotp(RFC_SECRET_BASE32, codeOf(step), nowMs, null);
    expect(first).toEqual({ ok: true, step });
    expect(verifyTotp(RFC_SECRET_BASE32, codeOf(step), nowMs, step)).toEqual({ ok: false });
    expect(verifyTotp(RFC_SECRET_BASE32, codeOf(step), nowMs + 10_000, step)).toEqual({ ok: false });
    expect(verifyTotp(RFC_SECRET_BASE32, codeOf(step - 1), nowMs, step)).toEqual({ ok: false });
    expect(verifyTotp(RFC_SECRET_BASE32, codeOf(step + 1), nowMs, step)).toEqual({ ok: true, step: step + 1 });
    expect(verifyTotp(RFC_SECRET_BASE32, codeOf(step), nowMs, step - 1)).toEqual({ ok: true, step });
    // a later accepted step (a code of step + 1 was used) closes the current step too
    expect(verifyTotp(RFC_SECRET_BASE32, codeOf(step), nowMs, step + 1)).toEqual({ ok: false });
  });

  it.each([
    ['a number', 123456],
    ['null', null],
    ['undefined', undefined],
    ['an array', ['123456']],
    ['five digits', '12345'],
    ['seven digits', '1234567'],
    ['a letter', '12345a'],
    ['a sign', '+12345'],
    ['full-width digits', '１２３４５６'],
    ['Arabic-Indic digits', '١٢٣٤٥٦'],
    ['an empty string', ''],
  ])('refuses %s', (_, code) => {
    expect(verifyTotp(RFC_SECRET_BASE32, code, nowMs, null)).toEqual({ ok: false });
  });

  it('refuses the right code with surrounding white space or as a number', () => {
    const code = codeOf(step);
    for (const variant of [` ${code}`, `${code} `, `${code}\n`, `${code.slice(0, 3)} ${code.slice(3)}`, Number(code)]) {
      expect(verifyTotp(RFC_SECRET_BASE32, variant, nowMs, null)).toEqual({ ok: false });
    }
  });

  it('does not look before step 0', () => {
    expect(verifyTotp(RFC_SECRET_BASE32, codeOf(0), 0, null)).toEqual({ ok: true, step: 0 });
    expect(verifyTotp(RFC_SECRET_BASE32, codeOf(1), 0, null)).toEqual({ ok: true, step: 1 });
    const wrong = codeOf(5);
    expect([codeOf(0), codeOf(1)]).not.toContain(wrong);
    expect(verifyTotp(RFC_SECRET_BASE32, wrong, 0, null)).toEqual({ ok: false });
  });

  it('accepts, for any secret and time, a neighbouring code at a step the reference confirms', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 20, maxLength: 20 }),
        fc.integer({ min: STEP_MS, max: 4_000_000_000_000 }),
        fc.constantFrom(-1, 0, 1),
        (bytes, at, delta) => {
          const key = Uint8Array.from(bytes);
          const secret = new Secret({ buffer: key.buffer }).base32;
          const target = Math.floor(at / STEP_MS) + delta;
          const code = referenceHotp(key, target, 6);
          const result = verifyTotp(secret, code, at, null);
          expect(result.ok).toBe(true);
          if (!result.ok) return;
          // equal unless the code also matched a later step of the window (then that one is recorded)
          expect(result.step).toBeGreaterThanOrEqual(target);
          expect(result.step - Math.floor(at / STEP_MS)).toBeLessThanOrEqual(1);
          expect(referenceHotp(key, result.step, 6)).toBe(code);
          expect(verifyTotp(secret, code, at, result.step)).toEqual({ ok: false });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('throws on a secret that is not base32 or is too short (a defect, not a wrong code)', () => {
    expect(() => verifyTotp('not base32!', '123456', Date.now(), null)).toThrow();
    expect(() => verifyTotp('', '123456', Date.now(), null)).toThrow(RangeError);
    expect(() => verifyTotp('GEZDGNBV', '123456', Date.now(), null)).toThrow(RangeError);
    expect(() => verifyTotp(RFC_SECRET_BASE32, '123456', NaN, null)).toThrow(RangeError);
  });
});

describe('generateTotpSecret', () => {
  it('is 20 random bytes in unpadded RFC 4648 base32', () => {
    const secrets = Array.from({ length: 200 }, () => generateTotpSecret());
    for (const secret of secrets) {
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(Secret.fromBase32(secret).bytes).toHaveLength(20);
    }
    expect(new Set(secrets).size).toBe(secrets.length);
  });

  it('round-trips through totpCodeAt and verifyTotp', () => {
    const secret = generateTotpSecret();
    const at = 1_800_000_000_000;
    const code = totpCodeAt(secret, at);
    expect(code).toBe(referenceHotp(Secret.fromBase32(secret).bytes, Math.floor(at / STEP_MS), 6));
    expect(verifyTotp(secret, code, at, null)).toEqual({ ok: true, step: Math.floor(at / STEP_MS) });
  });
});

describe('totpUri (the enrolment link and QR code)', () => {
  it('names the service (SERVICE_NAME) as issuer and the email as account, in the Key Uri Format', () => {
    expect(totpUri('Regnskab Partner', 'a@b.dk', 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP')).toBe(
      'otpauth://totp/Regnskab%20Partner:a%40b.dk?issuer=Regnskab%20Partner&secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30',
    );
  });
});
