import { describe, expect, it } from 'vitest';
import { bundleForBrowser, nodeBuiltInImports } from './support/browser-bundle.js';

// `setupWorker(...createHandlers(createEngine()))` must bundle for the browser: the main and msw entries of the built
// engine pull in no Node built-in (the standalone server lives in @railyard/engine/server). Runs against dist/.

describe('the engine in a browser bundle', () => {
  it('createEngine and createHandlers bundle with platform browser and import no Node built-in', async () => {
    const { code, metafile } = await bundleForBrowser(`
      import { createEngine } from '@railyard/engine';
      import { createHandlers } from '@railyard/engine/msw';
      export const handlers = createHandlers(createEngine(), { origin: 'https://api.example.test' });
    `);
    const inputs = Object.keys(metafile.inputs);
    // The built packages went in, not their sources.
    expect(inputs).toContainEqual(expect.stringMatching(/^packages\/engine\/dist\/index\.js$/));
    expect(inputs).toContainEqual(expect.stringMatching(/^packages\/engine\/dist\/msw\.js$/));
    expect(inputs.filter((input) => input.startsWith('packages/') && input.includes('/src/'))).toEqual([]);
    expect(nodeBuiltInImports(metafile)).toEqual([]);
    expect(code).toContain('https://api.example.test');
  });

  it('the server entry is where the Node built-ins are: bundling it for the browser fails on them', async () => {
    const failure = await bundleForBrowser(`export { startServer } from '@railyard/engine/server';`).then(
      () => undefined,
      (error: { errors?: { text: string }[] }) => error.errors?.map((e) => e.text) ?? [],
    );
    // (tsup writes the built-ins without their node: prefix)
    expect(failure).toContainEqual(expect.stringMatching(/^Could not resolve "(node:)?http"/));
  });
});
