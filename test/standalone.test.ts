import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// The repo stands alone: a user clones only it, so no tracked file may read a path outside it (`../shared/…`).
// scripts/check-standalone.mjs enforces that in .ci/run; these tests run it on this repo and on a repo that breaks it.

const script = fileURLToPath(new URL('../scripts/check-standalone.mjs', import.meta.url));
// Fixture paths are built, not written out, so this file does not trip the check it tests.
const up = (levels: number) => '../'.repeat(levels);
const check = (cwd: string) => spawnSync(process.execPath, [script], { cwd, encoding: 'utf8' });

const scratch = mkdtempSync(join(tmpdir(), 'railyard-standalone-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function repoWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(scratch, 'repo-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const git = (...args: string[]) => spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
  git('init', '-q');
  git('add', '.');
  return dir;
}

describe('the repository stands alone', () => {
  it('has no tracked file that refers to a path outside it', () => {
    const result = check(fileURLToPath(new URL('..', import.meta.url)));
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('the check fails on a test that reads the sibling shared/ folder, naming the file and line', () => {
    const dir = repoWith({
      'packages/a/src/x.test.ts': `import { readFileSync } from 'node:fs';\nreadFileSync(new URL('${up(4)}shared/vectors/stamps.json', import.meta.url));\n`,
    });
    const result = check(dir);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`packages/a/src/x.test.ts:2: ${up(4)}shared/vectors/stamps.json resolves outside the repository`);
  });

  it('the check passes relative paths that stay inside (docs links, test data)', () => {
    const dir = repoWith({
      'docs/a.md': 'See [the example](../examples/x.ts).\n',
      'packages/a/src/x.test.ts': `new URL('${up(3)}test/vectors/stamps.json', import.meta.url);\n`,
    });
    expect(check(dir).status).toBe(0);
  });
});
