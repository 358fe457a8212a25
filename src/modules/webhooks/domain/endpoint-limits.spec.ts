import { EMBEDDED_STORE_NETWORKS, NO_NETWORKS, parseAllowedNetworks } from '../../../shared/domain/allowed-networks';
import { answerShown } from './endpoint-address';
import { endpointHost } from './endpoint-limits';

describe('endpointHost (the host the cap per host counts under)', () => {
  it.each([
    ['https://Hooks.Example.COM/a', 'hooks.example.com'],
    ['https://hooks.example.com./a?b=1', 'hooks.example.com'],
    ['http://127.0.0.1:8080/x', '127.0.0.1'],
    ['http://[::1]:9/x', '[::1]'],
    ['http://[0:0:0:0:0:0:0:1]/x', '[::1]'],
  ])('%s → %s', (url, host) => {
    expect(endpointHost(new URL(url))).toBe(host);
  });
});

describe('answerShown (issue 35: "Last code" only from an address allowed now)', () => {
  const table: Record<string, string[]> = { 'inside.test': ['10.1.2.3'], 'outside.test': ['93.184.216.34'], 'both.test': ['93.184.216.34', '192.168.1.1'] };
  const resolve = async (host: string) => {
    if (!table[host]) throw new Error('ENOTFOUND');
    return table[host].map((address) => ({ address }));
  };

  it('shows an answer from a network WEBHOOK_ALLOWED_NETWORKS lists, never one from link-local', async () => {
    const tens = parseAllowedNetworks('10.0.0.0/8');
    expect(await answerShown('http://10.0.0.1/x', '10.0.0.1', tens, resolve)).toBe(true);
    expect(await answerShown('http://inside.test/x', null, tens, resolve)).toBe(true);
    expect(await answerShown('http://10.0.0.1/x', '192.168.0.1', tens, resolve)).toBe(false);
    expect(await answerShown('http://localhost/x', null, parseAllowedNetworks(EMBEDDED_STORE_NETWORKS), resolve)).toBe(true);
    expect(await answerShown('http://localhost/x', null, tens, resolve)).toBe(false);
  });

  it.each([
    ['93.184.216.34', true],
    ['2606:4700::1111', true],
    ['127.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['169.254.169.254', false],
    ['fd00::1', false],
  ])('judges by the address that answered when it is known: %s → %s', async (address, shown) => {
    // the endpoint's name resolving elsewhere now does not matter: the answer came from `address`
    expect(await answerShown('http://outside.test/x', address, NO_NETWORKS, resolve)).toBe(shown);
    expect(await answerShown('http://inside.test/x', address, NO_NETWORKS, resolve)).toBe(shown);
  });

  it.each([
    ['http://outside.test/x', true],
    ['http://93.184.216.34/x', true],
    ['http://inside.test/x', false],
    ['http://both.test/x', false],
    ['http://nowhere.test/x', false],
    ['http://10.0.0.5/x', false],
    ['http://[::1]/x', false],
    ['http://localhost:9/x', false],
    ['not a url', false],
  ])('judges an answer recorded without its address by the endpoint now: %s → %s', async (url, shown) => {
    expect(await answerShown(url, null, NO_NETWORKS, resolve)).toBe(shown);
  });
});
