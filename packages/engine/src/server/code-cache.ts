/**
 * Runs a CommonJS bundle with V8's code cache, so a process that starts the same bundle again skips most of compiling
 * it. Node 22 offers this for every module (`module.enableCompileCache`); Node 20 has no such switch, but `vm.Script`
 * takes and produces V8 code caches. `railyard serve` uses it for its server thread: compiling its bundle (1.2 MB as ES
 * modules, ~1.1 MB as the minified CommonJS it is now) was a fifth of a cold start (docs/benchmarks.md).
 *
 * The cache lives beside the bundle (`.cache/`): whoever can write there can already change the bundle itself, which a
 * shared directory such as the system's temporary one would not guarantee for code this process runs. A cache that is
 * missing, damaged or rejected by V8 (another Node or V8 version, other flags, a rebuilt bundle) only costs the
 * compile; a directory that cannot be written leaves the process without a cache, never without a server.
 */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

type ModuleWrapper = (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, filename: string, dirname: string) => void;

/** What a run did with the cache. */
export type CodeCacheOutcome = 'used' | 'written' | 'unwritable';

/** A bundle run by {@link runWithCodeCache}. */
export interface CodeCacheRun {
  readonly outcome: CodeCacheOutcome;
  /**
   * Whether a {@link CodeCacheRun.refresh} would improve the cache: it was written right after the bundle's top level
   * ran, before the code that serves (a server's first request) had been compiled. False once a refreshed cache is in
   * use, and when the cache cannot be written.
   */
  readonly refreshWanted: boolean;
  /** Writes the cache again, now with every function compiled since, marked as refreshed so later runs keep it. */
  refresh(): CodeCacheOutcome;
}

/** A cache file is the SHA-256 of what follows (release builds of V8 do not check their data), its stage, V8's data. */
const DIGEST_BYTES = 32;
/** The stage byte: written right after the top level ran, or refreshed once the bundle had been at work. */
const AFTER_TOP_LEVEL = 0;
const REFRESHED = 1;
/** A partial file this old was left by a process that died while writing it. */
const ABANDONED_PARTIAL_MS = 60_000;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();

/**
 * The file the cache of a bundle with this source is kept in. V8 checks a cache against the source's length only, so
 * the name carries a hash of the source: a rebuilt bundle of the same length must not run the old one's code. Node
 * version and architecture are in the name too, and a hash of the flags Node was started with (`process.execArgv`
 * and `NODE_OPTIONS`): V8 refuses a cache made under other V8 flags, so starts with and without a flag such as
 * `--max-old-space-size` would otherwise replace each other's cache on every start.
 */
export function codeCacheFile(bundle: string, bytes: Uint8Array, cacheDirectory = join(dirname(bundle), '.cache'), flags = startFlags()): string {
  const sourceHash = sha256(bytes).toString('hex').slice(0, 16);
  const flagsHash = sha256(Buffer.from(JSON.stringify(flags))).toString('hex').slice(0, 8);
  return join(cacheDirectory, `${basename(bundle)}-${process.version}-${process.arch}-${flagsHash}-${sourceHash}.bin`);
}

/** The flags this process was started with: its command line's Node options, then `NODE_OPTIONS`. */
export const startFlags = (): readonly string[] => [...process.execArgv, process.env.NODE_OPTIONS ?? ''];

/**
 * A bundle's source and its verified cache, read from disk: what {@link runWithCodeCache} needs before it compiles.
 * Plain data, so another thread can read it and hand it over (`railyard serve` reads it on the main thread while its
 * server thread boots, and transfers it).
 */
export interface CodeCacheFiles {
  readonly bundle: string;
  readonly source: Uint8Array;
  readonly cacheFile: string;
  /** The stage and V8 data of the cache, when there is one whose digest matches. */
  readonly cached?: { readonly stage: number; readonly data: Uint8Array };
}

/** Reads `bundle` and its cache in `cacheDirectory` (by default `.cache/` beside it), checking the cache's digest. */
export function readCodeCacheFiles(bundle: string, cacheDirectory?: string): CodeCacheFiles {
  const source = readOwnBuffer(bundle);
  const cacheFile = codeCacheFile(bundle, source, cacheDirectory);
  const cached = readVerified(cacheFile);
  return { bundle, source, cacheFile, ...(cached ? { cached } : {}) };
}

/** The buffers of `files`, for a `postMessage` transfer list: each file was read into an ArrayBuffer of its own. */
export function transferablesOf(files: CodeCacheFiles): ArrayBuffer[] {
  return [files.source, files.cached?.data].flatMap((view) => (view?.buffer instanceof ArrayBuffer ? [view.buffer] : []));
}

