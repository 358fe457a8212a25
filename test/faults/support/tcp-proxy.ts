import { createServer, type Server, Socket } from 'node:net';

/**
 * A loopback TCP proxy between one instance and PostgreSQL. `stall()` stops forwarding in both
 * directions without closing anything — what a hung network path looks like — and `resume()` lets the
 * buffered bytes through.
 */
export class StallingProxy {
  private server: Server | null = null;
  private stalled = false;
  private readonly pairs = new Set<[Socket, Socket]>();

  constructor(private readonly targetPort: number) {}

  async listen(port: number): Promise<void> {
    this.server = createServer((client) => {
      const upstream = new Socket();
      const pair: [Socket, Socket] = [client, upstream];
      this.pairs.add(pair);
      const end = () => {
        this.pairs.delete(pair);
        client.destroy();
        upstream.destroy();
      };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
      upstream.connect(this.targetPort, '127.0.0.1');
      client.pipe(upstream);
      upstream.pipe(client);
      if (this.stalled) {
        client.pause();
        upstream.pause();
      }
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
  }

  stall(): void {
    this.stalled = true;
    for (const [a, b] of this.pairs) {
      a.unpipe(b);
      b.unpipe(a);
      a.pause();
      b.pause();
    }
  }

  resume(): void {
    this.stalled = false;
    for (const [a, b] of this.pairs) {
      a.pipe(b);
      b.pipe(a);
      a.resume();
      b.resume();
    }
  }

  async close(): Promise<void> {
    for (const [a, b] of this.pairs) {
      a.destroy();
      b.destroy();
    }
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
