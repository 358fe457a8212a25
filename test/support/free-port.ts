import { createServer } from 'node:net';
import { readFileSync } from 'node:fs';

/**
 * Ports for a service, a database cluster or a closed address that a test starts as its own process.
 *
 * Not from the kernel's ephemeral range: a port that `listen(0)` handed out and the test closed again is
 * free for anyone else's `listen(0)` until the service binds it, and supertest alone binds thousands of
 * ephemeral ports a minute across the workers. A CI run lost a start to that race (process.e2e-spec:
 * `listen EADDRINUSE 127.0.0.1:39761`). So the ports come from below the ephemeral range, which neither
 * `listen(0)` nor an outgoing connection ever takes, in a slice of its own for each jest worker, and
 * never the same port twice in a row within a worker; a port something already listens on is skipped.
 */
const RANGE_START = 20_000;
const SLICE = 500;
const SLICES = 24; // 20000–31999
const EPHEMERAL_LOW = ephemeralLow();
if (RANGE_START + SLICE * SLICES > EPHEMERAL_LOW) {
  throw new Error(`free-port: the test ports ${RANGE_START}–${RANGE_START + SLICE * SLICES - 1} overlap the kernel's ephemeral range (from ${EPHEMERAL_LOW})`);
}

const worker = Number(process.env.JEST_WORKER_ID ?? process.pid);
const sliceStart = RANGE_START + (worker % SLICES) * SLICE;
// a random start, so two runs at once on one machine, or the test files one worker runs in turn (each
// loads this module afresh), seldom begin on the same port
let next = Math.floor(Math.random() * SLICE);

/** A port of this worker's slice that nothing listens on now, not handed out by this module just before. */
export async function freePort(): Promise<number> {
  for (let tried = 0; tried < SLICE; tried++) {
    const port = sliceStart + (next++ % SLICE);
    if (await canListen(port)) return port;
  }
  throw new Error(`free-port: no free port in ${sliceStart}–${sliceStart + SLICE - 1}`);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function ephemeralLow(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  } catch {
    return 32_768; // not Linux: macOS and Windows start theirs at 49152
  }
}
