import { redirectUriProblem } from './redirect-uri';

describe('redirect URI registration rules (CONTRACT §10)', () => {
  it.each([
    'https://app.example/cb',
    'https://app.example:8443/cb?tenant=1',
    'http://localhost/cb',
    'http://localhost:8080/cb',
    'http://127.0.0.1:8765/callback',
  ])('accepts %s', (uri) => {
    expect(redirectUriProblem(uri)).toBeNull();
  });

  it.each([
    ['http on another host', 'http://app.example/cb'],
    ['http on a host that only starts with localhost', 'http://localhost.evil.example/cb'],
    ['http on [::1]', 'http://[::1]/cb'],
    ['a fragment', 'https://app.example/cb#x'],
    ['an empty fragment', 'https://app.example/cb#'],
    ['a relative reference', '/cb'],
    ['another scheme', 'myapp://cb'],
    ['user information', 'https://user:pw@app.example/cb'],
    ['not a string', 42],
    ['an empty string', ''],
    ['over 2000 characters', `https://app.example/${'a'.repeat(2000)}`],
  ])('refuses %s', (_name, uri) => {
    expect(redirectUriProblem(uri)).not.toBeNull();
  });
});
