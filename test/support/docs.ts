import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: every docs test reads and writes inside it only. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * A citation of a design file that does not ship: `SPEC §4.6`, `REFERENCE §13`, `DESIGN §5`, a bare `SPEC.md`, or a
 * section sign with no standard before it (`the §2.4 shape`). `RFC 6238 §5.2` is a public standard and stays allowed.
 */
export const UNSHIPPED_CITATION = /\b(?:SPEC|DESIGN|REFERENCE)\b\s*(?:§|\.md\b)|(?<!\bRFC\s*\d+\s*)§\s*\d/;

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
