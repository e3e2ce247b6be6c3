/**
 * Runs a CommonJS bundle with V8's code cache, so a process that starts the same bundle again skips most of compiling
 * it. Node 22 offers this for every module (`module.enableCompileCache`); Node 20 has no such switch, but `vm.Script`
 * takes and produces V8 code caches. `railyard serve` uses it for its server thread: compiling the ~1.3 MB bundle was
 * a fifth of a cold start (docs/benchmarks.md).
 *
 * The cache lives beside the bundle (`.cache/`): whoever can write there can already change the bundle itself, which a
 * shared directory such as the system's temporary one would not guarantee for code this process runs. A cache that is
 * missing, unreadable or rejected by V8 (another Node or V8 version, other flags, a rebuilt bundle) only costs the
 * compile; a directory that cannot be written leaves the process without a cache, never without a server.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

type ModuleWrapper = (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, filename: string, dirname: string) => void;

/** What a run did with the cache; `railyard serve` ignores it, tests read it. */
export type CodeCacheOutcome = 'used' | 'written' | 'unwritable';

/**
 * The file the cache of a bundle with this source is kept in. V8 checks a cache against the source's length only, so
 * the name carries a hash of the source: a rebuilt bundle of the same length must not run the old one's code. Node
 * version and architecture are in the name too, so switching between them does not thrash one file.
 */
export function codeCacheFile(bundle: string, bytes: Uint8Array, cacheDirectory = join(dirname(bundle), '.cache')): string {
  const sourceHash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  return join(cacheDirectory, `${basename(bundle)}-${process.version}-${process.arch}-${sourceHash}.bin`);
}

/**
 * Runs `bundle` (a CommonJS file) as `require` would, compiling it with the code cache kept in `cacheDirectory`, and
 * writes that cache when there was none or V8 refused it. The cache is written right after the bundle's top level ran,
 * so it also holds the functions that ran during it (for a server: building its schemas and routes).
 */
export function runWithCodeCache(bundle: string, cacheDirectory?: string): CodeCacheOutcome {
  const bytes = readFileSync(bundle);
  const source = bytes.toString('utf8');
  const cacheFile = codeCacheFile(bundle, bytes, cacheDirectory);
  const cachedData = readIfPresent(cacheFile);
  // The wrapper is the one Node puts around a CommonJS module; it adds no line, so stack traces keep their line numbers.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundle,
    ...(cachedData ? { cachedData } : {}),
  });
  const module = { exports: {} };
  (script.runInThisContext() as ModuleWrapper)(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  if (cachedData && !script.cachedDataRejected) return 'used';
  if (!writeAtomically(cacheFile, script.createCachedData())) return 'unwritable';
  removeOtherBuildsCaches(cacheFile);
  return 'written';
}

/** Caches of earlier builds of the bundle (same Node, other source) would only pile up: each rebuild leaves one. */
function removeOtherBuildsCaches(cacheFile: string): void {
  const name = basename(cacheFile);
  const sameBundleAndNode = name.slice(0, name.lastIndexOf('-') + 1);
  try {
    for (const other of readdirSync(dirname(cacheFile))) {
      if (other !== name && other.startsWith(sameBundleAndNode) && other.endsWith('.bin')) rmSync(join(dirname(cacheFile), other), { force: true });
    }
  } catch {
    // Left for the next write to remove: a cache that cannot be tidied is no reason not to serve.
  }
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Written under a name of its own and renamed, so a process starting meanwhile reads the old cache or the new one, never half of one. */
function writeAtomically(file: string, data: Buffer): boolean {
  const partial = `${file}.${process.pid}.partial`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(partial, data);
    renameSync(partial, file);
    return true;
  } catch {
    try {
      rmSync(partial, { force: true });
    } catch {
      // There was no folder to write the partial file in.
    }
    return false;
  }
}
