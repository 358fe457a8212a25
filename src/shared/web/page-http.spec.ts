import { cspSourceOf, pageCsp } from './page-http';

describe("the pages' CSP (CONTRACT §11)", () => {
  it('allows forms to post to this origin only, plus the given redirect targets', () => {
    expect(pageCsp()).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
    expect(pageCsp(['https://app.example', 'com.example.app:'])).toContain("form-action 'self' https://app.example com.example.app:;");
  });

  it('takes the origin of a redirect URI, or the scheme of an app-specific one; nothing of path, query or credentials', () => {
    expect(cspSourceOf('https://app.example:8443/cb?x=1#f')).toBe('https://app.example:8443');
    expect(cspSourceOf('http://127.0.0.1:8765/callback')).toBe('http://127.0.0.1:8765');
    expect(cspSourceOf('https://user:pw@app.example/cb')).toBe('https://app.example');
    expect(cspSourceOf('com.example.app:/oauth')).toBe('com.example.app:');
    expect(cspSourceOf('not a uri')).toBeNull();
  });
});
