import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase } from './support/postgres.mjs';
import { packageSourceFiles, REPO_ROOT, tsDocExamples } from './support/docs.js';

// Every `@example` in the packages' TSDoc runs: each ```ts block becomes a module in .docs-snippets/examples/
// (gitignored, inside the repo so @railyard/* resolve to the built packages' dist/), run by Node through tsx. An example
// checks its own results (node:assert), so exiting 0 means it did what its comment says.

const OUT_DIR = join(REPO_ROOT, '.docs-snippets', 'examples');
const tsxLoader = createRequire(import.meta.url).resolve('tsx');

/** The public entry points that must show an example: the declaration each example documents. */
const ENTRY_POINTS = [
  'createEngine', 'createHandlers', 'startServer', 'createClient', 'verify', 'unwrap', 'generateTestHeader',
  'SessionKey', 'signedRetryHeaders', 'encryptOtp', 'registerPasskey', 'buildOpenApiDocument',
];

/** Runs a module with Node through tsx: its exit code and what it wrote to stderr. */
async function run(file: string, env: NodeJS.ProcessEnv = process.env): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await promisify(execFile)(process.execPath, ['--import', tsxLoader, file], { cwd: REPO_ROOT, timeout: 100_000, env });
    return { code: 0, stderr };
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : 1, stderr: failed.stderr ?? String(error) };
  }
}

const examples = packageSourceFiles().flatMap((file) => tsDocExamples(file, readFileSync(join(REPO_ROOT, file), 'utf8')));

describe('TSDoc @example blocks', () => {
  it('reads the examples of a comment and names what it documents', () => {
    const source = ['/**', ' * Adds.', ' * @example', ' * ```ts', ' * add(1, 2); // 3', ' * ```', ' * @param a - first', ' */', 'export function add(a: number, b: number) {}'].join('\n');
    expect(tsDocExamples('add.ts', source)).toEqual([{ where: 'add.ts:4', documents: 'add', code: 'add(1, 2); // 3' }]);
  });

  it('every public entry point has one', () => {
    const documented = new Set(examples.map((example) => example.documents));
    expect(ENTRY_POINTS.filter((name) => !documented.has(name))).toEqual([]);
  });

  // Examples of the shared store run against a PostgreSQL database of their own, named by RAILYARD_DATABASE_URL.
  const needsDatabase = (code: string) => code.includes('RAILYARD_DATABASE_URL');
  const databases: Awaited<ReturnType<typeof freshDatabase>>[] = [];
  afterAll(async () => {
    for (const database of databases) await database.destroy();
  });

  rmSync(OUT_DIR, { recursive: true, force: true });
  mkdirSync(OUT_DIR, { recursive: true });
  for (const example of examples) {
    // Concurrent: each example is its own Node process, mostly waiting on module loading.
    it.concurrent(`${example.documents} (${example.where}) runs and exits 0`, async () => {
      const file = join(OUT_DIR, `${example.where.replace(/[/\\:.]/g, '_')}.mts`);
      writeFileSync(file, `${example.code}\nexport {};\n`);
      const database = needsDatabase(example.code) ? await freshDatabase() : undefined;
      if (database) databases.push(database);
      const env = database ? { ...process.env, RAILYARD_DATABASE_URL: database.url } : process.env;
      const result = await run(file, env);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    }, 120_000);
  }
});
