import { spawn, spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The packages as a newcomer gets them: packed with pnpm, linted (publint, attw in every resolution mode), installed
// with npm into a project of their own and used from ESM, CommonJS, `tsc --strict` and the `railyard` bin. Every entry
// point comes from the packages' `exports` maps, so a subpath added there is covered without touching this file.
// Runs against dist/ (the root `test` script builds first).

const root = fileURLToPath(new URL('..', import.meta.url));
const PROJECT_URL = 'https://github.com/railyard-dev/railyard';

type Conditions = { types?: string; default?: string };
type ExportEntry = string | (Conditions & { import?: Conditions; require?: Conditions });
interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  homepage?: string;
  repository?: { type?: string; url?: string; directory?: string };
  bugs?: { url?: string };
  keywords?: string[];
  publishConfig?: { access?: string };
  files?: string[];
  bin?: Record<string, string>;
  exports: Record<string, ExportEntry>;
  typesVersions?: Record<string, Record<string, string[]>>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

/** Every published package: its folder under packages/ and its package.json. */
const packages = readdirSync(join(root, 'packages'))
  .filter((dir) => existsSync(join(root, 'packages', dir, 'package.json')))
  .map((dir) => ({ dir, manifest: readJson<Manifest>(join(root, 'packages', dir, 'package.json')) }))
  .filter(({ manifest }) => !manifest.private);

/** The code entry points of a package, as a consumer writes them: `@railyard/engine`, `@railyard/engine/msw`, … */
const entrySpecifiers = (manifest: Manifest) =>
  Object.keys(manifest.exports)
    .filter((subpath) => subpath !== './package.json')
    .map((subpath) => (subpath === '.' ? manifest.name : `${manifest.name}${subpath.slice(1)}`));
const allSpecifiers = packages.flatMap(({ manifest }) => entrySpecifiers(manifest));

/** The `typesVersions` that lets TypeScript's node10 resolution (no `exports`) find each subpath's CommonJS types. */
function expectedTypesVersions(manifest: Manifest) {
  const paths = Object.entries(manifest.exports)
    .filter(([subpath]) => subpath !== '.' && subpath !== './package.json')
    .map(([subpath, entry]) => {
      const types = typeof entry === 'string' ? undefined : (entry.require?.types ?? entry.types ?? entry.import?.types);
      return [subpath.slice(2), [types]] as const;
    });
  return paths.length === 0 ? undefined : { '*': Object.fromEntries(paths) };
}

/** The packages a built file loads at run time (static and dynamic imports, re-exports, require), builtins left out. */
function runtimeImports(code: string): string[] {
  const patterns = [/\bfrom\s*["']([^"']+)["']/g, /\bimport\s*["']([^"']+)["']/g, /\bimport\(\s*["']([^"']+)["']\s*\)/g, /\brequire\(\s*["']([^"']+)["']\s*\)/g];
  // Comments left in the build (TSDoc examples) show imports that nothing runs.
  const withoutComments = code.replace(/\/\*[\s\S]*?\*\//g, '');
  const specifiers = patterns.flatMap((pattern) => [...withoutComments.matchAll(pattern)].map((match) => match[1]!));
  return specifiers
    .filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:') && !builtinModules.includes(specifier))
    .map((specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/'));
}

function run(command: string, args: string[], options: SpawnSyncOptions = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options });
  return { code: result.status, out: String(result.stdout ?? '').trim(), err: String(result.stderr ?? '').trim() };
}

/** Runs `command`, failing with its output when it does not exit 0; resolves with its stdout. */
function runOk(command: string, args: string[], options: SpawnSyncOptions = {}) {
  const result = run(command, args, options);
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.code}\n${result.out}\n${result.err}`);
  return result.out;
}

describe('package dependencies', () => {
  for (const { dir, manifest } of packages) {
    it(`${manifest.name} depends on exactly what its dist loads at run time (inlined packages are devDependencies)`, () => {
      const dist = join(root, 'packages', dir, 'dist');
      const files = readdirSync(dist).filter((file) => /\.(c|m)?js$/.test(file));
      expect(files.length).toBeGreaterThan(0);
      const loaded = new Set(files.flatMap((file) => runtimeImports(readFileSync(join(dist, file), 'utf8'))));
      const declared = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {}), ...Object.keys(manifest.optionalDependencies ?? {})]);
      expect([...loaded].sort()).toEqual([...declared].sort());
      // An optional dependency is loaded only by the entry that needs it (the data stores of `railyard serve --data` and
      // `--database`) and by the server thread, when one of those flags is given.
      const entryOf: Record<string, string> = { 'better-sqlite3': 'sqlite', pg: 'postgres' };
      for (const optional of Object.keys(manifest.optionalDependencies ?? {})) {
        const loaders = files.filter((file) => runtimeImports(readFileSync(join(dist, file), 'utf8')).includes(optional));
        expect(loaders.sort(), optional).toEqual([`${entryOf[optional]}.cjs`, `${entryOf[optional]}.js`, 'serve-thread.cjs'].sort());
      }
    });
  }
});

describe('packed packages', () => {
  const work = mkdtempSync(join(tmpdir(), 'railyard-pack-'));
  const tarballDir = join(work, 'tarballs');
  const project = join(work, 'project');
  const bin = (name: string) => join(root, 'node_modules', '.bin', name);
  /** Package name → its tarball and the files in it. */
  const packed = new Map<string, { filename: string; files: string[] }>();

  beforeAll(() => {
    // A code cache of `railyard serve` beside the engine's bundle, as every start leaves one: it must not be packed.
    const cacheProbe = join(root, 'packages', 'engine', 'dist', '.cache', `packaging-probe-${process.pid}.bin`);
    mkdirSync(join(cacheProbe, '..'), { recursive: true });
    writeFileSync(cacheProbe, 'not for the tarball');
    // pnpm, not npm: only pnpm pack turns `workspace:*` into the versions.
    const report = (() => {
      try {
        return runOk('npx', ['-y', 'pnpm@10', '-r', '--filter', './packages/*', 'pack', '--pack-destination', tarballDir, '--json'], { cwd: root });
      } finally {
        rmSync(cacheProbe, { force: true });
      }
    })();
    for (const entry of JSON.parse(report) as { name: string; filename: string; files: { path: string }[] }[]) {
      packed.set(entry.name, { filename: entry.filename, files: entry.files.map((file) => file.path) });
    }

    // The consumer: the four tarballs, msw for @railyard/engine/msw, and TypeScript at the repo's own versions.
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'railyard-consumer', private: true, version: '0.0.0' }));
    const repoVersion = (name: string) => `${name}@${readJson<{ version: string }>(join(root, 'node_modules', name, 'package.json')).version}`;
    runOk(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error',
        ...[...packed.values()].map(({ filename }) => filename), repoVersion('msw'), repoVersion('typescript'), repoVersion('@types/node')],
      { cwd: project },
    );
  }, 600_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }), 60_000);

  it('every package is packed', () => {
    expect([...packed.keys()].sort()).toEqual(packages.map(({ manifest }) => manifest.name).sort());
  });

  for (const { dir, manifest } of packages) {
    describe(manifest.name, () => {
      const tarball = () => packed.get(manifest.name)!.filename;
      const packedFile = (path: string) => runOk('tar', ['-xzOf', tarball(), `package/${path}`]);

      it('its packed package.json has versions for workspace links and the metadata of a published package', () => {
        const text = packedFile('package.json');
        expect(text).not.toContain('workspace:');
        const packedManifest = JSON.parse(text) as Manifest;
        for (const [name, range] of Object.entries({ ...packedManifest.dependencies, ...packedManifest.peerDependencies, ...packedManifest.optionalDependencies })) {
          const sibling = packages.find(({ manifest: other }) => other.name === name);
          if (sibling) expect(range).toBe(sibling.manifest.version);
        }
        expect(packedManifest).toMatchObject({
          version: manifest.version,
          license: 'MIT',
          homepage: `${PROJECT_URL}/tree/main/packages/${dir}#readme`,
          repository: { type: 'git', url: `git+${PROJECT_URL}.git`, directory: `packages/${dir}` },
          bugs: { url: `${PROJECT_URL}/issues` },
          publishConfig: { access: 'public' },
        });
        expect(packedManifest.keywords?.length).toBeGreaterThan(0);
        expect(packedManifest.typesVersions).toEqual(expectedTypesVersions(manifest));
      });

      it('ships its README, the MIT LICENSE and every bin', () => {
        const { files } = packed.get(manifest.name)!;
        expect(files).toContain('README.md');
        expect(packedFile('README.md')).toContain(`# ${manifest.name}`);
        expect(packedFile('LICENSE')).toBe(readFileSync(join(root, 'LICENSE'), 'utf8').trim());
        for (const target of Object.values(manifest.bin ?? {})) expect(files).toContain(target.replace(/^\.\//, ''));
      });

      it('publint finds nothing, warnings included', () => {
        const { code, out, err } = run(bin('publint'), ['run', '--strict', tarball()]);
        expect(err).toBe('');
        expect(out).toContain('All good!');
        expect(code).toBe(0);
      }, 120_000);

      it('attw finds no problem for any entry point in any resolution mode (node10 included)', () => {
        const { out } = run(bin('attw'), [tarball(), '--format', 'json']);
        const { analysis } = JSON.parse(out) as {
          analysis: { problems: unknown[]; entrypoints: Record<string, { resolutions: Record<string, unknown> }> };
        };
        expect(analysis.problems).toEqual([]);
        expect(Object.keys(analysis.entrypoints).sort()).toEqual(Object.keys(manifest.exports).sort());
        for (const { resolutions } of Object.values(analysis.entrypoints)) {
          expect(Object.keys(resolutions).sort()).toEqual(['bundler', 'node10', 'node16-cjs', 'node16-esm']);
        }
      }, 120_000);
    });
  }

  describe('installed with npm into a new project', () => {
    const customerScript = (load: string) => `
      const engine = createEngine();
      const client = createClient({ fetch: engine.fetch, clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret' });
      const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'New Comer' });
      const exportCounts = {};
      for (const specifier of ${JSON.stringify(allSpecifiers)}) exportCounts[specifier] = Object.keys(${load}).length;
      engine.close();
      console.log(JSON.stringify({ id: customer.id, fullName: customer.fullName, exportCounts }));`;

    /** What both consumers print: the customer they created, and each entry point with some exports. */
    const expectCustomerAndEntryPoints = (out: string) => {
      const result = JSON.parse(out) as { id: string; fullName: string; exportCounts: Record<string, number> };
      expect(result.fullName).toBe('New Comer');
      expect(result.id).toMatch(/^Customer:/);
      expect(Object.keys(result.exportCounts).sort()).toEqual([...allSpecifiers].sort());
      for (const count of Object.values(result.exportCounts)) expect(count).toBeGreaterThan(0);
    };

    it('an ES module imports every entry point and creates a customer in process', () => {
      writeFileSync(
        join(project, 'consumer.mjs'),
        `import { createEngine } from '@railyard/engine';\nimport { createClient } from '@railyard/client';\n${customerScript('await import(specifier)')}`,
      );
      expectCustomerAndEntryPoints(runOk(process.execPath, ['consumer.mjs'], { cwd: project }));
    }, 60_000);

    it('a CommonJS file requires every entry point and creates a customer in process', () => {
      writeFileSync(
        join(project, 'consumer.cjs'),
        `const { createEngine } = require('@railyard/engine');\nconst { createClient } = require('@railyard/client');\n(async () => {${customerScript('require(specifier)')}\n})();`,
      );
      expectCustomerAndEntryPoints(runOk(process.execPath, ['consumer.cjs'], { cwd: project }));
    }, 60_000);

    it('tsc --strict accepts typed consumers in ESM and CommonJS, and refuses a wrong field value', () => {
      const typedConsumer = (typeImports: string) => `${typeImports}
import { createEngine } from '@railyard/engine';
import { createClient } from '@railyard/client';

export async function createCustomer(): Promise<string> {
  const engine = createEngine();
  const client = createClient({ fetch: engine.fetch, clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret' });
  // @ts-expect-error: the types are real (not any), so an unknown customer type is refused.
  await client.customers.create({ customerType: 'NOT_A_TYPE' });
  const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'New Comer' });
  engine.close();
  return customer.id;
}
`;
      const typeImports = allSpecifiers.map((specifier, index) => `import type * as entry${index} from '${specifier}';\nexport type Entry${index} = typeof entry${index};`).join('\n');
      writeFileSync(join(project, 'consumer-esm.mts'), typedConsumer(typeImports));
      writeFileSync(join(project, 'consumer-cjs.cts'), typedConsumer(typeImports));
      // skipLibCheck as `tsc --init` writes it (and it saves minutes): attw checks the declaration files themselves.
      const compilerOptions = { strict: true, noEmit: true, skipLibCheck: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: ['node'] };
      writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['consumer-esm.mts', 'consumer-cjs.cts'] }));
      const { code, out } = run(process.execPath, [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.', '--strict', '--noEmit'], { cwd: project });
      expect(out).toBe('');
      expect(code).toBe(0);
    }, 300_000);

    it('the railyard bin is installed and prints the engine version', () => {
      const engine = packages.find(({ dir }) => dir === 'engine')!.manifest;
      expect(runOk(join(project, 'node_modules', '.bin', 'railyard'), ['--version'], { cwd: project })).toBe(engine.version);
      expect(runOk(join(project, 'node_modules', '.bin', 'railyard'), ['--help'], { cwd: project })).toContain('railyard serve');
    }, 60_000);

    it('railyard serve from the installed package answers; it keeps its code cache inside that package, and the tarball ships none', async () => {
      const installedDist = join(project, 'node_modules', '@railyard', 'engine', 'dist');
      const serveOnce = async () => {
        const child = spawn(join(project, 'node_modules', '.bin', 'railyard'), ['serve', '--port', '0'], { cwd: project });
        let output = '';
        child.stdout.on('data', (chunk) => (output += chunk));
        child.stderr.on('data', (chunk) => (output += chunk));
        const baseUrl = await new Promise<string>((resolve, reject) => {
          child.stdout.on('data', () => {
            const match = /listening on (http:\/\/\S+)/.exec(output);
            if (match) resolve(match[1]!);
          });
          child.once('exit', (code) => reject(new Error(`railyard serve exited ${code}: ${output}`)));
        });
        const health = await fetch(`${baseUrl}/_sandbox/health`);
        child.kill('SIGTERM');
        const [code] = await once(child, 'exit');
        expect(code).toBe(0);
        expect(output).not.toMatch(/warning/i);
        return { status: health.status, body: (await health.json()) as { status: string } };
      };
      expect(await serveOnce()).toEqual({ status: 200, body: expect.objectContaining({ status: 'ok' }) });
      const caches = readdirSync(join(installedDist, '.cache'));
      expect(caches).toHaveLength(1);
      // Named by Node version, architecture, the flags Node started with, and the bundle (server/code-cache.ts).
      expect(caches[0]).toMatch(new RegExp(`^serve-thread\\.cjs-${process.version}-${process.arch}-[0-9a-f]{8}-[0-9a-f]{16}\\.bin$`));
      const written = statSync(join(installedDist, '.cache', caches[0]!)).mtimeMs;
      expect((await serveOnce()).status).toBe(200);
      // The second start ran from the cache: a refused one would have been written again.
      expect(readdirSync(join(installedDist, '.cache'))).toEqual(caches);
      expect(statSync(join(installedDist, '.cache', caches[0]!)).mtimeMs).toBe(written);
      // The repo's own dist/.cache held a file when it was packed (beforeAll), and none of it was shipped.
      expect(packed.get('@railyard/engine')!.files.filter((file) => file.includes('.cache'))).toEqual([]);
    }, 60_000);

    it('the command line is not a module: importing or requiring it is refused, and starts nothing', () => {
      for (const specifier of ['@railyard/engine/cli', '@railyard/engine/dist/cli.cjs', '@railyard/engine/bin/railyard.cjs']) {
        const viaImport = run(process.execPath, ['--input-type=module', '-e', `import(${JSON.stringify(specifier)}).then(() => console.log('loaded'), (error) => console.log(error.code))`], { cwd: project, timeout: 20_000 });
        expect(viaImport.out).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
        const viaRequire = run(process.execPath, ['-e', `try { require(${JSON.stringify(specifier)}); console.log('loaded'); } catch (error) { console.log(error.code); }`], { cwd: project, timeout: 20_000 });
        expect(viaRequire.out).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
      }
    }, 60_000);
  });
});
