import { plainHttpOrigin } from './plain-http-origin';

describe('plainHttpOrigin: the start-up warning about an http PUBLIC_ORIGIN', () => {
  it.each(['http://api.example.dk', 'http://10.0.0.5:3000', 'http://0.0.0.0:3000', 'http://[2001:db8::1]:3000'])('warns for %s', (origin) => {
    const warning = plainHttpOrigin(origin);
    expect(warning).toContain('PUBLIC_ORIGIN');
    expect(warning).toContain('https');
  });

  it.each(['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000', 'http://app.localhost', 'https://api.example.dk'])(
    'is quiet for %s',
    (origin) => {
      expect(plainHttpOrigin(origin)).toBeNull();
    },
  );
});
