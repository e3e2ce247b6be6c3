import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { linesMatching, REPO_ROOT, shippedMarkdownFiles, UNSHIPPED_CITATION } from './support/docs.js';

// The design files (SPEC, DESIGN, REFERENCE) do not ship: a page that cites one of their sections sends the reader to
// nothing. The docs state the fact itself. The API reference's TSDoc is checked on the built site (docs-site.test.ts).

describe('shipped docs stand alone', () => {
  it('finds the Markdown it checks', () => {
    const files = shippedMarkdownFiles();
    expect(files).toContain('README.md');
    expect(files).toContain(join('docs', 'sandbox.md'));
    expect(files).toContain(join('packages', 'client', 'README.md'));
    expect(files.some((file) => file.startsWith('examples'))).toBe(true);
  });

  it('the citation pattern catches every form and spares public standards', () => {
    for (const cited of ['(SPEC §4.6)', 'REFERENCE §13, §16', 'DESIGN §5', 'the §2.4 shape', 'see SPEC.md', '(SPEC\n§4.5)']) {
      expect(cited.split('\n').some((line) => UNSHIPPED_CITATION.test(line)), cited).toBe(true);
    }
    for (const fine of ['RFC 6238 §5.2', 'WebAuthn §6.1', '404 REFERENCE_NOT_FOUND', 'the API reference']) {
      expect(UNSHIPPED_CITATION.test(fine), fine).toBe(false);
    }
  });

  it('no README or docs page cites SPEC, DESIGN or REFERENCE', () => {
    const citations = shippedMarkdownFiles().flatMap((file) =>
      linesMatching(file, readFileSync(join(REPO_ROOT, file), 'utf8'), UNSHIPPED_CITATION),
    );
    expect(citations).toEqual([]);
  });

  it('a package README links outside its package by absolute address (on npm a relative one leads nowhere)', () => {
    const leaving = shippedMarkdownFiles()
      .filter((file) => file.startsWith('packages'))
      .flatMap((file) => linesMatching(file, readFileSync(join(REPO_ROOT, file), 'utf8'), /\]\(\.\.\//));
    expect(leaving).toEqual([]);
  });

  it('every absolute link into this repository names a file that exists', () => {
    const missing = shippedMarkdownFiles().flatMap((file) =>
      [...readFileSync(join(REPO_ROOT, file), 'utf8').matchAll(/https:\/\/github\.com\/railyard-dev\/railyard\/(?:blob|tree)\/main\/([^)#\s]+)/g)]
        .map((match) => match[1]!)
        .filter((path) => !existsSync(join(REPO_ROOT, path)))
        .map((path) => `${file}: ${path}`),
    );
    expect(missing).toEqual([]);
  });
});
