// The links of the README and of docs/: every relative link must name a file of the repository
// (never one outside it, such as ../shared) and every #anchor a heading of its file, as GitHub
// renders them. Links inside code (fenced blocks, `inline`) are not links.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';

export interface Problem {
  file: string;
  link: string;
  why: string;
}

/** The text without fenced code blocks and inline code spans (their characters blanked). */
function withoutCode(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, (m) => m.replace(/[^\n]/g, ' ')).replace(/(`+)[^`\n][\s\S]*?\1/g, (m) => ' '.repeat(m.length));
}

/** The link targets of a markdown text: inline links and images, and reference definitions. */
export function linksOf(text: string): string[] {
  const t = withoutCode(text);
  const out: string[] = [];
  for (const m of t.matchAll(/!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push(m[1]!);
  for (const m of t.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)) out.push(m[1]!);
  return out;
}

/** GitHub's anchors of a markdown text's headings (lower case, punctuation dropped, spaces to -, repeats numbered). */
export function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const plain = text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const m of plain.matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
    const heading = m[1]!.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
    const base = heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) out.add(m[1]!);
  return out;
}

const isExternal = (link: string) => /^[a-z][a-z0-9+.-]*:/i.test(link);

/** The problems of the links of `file` (absolute path) inside the repository at `root`. */
export function checkFile(repo: string, file: string): Problem[] {
  const root = resolve(repo);
  const text = readFileSync(file, 'utf8');
  const problems: Problem[] = [];
  const name = relative(root, file);
  for (const link of linksOf(text)) {
    if (isExternal(link)) continue;
    const [rawPath = '', anchor] = link.split('#', 2) as [string, string | undefined];
    let path: string;
    try {
      path = decodeURIComponent(rawPath);
    } catch {
      problems.push({ file: name, link, why: 'not a valid URL' });
      continue;
    }
    const target = path === '' ? file : resolve(dirname(file), path);
    if (target !== root && !target.startsWith(root + sep)) {
      problems.push({ file: name, link, why: 'points outside the repository' });
      continue;
    }
    if (!existsSync(target)) {
      problems.push({ file: name, link, why: 'no such file' });
      continue;
    }
    if (anchor !== undefined) {
      if (!statSync(target).isFile() || !target.endsWith('.md')) {
        problems.push({ file: name, link, why: 'an anchor into a file that is not markdown' });
        continue;
      }
      if (!anchorsOf(readFileSync(target, 'utf8')).has(decodeURIComponent(anchor).toLowerCase()))
        problems.push({ file: name, link, why: `no heading #${anchor} in ${relative(root, target)}` });
    }
  }
  return problems;
}

/** The markdown files a text links to, resolved against `file`'s folder. */
export function linkedFiles(file: string): Set<string> {
  const out = new Set<string>();
  for (const link of linksOf(readFileSync(file, 'utf8'))) {
    if (isExternal(link)) continue;
    const path = link.split('#')[0]!;
    if (path) out.add(resolve(dirname(file), decodeURIComponent(path)));
  }
  return out;
}
