import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUFFER_POOL_BYTES, useSmallBufferPool } from './buffer-pool';

/** Bytes of slab kept alive by `kept`: each distinct backing store once. */
function pinnedBy(kept: Buffer[]): number {
  let bytes = 0;
  for (const store of new Set(kept.map((b) => b.buffer))) bytes += store.byteLength;
  return bytes;
}

describe('the small-Buffer slab', () => {
  const nodeDefault = Buffer.poolSize;
  afterEach(() => {
    Buffer.poolSize = nodeDefault;
  });

  it('is 8 KiB once set, so that one small Buffer kept from a slab pins 8 KiB, not 64 KiB', () => {
    useSmallBufferPool();
    // 256-byte Buffers as the pg driver cuts them for its messages; one kept per 64 KiB allocated,
    // as a long-lived reference (a connection's last message, say) keeps one now and then
    const kept: Buffer[] = [];
    for (let i = 0; i < 200 * 256; i++) {
      const b = Buffer.allocUnsafe(256);
      if (i % 256 === 255) kept.push(b);
    }
    // on Node 24's 64 KiB slabs: 200 × 64 KiB = 12.5 MiB for 50 KiB of kept Buffers
    expect(pinnedBy(kept)).toBeLessThanOrEqual(200 * 8192);
    expect(Buffer.poolSize).toBe(8192);
  });

  it('is set by the first import of the service entry point, before any other module cuts a slab', () => {
    const main = readFileSync(join(__dirname, '..', '..', 'main.ts'), 'utf8');
    const firstImport = /^import .*$/m.exec(main)?.[0];
    expect(firstImport).toBe("import './shared/performance/small-buffer-pool';");
    expect(BUFFER_POOL_BYTES).toBe(8192);
  });
});
