import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { linesMatching, REPO_ROOT, UNSHIPPED_CITATION } from './support/docs.js';

// The API reference builds as `pnpm docs:api` builds it (typedoc.json), into .docs-snippets/site (gitignored) instead of
// docs/api, with validation warnings (broken {@link}s) as errors. Converting four packages' types takes a while: the
// build runs once for all the checks below.

const SITE_DIR = join(REPO_ROOT, '.docs-snippets', 'site');
const TYPEDOC = join(REPO_ROOT, 'node_modules', 'typedoc', 'bin', 'typedoc');

let build: { status: number | null; output: string };
let pages: string[];

/** The text of a page as a reader sees it: tags dropped, entities of the citation characters decoded. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&sect;|&#167;|&#xa7;/gi, '§').replace(/&nbsp;|&#160;/g, ' ');

describe('API reference site', () => {
  beforeAll(() => {
    rmSync(SITE_DIR, { recursive: true, force: true });
    const result = spawnSync(process.execPath, [TYPEDOC, '--out', SITE_DIR, '--treatValidationWarningsAsErrors', '--logLevel', 'Warn'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    build = { status: result.status, output: `${result.stdout}${result.stderr}` };
    pages = result.status === 0 ? readdirSync(SITE_DIR, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.html')) : [];
  }, 900_000);

  it('builds without an error or a warning', () => {
    expect(build.output).not.toMatch(/\[(warning|error)\]/);
    expect(build.status).toBe(0);
  });

  it('documents the entry points of every package and every subpath export', () => {
    for (const name of ['createEngine', 'startServer', 'createHandlers', 'createClient', 'SessionKey', 'encryptOtp', 'buildOpenApiDocument']) {
      expect(pages.some((page) => page.endsWith(`.${name}.html`)), name).toBe(true);
    }
    expect(pages.some((page) => page.includes('msw'))).toBe(true);
    // Every subpath a package exports has its module page (packages/contract/typedoc.json names the contract's three).
    for (const entry of ['_railyard_contract.routes', '_railyard_contract.wallet-crypto', '_railyard_engine.server', '_railyard_engine.msw', '_railyard_engine.sqlite', '_railyard_engine.postgres']) {
      expect(pages.some((page) => page.endsWith(`${entry}.html`)), entry).toBe(true);
    }
  });

  it('shows the examples, with credentials the sandbox accepts', () => {
    const createClientPage = pages.find((page) => page.endsWith('.createClient.html'))!;
    const text = textOf(readFileSync(join(SITE_DIR, createClientPage), 'utf8'));
    expect(text).toContain('Example');
    expect(text).toContain('sandbox-client-secret');
    expect(text).not.toContain("clientId: 'test'");
  });

  it('cites no SPEC, DESIGN or REFERENCE section on any page', () => {
    const citations = pages.flatMap((page) => linesMatching(page, textOf(readFileSync(join(SITE_DIR, page), 'utf8')), UNSHIPPED_CITATION));
    expect(citations.slice(0, 50)).toEqual([]);
  });
});
