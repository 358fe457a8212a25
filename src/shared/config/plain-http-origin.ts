/**
 * The start-up warning for a PUBLIC_ORIGIN that is plain http on a host other than loopback (CONTRACT
 * §2, issue 27): behind TLS it gives cookies without `Secure` and a wrong OAuth issuer. Null when fine.
 */
export function plainHttpOrigin(publicOrigin: string): string | null {
  let url: URL;
  try {
    url = new URL(publicOrigin);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:') return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const loopback = host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '::1';
  return loopback
    ? null
    : `PUBLIC_ORIGIN ${url.origin} is plain http on a host that is not loopback: behind TLS set PUBLIC_ORIGIN to the https origin clients use, else session cookies go without Secure and the OAuth issuer is wrong`;
}
