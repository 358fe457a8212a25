import { readFileSync } from 'node:fs';
// Shared by the bench scripts that start the service themselves: wait until it is ready, provision a
// sandbox project through the console API, and hand back what a load generator needs.
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The base URL, request headers and first two account ids of a new sandbox project, once the service is ready (120 s). */
export async function readySandboxProject(port, consolePort, consoleKey, name = 'service') {
  for (let i = 0; !(await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => null))?.ok; i++) {
    if (i > 1200) throw new Error(`${name} not ready within 120 s`);
    await sleep(100);
  }
  const project = await (await fetch(`http://127.0.0.1:${consolePort}/console/v1/sandbox/projects`, {
    method: 'POST', headers: { authorization: `Bearer ${consoleKey}`, 'content-type': 'application/json' }, body: '{}' })).json();
  const base = `http://127.0.0.1:${port}/api/partner/sandbox/v1`;
  const headers = { authorization: `Bearer ${project.token}`, 'content-type': 'application/json' };
  const [a, b] = project.accounts.map((x) => x.id);
  return { base, headers, accounts: [a, b] };
}

/** The node flags and entry file of package.json's `start` script (`node [flags] FILE`), as `npm start` runs it. */
export function startScriptArgs(packageJson = 'package.json') {
  const words = JSON.parse(readFileSync(packageJson, 'utf8')).scripts.start.trim().split(/\s+/);
  if (words[0] !== 'node') throw new Error(`the start script is not \`node [flags] FILE\`: ${words.join(' ')}`);
  return words.slice(1);
}
