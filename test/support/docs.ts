import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: every docs test reads and writes inside it only. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * A citation of a design file that does not ship: `SPEC §4.6`, `REFERENCE §13`, `DESIGN §5`, a bare `SPEC.md`, or a
 * section sign with no standard before it (`the §2.4 shape`). Public standards (`RFC 6238 §5.2`, `WebAuthn §6.1`) stay allowed.
 */
export const UNSHIPPED_CITATION = /\b(?:SPEC|DESIGN|REFERENCE)\b\s*(?:§|\.md\b)|(?<!\b(?:RFC\s*\d+|WebAuthn)\s*)§\s*\d/;

/** The Markdown a user of the packages reads: the README, docs/, the packages' and the examples' READMEs. */
export function shippedMarkdownFiles(): string[] {
  const inDir = (dir: string, keep: (name: string) => boolean) =>
    readdirSync(join(REPO_ROOT, dir), { withFileTypes: true })
      .filter((entry) => keep(entry.name))
      .map((entry) => join(dir, entry.name));
  const readmesOf = (dir: string) =>
    readdirSync(join(REPO_ROOT, dir), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(dir, entry.name, 'README.md'))
      .filter((file) => {
        try {
          readFileSync(join(REPO_ROOT, file));
          return true;
        } catch {
          return false;
        }
      });
  return ['README.md', ...inDir('docs', (name) => name.endsWith('.md')), ...readmesOf('packages'), ...readmesOf('examples')];
}

/** The Markdown whose ts snippets are type-checked: the README, docs/ and the packages' READMEs. */
export function snippetMarkdownFiles(): string[] {
  return shippedMarkdownFiles().filter((file) => !file.startsWith('examples'));
}

/** Each line of `text` that matches `pattern`, as `file:line: text`. */
export function linesMatching(file: string, text: string, pattern: RegExp): string[] {
  return text
    .split('\n')
    .flatMap((line, index) => (pattern.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : []));
}

/** `path` relative to the repository root, with forward slashes. */
export function repoRelative(path: string): string {
  return relative(REPO_ROOT, path).split('\\').join('/');
}

/** A fenced ts code block of a Markdown page, with what its marker comment asks. */
export interface MarkdownSnippet {
  /** `docs/payments.md:42`: the page and the line of the opening fence. */
  where: string;
  code: string;
  /** Code that makes a deliberately partial snippet compile, from `<!-- snippet-prelude: ... -->` before the fence. */
  prelude: string;
  /** Why the snippet is not compiled, from `<!-- snippet-skip: reason -->` before the fence. */
  skipReason: string | undefined;
}

const FENCE_OPEN = /^```(?:ts|typescript)\s*$/;
const MARKER = /<!--\s*snippet-(prelude|skip):([\s\S]*?)-->\s*$/;

/**
 * The ```ts and ```typescript blocks of a Markdown page. A snippet compiles on its own; one that is partial on purpose
 * says so in an HTML comment right before its fence (blank lines between are allowed): `<!-- snippet-prelude: code -->`
 * is prepended to it (declarations of what the page set up earlier), `<!-- snippet-skip: reason -->` leaves it out.
 */
export function markdownSnippets(file: string, text: string): MarkdownSnippet[] {
  const lines = text.split('\n');
  const snippets: MarkdownSnippet[] = [];
  for (let index = 0; index < lines.length; index++) {
    if (!FENCE_OPEN.test(lines[index]!)) continue;
    const start = index;
    const body: string[] = [];
    for (index++; index < lines.length && !lines[index]!.startsWith('```'); index++) body.push(lines[index]!);
    const marker = markerBefore(lines, start);
    snippets.push({
      where: `${file}:${start + 1}`,
      code: body.join('\n'),
      prelude: marker?.kind === 'prelude' ? marker.text : '',
      skipReason: marker?.kind === 'skip' ? marker.text : undefined,
    });
  }
  return snippets;
}

function markerBefore(lines: string[], fence: number): { kind: string; text: string } | undefined {
  let end = fence - 1;
  while (end >= 0 && lines[end]!.trim() === '') end--;
  if (end < 0 || !lines[end]!.trimEnd().endsWith('-->')) return undefined;
  let begin = end;
  while (begin > 0 && !lines[begin]!.includes('<!--')) begin--;
  const match = MARKER.exec(lines.slice(begin, end + 1).join('\n'));
  return match ? { kind: match[1]!, text: match[2]!.trim() } : undefined;
}

/** A fenced ts block under an `@example` tag of a TSDoc comment in a package's source. */
export interface TsDocExample {
  /** `packages/engine/src/engine.ts:120`: the file and the line of the opening fence. */
  where: string;
  /** The declaration the comment documents: `createEngine`, `verify` (a method), `SessionKey`. */
  documents: string;
  code: string;
}

const DOC_COMMENT = /\/\*\*([\s\S]*?)\*\/\s*\n([^\n]*)/g;
const DECLARED_NAME = /^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?|class|const|let|interface|type|enum)?\s*(?:readonly\s+|static\s+|get\s+)*#?([A-Za-z_$][\w$]*)/;

/** The ```ts blocks under the `@example` tags of the TSDoc comments in `text`, a source file. */
export function tsDocExamples(file: string, text: string): TsDocExample[] {
  const examples: TsDocExample[] = [];
  for (const match of text.matchAll(DOC_COMMENT)) {
    const commentStartLine = text.slice(0, match.index).split('\n').length;
    const lines = match[1]!.split('\n').map((line) => line.replace(/^\s*\* ?/, ''));
    const documents = DECLARED_NAME.exec(match[2]!)?.[1] ?? '';
    let inExample = false;
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index]!;
      if (/^@\w/.test(line)) inExample = line.startsWith('@example');
      if (!inExample || !/^```(?:ts|typescript)\s*$/.test(line.trim())) continue;
      const start = index;
      const body: string[] = [];
      for (index++; index < lines.length && !lines[index]!.trim().startsWith('```'); index++) body.push(lines[index]!);
      examples.push({ where: `${file}:${commentStartLine + start}`, documents, code: body.join('\n') });
    }
  }
  return examples;
}

/** The packages' source files that ship (tests and test helpers left out), relative to the repository root. */
export function packageSourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(REPO_ROOT, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) files.push(path);
    }
  };
  for (const pkg of readdirSync(join(REPO_ROOT, 'packages'))) walk(join('packages', pkg, 'src'));
  return files;
}
