import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Issue 34: the files whose shell blocks run, in this order, in the one-shell README test
 * (test/e2e/readme.e2e-spec.ts): the README's sandbox flow, then the operator's provisioning (the
 * production organization, owner and app the partner guide's consent flow continues with), then the
 * partner guide.
 */
export const RUNNABLE_DOCS = ['README.md', 'docs/operator-guide.md', 'docs/partner-guide.md'] as const;

/** A fenced code block of a markdown file. */
export interface DocBlock {
  file: string;
  /** 1-based line of the opening fence */
  line: number;
  lang: string;
  code: string;
  /** the reason of a `<!-- not run: … -->` line right above the fence; null when the block runs */
  notRun: string | null;
  /** the `## ` heading the block stands under ('' before the first) */
  section: string;
}

/**
 * Issue 45: the partner guide's numbered path to production, whose blocks have variables of their own
 * (`DEV_…`): the README test runs them in a fresh shell, not in the one the other blocks share.
 */
export const PATH_SECTION = { file: 'docs/partner-guide.md', heading: 'Your way to production: from a clone to a production call' } as const;
export const isPathBlock = (b: DocBlock) => b.file === PATH_SECTION.file && b.section === PATH_SECTION.heading;

/** The marker of a shell block that the one-shell test does not run: `<!-- not run: <why> -->`. */
const NOT_RUN = /^<!-- not run:(.*)-->\s*$/;

/** Every fenced block of `markdown` (fences at the start of a line, ``` or ~~~ not nested), in order. */
export function fencedBlocks(file: string, markdown: string): DocBlock[] {
  const lines = markdown.split(/\r?\n/);
  const blocks: DocBlock[] = [];
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const heading = /^## (.*)$/.exec(lines[i]);
    if (heading) section = heading[1].trim();
    const open = /^(`{3,}|~{3,})\s*([\w-]*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const fence = open[1];
    let end = i + 1;
    while (end < lines.length && !(lines[end].startsWith(fence) && lines[end].trim() === fence)) end++;
    if (end >= lines.length) throw new Error(`${file}:${i + 1}: a code fence that is never closed`);
    const marker = i > 0 ? NOT_RUN.exec(lines[i - 1]) : null;
    blocks.push({ file, line: i + 1, lang: open[2], code: `${lines.slice(i + 1, end).join('\n')}\n`, notRun: marker ? marker[1].trim() : null, section });
    i = end;
  }
  return blocks;
}

export const isShell = (b: DocBlock) => b.lang === 'sh' || b.lang === 'bash';

/** The shell blocks of the runnable docs, in the order the one-shell test runs them. */
export function shellBlocks(root: string): DocBlock[] {
  return RUNNABLE_DOCS.flatMap((file) => fencedBlocks(file, readFileSync(join(root, file), 'utf8')).filter(isShell));
}
