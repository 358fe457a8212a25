// What bench/instructions.mjs and bench/token-statement-instructions.mjs share: valgrind's callgrind, driven through
// vgdb. `work` is a folder of the caller's own, for valgrind's pipes, its log and the dumps.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** valgrind's arguments for node under callgrind (V8's code is written at run time: --smc-check). */
export const callgrindArgs = (work, extra = []) => [
  '--tool=callgrind',
  '--smc-check=all-non-file',
  ...extra,
  `--vgdb-prefix=${join(work, 'vgdb')}`,
  `--callgrind-out-file=${join(work, 'callgrind.out')}`,
  `--log-file=${join(work, 'valgrind.log')}`,
];

/**
 * A monitor command (`instrumentation on`, `zero`, `dump`) to the process `pid` under callgrind. valgrind names its
 * pipes after $USER and $HOST as that process saw them: `host` is its HOST (the service runs with HOST=127.0.0.1).
 */
export function vgdb(work, pid, command, host = process.env.HOST) {
  try {
    execFileSync('vgdb', [`--vgdb-prefix=${join(work, 'vgdb')}`, `--pid=${pid}`, ...command.split(' ')], {
      encoding: 'utf8',
      stdio: 'pipe',
      env: { ...process.env, HOST: host },
    });
  } catch (err) {
    throw new Error(`vgdb ${command} (pid ${pid}; ${readdirSync(work).join(', ')}): ${err.stderr || err.stdout || err.message}`);
  }
}

/** Counts the instructions of `run` (an async function) in the process `pid`: counters zeroed before, dumped and read after. */
export async function instructionsOf(work, pid, run, host) {
  vgdb(work, pid, 'zero', host);
  await run();
  const before = new Set(readdirSync(work));
  vgdb(work, pid, 'dump', host);
  const dumped = readdirSync(work).filter((f) => f.startsWith('callgrind.out') && !before.has(f));
  if (dumped.length !== 1) throw new Error(`expected one new dump, found ${dumped.join(', ') || 'none'}`);
  const line = /^(?:totals|summary): (\d+)/m.exec(readFileSync(join(work, dumped[0]), 'utf8'));
  if (!line) throw new Error(`no totals in ${dumped[0]}`);
  return Number(line[1]);
}
