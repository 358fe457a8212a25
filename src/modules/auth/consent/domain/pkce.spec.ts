import { isPkceValue, s256Challenge, verifyPkceS256 } from './pkce';

describe('PKCE S256 (RFC 7636)', () => {
  // RFC 7636 Appendix B
  const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

  it('derives the challenge of Appendix B', () => {
    expect(s256Challenge(VERIFIER)).toBe(CHALLENGE);
  });

  it('accepts the Appendix B verifier for its challenge', () => {
    expect(verifyPkceS256(VERIFIER, CHALLENGE)).toBe(true);
  });

  it('refuses another verifier, the challenge itself (plain), and malformed verifiers', () => {
    expect(verifyPkceS256(`${VERIFIER.slice(0, -1)}l`, CHALLENGE)).toBe(false);
    expect(verifyPkceS256(CHALLENGE, CHALLENGE)).toBe(false);
    expect(verifyPkceS256(undefined, CHALLENGE)).toBe(false);
    expect(verifyPkceS256(VERIFIER.slice(0, 42), s256Challenge(VERIFIER.slice(0, 42)))).toBe(false);
    expect(verifyPkceS256(`${VERIFIER}!`, s256Challenge(`${VERIFIER}!`))).toBe(false);
  });

  it('takes 43–128 unreserved characters as a verifier or challenge', () => {
    expect(isPkceValue('a'.repeat(43))).toBe(true);
    expect(isPkceValue('a'.repeat(128))).toBe(true);
    expect(isPkceValue('a'.repeat(42))).toBe(false);
    expect(isPkceValue('a'.repeat(129))).toBe(false);
    expect(isPkceValue(`${'a'.repeat(42)}~`)).toBe(true);
    expect(isPkceValue(`${'a'.repeat(42)}+`)).toBe(false);
  });
});
