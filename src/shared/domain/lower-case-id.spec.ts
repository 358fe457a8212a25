import { lowerCaseId } from './lower-case-id';

describe('lowerCaseId', () => {
  it('lower-cases an id with upper-case letters', () => {
    expect(lowerCaseId('9F2C4E1A-0B7D-4C3E-8A5F-1D2E3F4A5B6C')).toBe('9f2c4e1a-0b7d-4c3e-8a5f-1d2e3f4a5b6c');
    expect(lowerCaseId('abC')).toBe('abc');
  });

  it('returns an id already in lower case as it is', () => {
    expect(lowerCaseId('9f2c4e1a-0b7d-4c3e-8a5f-1d2e3f4a5b6c')).toBe('9f2c4e1a-0b7d-4c3e-8a5f-1d2e3f4a5b6c');
    expect(lowerCaseId('')).toBe('');
  });
});
