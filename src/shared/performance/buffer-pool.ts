// Performance trick 3 of docs/adr/0013 (gain, removal): changes the PROCESS-WIDE small-Buffer slab size.
// Held by buffer-pool.spec.ts (pinned bytes; main.ts imports small-buffer-pool.ts first).
import { Buffer } from 'node:buffer';

/**
 * The size of the slab that Node carves small Buffers from (Buffer.allocUnsafe, Buffer.from of a short
 * string, the pg driver's protocol messages): Node 20's 8 KiB rather than Node 24's 64 KiB.
 *
 * A slab lives as long as any Buffer cut from it. A Buffer that is still referenced when the young
 * generation is collected twice moves to the old generation, and with it its whole slab, until the next
 * full collection — which the slabs do not prompt, V8 counts them only as external memory, so on
 * 64 KiB slabs the process grew run after run (figures: ADR 0013, bench/RESULTS.md).
 */
export const BUFFER_POOL_BYTES = 8 * 1024;

export function useSmallBufferPool(): void {
  Buffer.poolSize = BUFFER_POOL_BYTES;
}
