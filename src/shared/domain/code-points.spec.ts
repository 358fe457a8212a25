import fc from 'fast-check';
import { codePointLength } from './code-points';

describe('codePointLength', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    ['😀', 1],
    ['a😀b', 3],
    ['æøå', 3],
    ['\ud83d', 1], // lone high surrogate
    ['\ude00', 1], // lone low surrogate
    ['\ude00\ud83d', 2], // low before high is not a pair
    ['\ud83d\ud83d\ude00', 2], // lone high, then a pair
    ['👍🏽', 2], // emoji + skin-tone modifier: two code points, one grapheme
  ])('%j has %i code points', (s, expected) => {
    expect(codePointLength(s)).toBe(expected);
  });

  it('equals the string iterator count on arbitrary UTF-16, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => {
        expect(codePointLength(s)).toBe([...s].length);
      }),
      { numRuns: 2_000 },
    );
  });

  it('equals the string iterator count on strings built from raw UTF-16 units', () => {
    const unit = fc.oneof(
      fc.integer({ min: 0xd800, max: 0xdfff }), // surrogates, in any order
      fc.integer({ min: 0, max: 0xffff }),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 100 }), (units) => {
        const s = String.fromCharCode(...units);
        expect(codePointLength(s)).toBe([...s].length);
      }),
      { numRuns: 2_000 },
    );
  });
});
