import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { codeCacheFile, readCodeCacheFiles, runWithCodeCache, startFlags, transferablesOf, type CodeCacheFiles } from './code-cache.js';

// The bundles report what they did through a global, as the server thread's bundle does through its side effects.
const runs = (): unknown[] => ((globalThis as { codeCacheRuns?: unknown[] }).codeCacheRuns ??= []);
const scratch = mkdtempSync(join(tmpdir(), 'railyard-code-cache-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let folder = '';
beforeEach(() => {
  runs().length = 0;
  folder = mkdtempSync(join(scratch, 'bundle-'));
  writeFileSync(join(folder, 'sibling.cjs'), 'module.exports = { answer: 42 };');
});

/** A CommonJS bundle that records `tag`, what `require` found beside it, and its own file and folder names. */
function writeBundle(tag: string): string {
  const bundle = join(folder, 'bundle.cjs');
  writeFileSync(
    bundle,
    `"use strict";
const { answer } = require('./sibling.cjs');
module.exports = { tag: ${JSON.stringify(tag)} };
globalThis.codeCacheRuns.push({ tag: ${JSON.stringify(tag)}, answer, file: __filename, folder: __dirname, thisIsExports: this === exports });
`,
  );
  return bundle;
}
const cacheFiles = () => readdirSync(join(folder, '.cache'));

describe('runWithCodeCache', () => {
  it('runs a CommonJS bundle as require would, writes its cache the first time and uses it after', () => {
    const bundle = writeBundle('a');
    expect(runWithCodeCache(bundle).outcome).toBe('written');
    expect(runs()).toEqual([{ tag: 'a', answer: 42, file: bundle, folder, thisIsExports: true }]);
    expect(cacheFiles()).toEqual([basename(codeCacheFile(bundle, readFileSync(bundle)))]);

    expect(runWithCodeCache(bundle).outcome).toBe('used');
    expect(runs()).toHaveLength(2);
    expect(runs()[1]).toEqual(runs()[0]);
  });

  it('refresh writes the cache again with the code compiled since, once: a refreshed cache is kept by later runs', () => {
    const bundle = join(folder, 'server.cjs');
    // A function the top level only defines: compiled when first called, as a server's request path is.
    const body = Array.from({ length: 200 }, (_, i) => `total += (n * ${i}) % 7;`).join('\n');
    writeFileSync(bundle, `"use strict";\nglobalThis.codeCacheServe = function serve(n) { let total = 0;\n${body}\nreturn total; };\n`);
    const cacheFile = codeCacheFile(bundle, readFileSync(bundle));
    const serve = () => (globalThis as unknown as { codeCacheServe: (n: number) => number }).codeCacheServe(3);

    const first = runWithCodeCache(bundle);
    expect([first.outcome, first.refreshWanted]).toEqual(['written', true]);
    const atStart = readFileSync(cacheFile).length;
    serve();
    expect(first.refresh()).toBe('written');
    expect(first.refreshWanted).toBe(false);
    expect(readFileSync(cacheFile).length).toBeGreaterThan(atStart);

    const later = runWithCodeCache(bundle);
    expect([later.outcome, later.refreshWanted]).toEqual(['used', false]);
  });

  it('a cache written at start but never refreshed (the process ended first) is used, and refreshed by the next run', () => {
    const bundle = writeBundle('a');
    runWithCodeCache(bundle);
    const second = runWithCodeCache(bundle);
    expect([second.outcome, second.refreshWanted]).toEqual(['used', true]);
    second.refresh();
    expect(runWithCodeCache(bundle).refreshWanted).toBe(false);
  });

  it('a rebuilt bundle of the same length runs its own code, not the cached one, and replaces the old cache', () => {
    const bundle = writeBundle('a');
    runWithCodeCache(bundle);
    const [before] = cacheFiles();
    writeBundle('b'); // same length: V8 alone would take the old cache
    expect(runWithCodeCache(bundle).outcome).toBe('written');
    expect(runs().map((run) => (run as { tag: string }).tag)).toEqual(['a', 'b']);
    expect(cacheFiles()).toHaveLength(1);
    expect(cacheFiles()[0]).not.toBe(before);
  });

  it('a damaged cache is refused (V8 in release builds does not check its data): compiled from source, written again', () => {
    const bundle = writeBundle('a');
    runWithCodeCache(bundle);
    const cacheFile = codeCacheFile(bundle, readFileSync(bundle));
    const damaged = readFileSync(cacheFile);
    damaged[damaged.length - 9]! ^= 0xff; // inside V8's data, past the header V8 checks
    writeFileSync(cacheFile, damaged);
    expect(runWithCodeCache(bundle).outcome).toBe('written');
    expect(readFileSync(cacheFile).equals(damaged)).toBe(false);
    expect(runWithCodeCache(bundle).outcome).toBe('used');
    writeFileSync(cacheFile, Buffer.alloc(16, 7)); // shorter than its digest
    expect(runWithCodeCache(bundle).outcome).toBe('written');
    expect(runs()).toHaveLength(4);
  });

  it('stack traces point at the bundle\'s own lines', () => {
    const bundle = join(folder, 'throws.cjs');
    writeFileSync(bundle, '"use strict";\n\nthrow new Error("on line 3");\n');
    const error = (() => {
      try {
        runWithCodeCache(bundle);
      } catch (thrown) {
        return thrown as Error;
      }
      return undefined;
    })();
    expect(error?.stack).toContain(`${bundle}:3:7`);
  });

  it('a cache folder that cannot be written leaves the bundle running without a cache', () => {
    const bundle = writeBundle('a');
    const notAFolder = join(folder, 'taken');
    writeFileSync(notAFolder, 'a file where the cache folder would be');
    expect(runWithCodeCache(bundle, notAFolder).outcome).toBe('unwritable');
    const again = runWithCodeCache(bundle, notAFolder);
    expect([again.outcome, again.refreshWanted]).toEqual(['unwritable', false]);
    expect(runs()).toHaveLength(2);
  });

  it('keeps the caches of other Node versions and other flags, and files that are not caches; removes abandoned partial files', () => {
    const bundle = writeBundle('a');
    const source = readFileSync(bundle);
    const cacheFile = codeCacheFile(bundle, source);
    mkdirSync(join(folder, '.cache'));
    const otherNode = `bundle.cjs-v99.0.0-${process.arch}-0123abcd-0123456789abcdef.bin`;
    const otherFlags = basename(codeCacheFile(bundle, source, undefined, [...startFlags(), '--max-old-space-size=4096']));
    const abandoned = `${basename(cacheFile)}.123-abcd.partial`;
    const underWay = `${basename(cacheFile)}.456-ef01.partial`;
    for (const name of [otherNode, otherFlags, 'notes.txt', abandoned, underWay]) writeFileSync(join(folder, '.cache', name), 'x');
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    utimesSync(join(folder, '.cache', abandoned), twoMinutesAgo, twoMinutesAgo);
    runWithCodeCache(bundle);
    expect(cacheFiles().sort()).toEqual([basename(cacheFile), otherNode, otherFlags, underWay, 'notes.txt'].sort());
  });

  it('names the cache by the flags Node started with, so starts with other V8 flags keep a cache of their own', () => {
    const bundle = writeBundle('a');
    const source = readFileSync(bundle);
    const plain = codeCacheFile(bundle, source, undefined, []);
    expect(codeCacheFile(bundle, source, undefined, [])).toBe(plain);
    expect(codeCacheFile(bundle, source, undefined, ['--max-old-space-size=4096'])).not.toBe(plain);
    expect(codeCacheFile(bundle, source, undefined, ['', '--max-semi-space-size=64'])).not.toBe(codeCacheFile(bundle, source, undefined, ['--max-semi-space-size=64', '']));
    expect(codeCacheFile(bundle, source)).toBe(codeCacheFile(bundle, source, undefined, startFlags()));
  });

  it('runs from its files read beforehand and transferred to another thread, moved rather than copied', () => {
    const bundle = writeBundle('a');
    runWithCodeCache(bundle);
    // A bundle this small is read into Node's shared buffer pool: the transfer must not take the pool from this one.
    const neighbour = Buffer.from('a neighbour in the pool');
    const files = readCodeCacheFiles(bundle);
    expect(files.cached?.stage).toBe(0);
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(files, transferablesOf(files));
    const received = receiveMessageOnPort(port2)!.message as CodeCacheFiles;
    port1.close();
    expect(files.source.byteLength).toBe(0); // detached: moved to the receiver
    expect(neighbour.toString()).toBe('a neighbour in the pool');
    expect(runWithCodeCache(received).outcome).toBe('used');
    expect(runs().map((run) => (run as { tag: string }).tag)).toEqual(['a', 'a']);
  });

  it('an error thrown by the bundle reaches the caller, and no cache is written for it', () => {
    const bundle = join(folder, 'failing.cjs');
    writeFileSync(bundle, 'throw new Error("port taken");');
    expect(() => runWithCodeCache(bundle).outcome).toThrow('port taken');
    expect(() => cacheFiles()).toThrow(/ENOENT/);
  });
});
