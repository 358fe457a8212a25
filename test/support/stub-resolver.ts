import { isIP } from 'node:net';
import { HostResolver, type ResolvedAddress } from '../../src/shared/domain/host-resolver';

/**
 * Names resolve only as this table says (nothing is asked of DNS; nothing is sent to these addresses). The
 * table may be changed during a test (a name that resolves elsewhere later, as DNS rebinding does).
 */
export class StubResolver extends HostResolver {
  constructor(readonly table: Record<string, string[]>) {
    super();
  }

  async resolve(hostname: string): Promise<ResolvedAddress[]> {
    const addresses = this.table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: isIP(address) }));
  }
}
