import fc from 'fast-check';
import { accessTokenChecksum, environmentOfPrefix, generateAccessToken, hashAccessToken, parseAccessToken } from './access-token';
import type { Environment } from '../../../../shared/domain/caller-context';

/** Independent CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), bit by bit, no table. */
function referenceCrc32(ascii: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < ascii.length; i++) {
    crc ^= ascii.charCodeAt(i);
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** Independent base62, by place values and character-code arithmetic rather than an alphabet string. */
function referenceBase62Fixed6(value: number): string {
  let rest = value;
  let out = '';
  for (let place = 5; place >= 0; place--) {
    const weight = 62 ** place;
    const digit = Math.floor(rest / weight);
    rest -= digit * weight;
    out += String.fromCharCode(digit < 10 ? 48 + digit : digit < 36 ? 65 + digit - 10 : 97 + digit - 36);
  }
  if (rest !== 0) throw new Error('value does not fit in six base62 digits');
  return out;
}

const referenceChecksum = (randomPart: string): string => referenceBase62Fixed6(referenceCrc32(randomPart));

const BASE62_CHARS = [
  ...Array.from({ length: 10 }, (_, i) => String.fromCharCode(48 + i)),
  ...Array.from({ length: 26 }, (_, i) => String.fromCharCode(65 + i)),
  ...Array.from({ length: 26 }, (_, i) => String.fromCharCode(97 + i)),
];
const base62String = (length: number) => fc.array(fc.constantFrom(...BASE62_CHARS), { minLength: length, maxLength: length }).map((chars) => chars.join(''));

const PREFIX: Record<Environment, string> = { sandbox: 'hsk_', production: 'hat_' };

/** A token with a correct checksum for a chosen random part, built only with the reference code. */
function aToken(env: Environment, randomPart: string): string {
  return PREFIX[env] + randomPart + referenceChecksum(randomPart);
}

describe('the reference implementations used by these tests', () => {
  it('CRC-32 of ASCII "123456789" is the published check value 0xCBF43926', () => {
    expect(referenceCrc32('123456789')).toBe(0xcbf43926);
  });

  it('base62 of 3421780262 is 3jZRME', () => {
    expect(referenceBase62Fixed6(3421780262)).toBe('3jZRME');
  });
});

describe('accessTokenChecksum', () => {
  it('writes the known vector CRC-32("123456789") = 0xCBF43926 as "3jZRME"', () => {
    // 0xCBF43926 = 3421780262. Worked by hand, dividing by 62 and keeping remainders:
    //   3421780262 = 62 · 55190004 + 14
    //     55190004 = 62 ·   890161 + 22
    //       890161 = 62 ·    14357 + 27
    //        14357 = 62 ·      231 + 35
    //          231 = 62 ·        3 + 45
    //            3 = 62 ·        0 +  3
    // digits, most significant first: 3, 45, 35, 27, 22, 14
    //   → '3', 'j' (36 = a … 45 = j), 'Z' (10 = A … 35 = Z), 'R' (27), 'M' (22), 'E' (14)
    expect(accessTokenChecksum('123456789')).toBe('3jZRME');
  });

  it('left-pads with 0: the CRC-32 of no bytes is 0', () => {
    expect(accessTokenChecksum('')).toBe('000000');
  });

  it('agrees with the bitwise CRC-32 and the place-value base62 on arbitrary random parts', () => {
    fc.assert(
      fc.property(base62String(40), (randomPart) => {
        expect(accessTokenChecksum(randomPart)).toBe(referenceChecksum(randomPart));
      }),
      { numRuns: 2_000 },
    );
  });

  it('agrees with the reference on any ASCII, short or long', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii', maxLength: 100 }), (s) => {
        expect(accessTokenChecksum(s)).toBe(referenceChecksum(s));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('generateAccessToken', () => {
  it.each<[Environment, string]>([
    ['sandbox', 'hsk_'],
    ['production', 'hat_'],
  ])('a %s token is %s + 40 base62 + a checksum the reference recomputes', (env, prefix) => {
    for (let i = 0; i < 200; i++) {
      const token = generateAccessToken(env);
      expect(token).toMatch(/^(hsk|hat)_[0-9A-Za-z]{46}$/);
      expect(token.slice(0, 4)).toBe(prefix);
      const randomPart = token.slice(4, 44);
      expect(token.slice(44)).toBe(referenceChecksum(randomPart));
      expect(parseAccessToken(token)).toEqual({ ok: true, environment: env });
      expect(environmentOfPrefix(token)).toBe(env);
    }
  });

  it('does not repeat itself', () => {
    const tokens = new Set(Array.from({ length: 2_000 }, () => generateAccessToken('production')));
    expect(tokens.size).toBe(2_000);
  });

  it('draws every base62 character with the same frequency (no modulo bias)', () => {
    const counts = new Map<string, number>(BASE62_CHARS.map((c) => [c, 0]));
    const tokens = 20_000;
    for (let i = 0; i < tokens; i++) {
      const randomPart = generateAccessToken('sandbox').slice(4, 44);
      for (const c of randomPart) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    expect(counts.size).toBe(62);
    const expected = (tokens * 40) / 62; // ≈ 12903; σ ≈ 112
    // `byte % 62` would give '0'…'7' 5/256 each against 4/256 for the rest: ≈ +25 %.
    for (const [, n] of counts) {
      expect(n).toBeGreaterThan(expected * 0.94);
      expect(n).toBeLessThan(expected * 1.06);
    }
  });
});

describe('parseAccessToken', () => {
  it('refuses every single-character change of the random part or the checksum', () => {
    for (const env of ['sandbox', 'production'] as const) {
      const token = generateAccessToken(env);
      for (let i = 4; i < token.length; i++) {
        for (const c of BASE62_CHARS) {
          if (c === token[i]) continue;
          const changed = token.slice(0, i) + c + token.slice(i + 1);
          expect([i, c, parseAccessToken(changed)]).toEqual([i, c, { ok: false, reason: 'malformed' }]);
        }
      }
    }
  });

  it('accepts a token built by the reference checksum, and its environment follows the prefix only', () => {
    fc.assert(
      fc.property(base62String(40), fc.constantFrom<Environment>('sandbox', 'production'), (randomPart, env) => {
        expect(parseAccessToken(aToken(env, randomPart))).toEqual({ ok: true, environment: env });
      }),
    );
  });

  it('accepts a body exactly when its checksum is the reference checksum', () => {
    fc.assert(
      fc.property(base62String(40), base62String(6), (randomPart, checksum) => {
        const expected = checksum === referenceChecksum(randomPart);
        expect(parseAccessToken(`hat_${randomPart}${checksum}`).ok).toBe(expected);
      }),
    );
  });

  it('judges the checksum without the prefix, so a swapped prefix is the other environment', () => {
    const token = generateAccessToken('sandbox');
    const swapped = 'hat_' + token.slice(4);
    expect(environmentOfPrefix(swapped)).toBe('production');
    expect(parseAccessToken(swapped)).toEqual({ ok: true, environment: 'production' });
  });

  it.each([
    ['an empty string', () => ''],
    ['only the prefix', () => 'hsk_'],
    ['one character short', (t: string) => t.slice(0, -1)],
    ['one character long', (t: string) => t + '0'],
    ['a trailing space', (t: string) => t + ' '],
    ['a leading space', (t: string) => ' ' + t],
    ['an upper-case prefix', (t: string) => t.slice(0, 4).toUpperCase() + t.slice(4)],
    ['an unknown prefix', (t: string) => 'hsx_' + t.slice(4)],
    ['no prefix', (t: string) => t.slice(4)],
    ['a dash in the body', (t: string) => t.slice(0, 10) + '-' + t.slice(11)],
    ['an underscore in the body', (t: string) => t.slice(0, 10) + '_' + t.slice(11)],
    ['a non-ASCII letter', (t: string) => t.slice(0, 10) + 'é' + t.slice(11)],
    ['a full-width digit', (t: string) => t.slice(0, 10) + '５' + t.slice(11)],
    ['an emoji', (t: string) => t.slice(0, 10) + '😀' + t.slice(12)],
  ])('refuses %s as malformed', (_, mutate) => {
    const token = generateAccessToken('sandbox');
    expect(parseAccessToken(mutate(token))).toEqual({ ok: false, reason: 'malformed' });
  });

  it('refuses arbitrary strings after a known prefix unless they happen to carry the reference checksum', () => {
    fc.assert(
      fc.property(fc.constantFrom('hsk_', 'hat_'), fc.string({ unit: 'binary', maxLength: 60 }), (prefix, rest) => {
        const raw = prefix + rest;
        const valid = /^[0-9A-Za-z]{46}$/.test(rest) && rest.slice(40) === referenceChecksum(rest.slice(0, 40));
        expect(parseAccessToken(raw).ok).toBe(valid);
      }),
    );
  });
});

describe('environmentOfPrefix', () => {
  it.each([
    ['hsk_', 'sandbox'],
    ['hsk_anything-at-all', 'sandbox'],
    ['hat_', 'production'],
    ['hat_x', 'production'],
    ['hsk', null],
    ['HSK_abc', null],
    ['Bearer hsk_abc', null],
    ['', null],
    ['hrk_abc', null],
  ])('%j → %p', (raw, expected) => {
    expect(environmentOfPrefix(raw)).toBe(expected);
  });
});

describe('hashAccessToken', () => {
  it('is SHA-256 in lower-case hex (FIPS 180-2 vector for "abc")', () => {
    expect(hashAccessToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('is stable for a token and differs between tokens', () => {
    const a = generateAccessToken('production');
    const b = generateAccessToken('production');
    expect(hashAccessToken(a)).toBe(hashAccessToken(a));
    expect(hashAccessToken(a)).not.toBe(hashAccessToken(b));
    expect(hashAccessToken(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashAccessToken(a)).not.toContain(a.slice(4, 44));
  });
});
