import { lookup } from 'node:dns/promises';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/**
 * Resolves a host name to every address it has. Injected (like the Clock) so that tests can make a name
 * resolve to a private address without asking DNS or sending anything off the machine.
 */
export abstract class HostResolver {
  abstract resolve(hostname: string): Promise<ResolvedAddress[]>;
}

/** The system resolver: `dns.lookup(name, { all: true })`, as connections themselves resolve. */
export class SystemHostResolver extends HostResolver {
  resolve(hostname: string): Promise<ResolvedAddress[]> {
    return lookup(hostname, { all: true });
  }
}
