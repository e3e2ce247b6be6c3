import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { markdownSnippets, REPO_ROOT, snippetMarkdownFiles, type MarkdownSnippet } from './support/docs.js';

// Every ts snippet of the README, docs/ and the packages' READMEs type-checks, strict, against the built packages
// (their dist/ types, as a user installing them sees), in one tsc run. The snippets are written as modules to
// .docs-snippets/ (gitignored) inside the repo, so they resolve @railyard/* and msw from the repo's node_modules.

const OUT_DIR = join(REPO_ROOT, '.docs-snippets');

/**
 * What the docs' snippets take as set up earlier on their page, with its real type: a snippet may use these names
 * without defining them (one that defines its own shadows them). Anything else a partial snippet needs goes in its
 * `<!-- snippet-prelude: ... -->` marker.
 */
const SNIPPET_CONTEXT = `
declare const engine: import('@railyard/engine').Engine;
declare const client: import('@railyard/client').RailyardClient;
declare const customer: import('@railyard/client').Customer;
declare const quote: import('@railyard/client').Quote;
declare const internalAccount: import('@railyard/client').InternalAccount;
declare const wallet: import('@railyard/client').InternalAccount;
declare const bankAccount: import('@railyard/client').ExternalAccount;
declare const account: import('@railyard/client').ExternalAccount;
declare const card: import('@railyard/client').Card;
declare const session: import('@railyard/wallet').SessionKey;
declare const policy: import('@railyard/client').AgentPolicy;
declare const destination: import('@railyard/client').QuoteCreateParams['destination'];
/** Platform credentials, ids and values the page got earlier. */
declare const clientId: string, clientSecret: string, baseUrl: string, apiClientId: string, apiClientSecret: string;
declare const id: string, customerId: string, accountId: string, walletId: string, cardholderId: string, bankId: string;
declare const internalAccountId: string, bankAccountId: string, usdAccountId: string, usdcAccountId: string;
declare const credentialId: string, emailCredentialId: string, otpCode: string, idToken: string, amount: number;
/** The enclave key pinned in the app (GET /_sandbox/enclave-key in the sandbox). */
declare const ENCLAVE_KEY: string, pinnedEnclaveKey: string;
`;
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** The module a snippet becomes: its prelude, its code, and `export {}` so top-level await and local names are its own. */
function moduleOf(snippet: MarkdownSnippet): string {
  return `${snippet.prelude}\n${snippet.code}\nexport {};\n`;
}

const fileNameOf = (snippet: MarkdownSnippet) => `${snippet.where.replace(/[/\\:.]/g, '_')}.ts`;

describe('docs snippets', () => {
  const snippets = snippetMarkdownFiles().flatMap((file) => markdownSnippets(file, readFileSync(join(REPO_ROOT, file), 'utf8')));
  const compiled = snippets.filter((snippet) => snippet.skipReason === undefined);

  it('finds the snippets, and every skipped one says why', () => {
    expect(compiled.length).toBeGreaterThan(40);
    // The README's msw snippet, which once used createEngine without importing it.
    expect(snippets.some((snippet) => snippet.where.startsWith('README.md:') && snippet.code.includes("from '@railyard/engine/msw'"))).toBe(true);
    for (const skipped of snippets.filter((snippet) => snippet.skipReason !== undefined)) {
      expect(skipped.skipReason, skipped.where).not.toBe('');
    }
  });

  it('reads a prelude marker and a skip marker', () => {
    const page = ['<!-- snippet-prelude: declare const a: number; -->', '```ts', 'a + 1;', '```', '<!-- snippet-skip: shows an error -->', '', '```typescript', 'x', '```'].join('\n');
    expect(markdownSnippets('page.md', page)).toEqual([
      { where: 'page.md:2', code: 'a + 1;', prelude: 'declare const a: number;', skipReason: undefined },
      { where: 'page.md:7', code: 'x', prelude: '', skipReason: 'shows an error' },
    ]);
  });

  it('every snippet type-checks against the built packages', () => {
    rmSync(OUT_DIR, { recursive: true, force: true });
    mkdirSync(OUT_DIR, { recursive: true });
    writeFileSync(join(OUT_DIR, 'context.d.ts'), SNIPPET_CONTEXT);
    const whereOf = new Map<string, string>();
    for (const snippet of compiled) {
      whereOf.set(fileNameOf(snippet), snippet.where);
      writeFileSync(join(OUT_DIR, fileNameOf(snippet)), moduleOf(snippet));
    }
    writeFileSync(
      join(OUT_DIR, 'tsconfig.json'),
      JSON.stringify({
        // No `paths`: @railyard/* resolve through node_modules to the packages' exports, i.e. dist/.
        compilerOptions: {
          target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2022', 'DOM', 'DOM.Iterable'],
          strict: true, noEmit: true, skipLibCheck: true, isolatedModules: true, types: ['node'],
        },
        include: ['*.ts'], // context.d.ts included
      }),
    );
    const result = spawnSync(process.execPath, [tsc, '-p', join(OUT_DIR, 'tsconfig.json'), '--pretty', 'false'], { encoding: 'utf8' });
    // Name the Markdown page and line of each error rather than the generated file.
    const errors = result.stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => line.replace(/^\.docs-snippets[/\\]([^()]+)\((\d+),\d+\)/, (_, name: string, line: string) => `${whereOf.get(name) ?? name} (snippet line ${Number(line) - 1})`));
    expect(errors).toEqual([]);
    expect(result.status).toBe(0);
  }, 300_000);
});