/**
 * A file's bytes in an ArrayBuffer of their own. Node reads a small file into its shared pool, which a transfer to
 * another thread would take from every other buffer in it; such a file is copied out.
 */
function readOwnBuffer(file: string): Buffer {
  const bytes = readFileSync(file);
  if (bytes.byteLength === bytes.buffer.byteLength) return bytes;
  const own = new Uint8Array(bytes);
  return Buffer.from(own.buffer, 0, own.byteLength);
}

/**
 * Runs `bundle` (a CommonJS file, or its {@link CodeCacheFiles} already read, which name their cache file) as
 * `require` would, compiling it with the code cache kept in `cacheDirectory` (by default `.cache/` beside it), and
 * writes that cache when there was none or it was refused. The cache is
 * written right after the bundle's top level ran, so it holds the functions that ran during it (for a server:
 * building its schemas and routes); {@link CodeCacheRun.refresh} writes it again later with more.
 */
export function runWithCodeCache(bundleOrFiles: string | CodeCacheFiles, cacheDirectory?: string): CodeCacheRun {
  const { bundle, source, cacheFile, cached } = typeof bundleOrFiles === 'string' ? readCodeCacheFiles(bundleOrFiles, cacheDirectory) : bundleOrFiles;
  // The wrapper Node puts around a CommonJS module, on a line of its own that `lineOffset` takes back, so positions in
  // stack traces are the bundle's own.
  const text = Buffer.from(source.buffer, source.byteOffset, source.byteLength).toString('utf8');
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {\n${text}\n})`, {
    filename: bundle,
    lineOffset: -1,
    ...(cached ? { cachedData: cached.data } : {}),
  });
  const module = { exports: {} };
  (script.runInThisContext() as ModuleWrapper).call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  const write = (stage: number): CodeCacheOutcome => {
    if (!writeAtomically(cacheFile, stage, () => script.createCachedData())) return 'unwritable';
    removeLeftovers(cacheFile);
    return 'written';
  };
  const outcome = cached && !script.cachedDataRejected ? 'used' : write(AFTER_TOP_LEVEL);
  let refreshWanted = outcome === 'used' ? cached!.stage !== REFRESHED : outcome === 'written';
  return {
    outcome,
    get refreshWanted() {
      return refreshWanted;
    },
    refresh() {
      const refreshed = write(REFRESHED);
      refreshWanted = false;
      return refreshed;
    },
  };
}

/** The stage and V8 data of a cache file whose digest matches; undefined for a missing, short or damaged file. */
function readVerified(file: string): { stage: number; data: Uint8Array } | undefined {
  let stored: Buffer;
  try {
    stored = readOwnBuffer(file);
  } catch {
    return undefined;
  }
  if (stored.length <= DIGEST_BYTES + 1) return undefined;
  const body = stored.subarray(DIGEST_BYTES);
  if (!sha256(body).equals(stored.subarray(0, DIGEST_BYTES))) return undefined;
  return { stage: body[0]!, data: body.subarray(1) };
}

/**
 * Writes the digest, the stage and the data `produce` makes under a name of its own, then renames it into place, so a
 * process starting meanwhile reads the old cache or the new one, never half of one. The file is opened before the
 * data is made, so a folder that cannot be written costs nothing more on every start.
 */
function writeAtomically(file: string, stage: number, produce: () => Buffer): boolean {
  const partial = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.partial`;
  let fd: number | undefined;
  try {
    mkdirSync(dirname(file), { recursive: true });
    fd = openSync(partial, 'wx');
    const body = Buffer.concat([Buffer.of(stage), produce()]);
    writeSync(fd, sha256(body));
    writeSync(fd, body);
    closeSync(fd);
    fd = undefined;
    renameSync(partial, file);
    return true;
  } catch {
    try {
      if (fd !== undefined) closeSync(fd);
      rmSync(partial, { force: true });
    } catch {
      // There was no folder to write the partial file in.
    }
    return false;
  }
}

/**
 * Caches of earlier builds of the bundle (same Node and flags, other source) would only pile up: each rebuild leaves
 * one. So would the partial file of a process that died while writing.
 */
function removeLeftovers(cacheFile: string): void {
  const folder = dirname(cacheFile);
  const name = basename(cacheFile);
  const sameBundleAndNode = name.slice(0, name.lastIndexOf('-') + 1);
  try {
    for (const other of readdirSync(folder)) {
      if (other === name || !other.startsWith(sameBundleAndNode)) continue;
      const path = join(folder, other);
      if (other.endsWith('.bin') || (other.endsWith('.partial') && Date.now() - statSync(path).mtimeMs > ABANDONED_PARTIAL_MS)) rmSync(path, { force: true });
    }
  } catch {
    // Left for the next write to remove: a cache that cannot be tidied is no reason not to serve.
  }
}
