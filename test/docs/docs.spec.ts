import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fencedBlocks, isPathBlock, RUNNABLE_DOCS, shellBlocks } from '../support/doc-blocks';

/**
 * Issue 34: the README and the guides a newcomer follows. Fast checks without a service: every relative
 * link of README.md, docs/*.md and the client's README resolves (file, and heading anchor where one is
 * named); no shell block of the runnable docs names the service's port or pastes a token (they use the
 * variables the first start writes to .data/sandbox.env); the blocks the one-shell test skips are few and
 * each says why. The one-shell run itself: test/e2e/readme.e2e-spec.ts.
 */
const ROOT = join(__dirname, '..', '..');
const docs = [
  'README.md',
  'clients/typescript/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function anchorsOf(markdown: string): Set<string> {
  const withoutCode = markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\s*$/gm, '');
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, text] of withoutCode.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** The targets of the markdown links of `markdown`, outside code blocks and code spans. */
export function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\s*$/gm, '').replace(/(`+)[^`\n]*?\1/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
}

describe('the docs', () => {
  it.each(docs)('%s: every relative link resolves, to its heading where it names one', (file) => {
    const broken: string[] = [];
    for (const target of linkTargets(readFileSync(join(ROOT, file), 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
      const [path, anchor] = target.split('#');
      const resolved = path === '' ? join(ROOT, file) : join(ROOT, dirname(file), decodeURIComponent(path));
      if (!existsSync(resolved)) {
        broken.push(`${target} (no ${relative(ROOT, resolved)})`);
        continue;
      }
      if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(readFileSync(resolved, 'utf8')).has(anchor)) {
        broken.push(`${target} (no heading #${anchor} in ${relative(ROOT, resolved)})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("knows GitHub's anchors and finds links outside code", () => {
    expect([...anchorsOf('# A (b 2.0) `c`: d\n## A (b 2.0) `c`: d\n```sh\n# not a heading\n```\n')]).toEqual(['a-b-20-c-d', 'a-b-20-c-d-1']);
    expect(linkTargets('see [x](a.md#b) and `[y](not-a-link)`\n```\n[z](nor-this)\n```\n')).toEqual(['a.md#b']);
  });

  const blocks = shellBlocks(ROOT);

  it('runs most shell blocks of the README and the guides; the few it skips say why', () => {
    const skipped = blocks.filter((b) => b.notRun !== null);
    expect(blocks.length - skipped.length).toBeGreaterThanOrEqual(15);
    expect(skipped.length).toBeLessThanOrEqual(8);
    for (const b of skipped)
      expect(`${b.file}:${b.line} ${b.notRun!.length >= 10 ? 'has a reason' : 'gives no reason'}`).toBe(`${b.file}:${b.line} has a reason`);
    // a marker above anything but a shell block (or a misspelt one) would silently run or skip nothing
    for (const file of RUNNABLE_DOCS) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const markers = text.match(/^<!-- *not[ -]run/gim)?.length ?? 0;
      expect(`${file}: ${markers} markers`).toBe(`${file}: ${blocks.filter((b) => b.file === file && b.notRun !== null).length} markers`);
    }
  });

  it("no shell block names the service's port or pastes a token: they use the variables the start writes", () => {
    const faults: string[] = [];
    for (const b of blocks) {
      b.code.split('\n').forEach((line, i) => {
        const code = line.replace(/(^|\s)#.*$/, ''); // comments show answers, e.g. a base_url
        if (/\b(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]):(?:3000|3001)\b|localhost:\d+|:-300[01]\b/.test(code))
          faults.push(`${b.file}:${b.line + 1 + i} a literal port: ${line.trim()}`);
        if (/\b(?:hsk|hat|hcs)_[0-9A-Za-z]{8,}|whsec_[0-9A-Za-z+/]{8,}/.test(code)) faults.push(`${b.file}:${b.line + 1 + i} a pasted secret: ${line.trim()}`);
      });
    }
    expect(faults).toEqual([]);
  });

  /**
   * A CI run's README test stopped in the path's consent block with `node: bad option: -M1UI…`: the PKCE verifier,
   * 32 random bytes in base64url, began with '-' (1 run in 64), and `node -e '…' "$DEV_VERIFIER"` took it for an
   * option of node's. Every `node -e` of a shell block hands its arguments over after `--`.
   */
  it("passes the arguments of a block's `node -e` after `--`, so a value that begins with '-' is not an option", () => {
    const faults: string[] = [];
    for (const b of blocks) {
      for (const m of b.code.matchAll(/node -e '[^']*'[ \t]+(?!--[ \t])(?=["$\w-])/g)) {
        faults.push(`${b.file}:${b.line + 1 + b.code.slice(0, m.index).split('\n').length - 1}`);
      }
    }
    expect(faults).toEqual([]);
    // and the path's own PKCE line, run in bash with such a verifier, prints the S256 challenge of it
    const block = blocks.find((b) => isPathBlock(b) && b.code.includes('DEV_CHALLENGE='))!;
    const line = block.code.split('\n').find((l) => l.startsWith('DEV_CHALLENGE='))!;
    const verifier = '-M1UIYaxqRUJAFh7zISLgIWaSyRrZf6bYAlILMqeOfk';
    const out = execFileSync('bash', ['-c', `${line}\necho "$DEV_CHALLENGE"`], {
      encoding: 'utf8',
      env: { PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`, DEV_VERIFIER: verifier },
    });
    expect(out.trim()).toBe(createHash('sha256').update(verifier).digest('base64url'));
  });

  /**
   * Issue 45: the developer's way to production is one numbered path whose blocks need no value that
   * only the operator guide (or sandbox.env's sample project) defines: every variable a block reads is set
   * by an earlier block of the path — an assignment, or a `read` the developer answers from the page.
   */
  it("the partner guide's path to production runs blocks that read only variables the path itself sets", () => {
    const path = blocks.filter(isPathBlock);
    expect(path.filter((b) => b.notRun === null).length).toBeGreaterThanOrEqual(6);
    const set = new Set<string>();
    const faults: string[] = [];
    for (const b of path.filter((x) => x.notRun === null)) {
      // the service's own address, read from the file the start wrote, in a subshell that keeps nothing else
      const code = b.code.replace(/\$\(\. \.data\/sandbox\.env && echo "\$ORIGIN"\)/g, '');
      b.code.split('\n').forEach((line, i) => {
        for (const m of line
          .replace(/(^|\s)#.*$/, '')
          .replace(/\$\(\. \.data\/sandbox\.env && echo "\$ORIGIN"\)/g, '')
          .matchAll(/\$\{?([A-Z][A-Z0-9_]*)(?![a-z])/g)) {
          if (!set.has(m[1]) && !line.includes(`${m[1]}=`)) faults.push(`${b.file}:${b.line + 1 + i} reads $${m[1]}, which the path has not set`);
        }
        for (const m of line.matchAll(/\b([A-Z][A-Z0-9_]*)=/g)) set.add(m[1]);
        const read = /^read -r\w* (?:'[^']*' )?([A-Z][A-Z0-9_]*)$/.exec(line.trim());
        if (read) set.add(read[1]);
      });
      expect(code).not.toMatch(/sandbox\.env/);
    }
    expect(faults).toEqual([]);
    expect([...set].filter((v) => !v.startsWith('DEV_'))).toEqual([]);
  });

  it('finds the blocks of a file and their markers', () => {
    const md = 'text\n<!-- not run: starts the service -->\n```sh\nnpm start\n```\n```ts\nx\n```\n```bash\necho "$BASE"\n```\n';
    expect(fencedBlocks('x.md', md).map((b) => [b.line, b.lang, b.notRun, b.code])).toEqual([
      [3, 'sh', 'starts the service', 'npm start\n'],
      [6, 'ts', null, 'x\n'],
      [9, 'bash', null, 'echo "$BASE"\n'],
    ]);
  });
});
