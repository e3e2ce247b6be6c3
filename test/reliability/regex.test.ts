import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine } from '@railyard/engine';
import { checkSync } from 'recheck';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { answerText } from '../../packages/engine/src/testing/requests.js';
import { recordFigures } from '../support/figures.js';
import { operationsOf, parametersIn, resolve, sampleValue, type OpenApiDocument, type Schema } from '../support/openapi-requests.js';

// Regular expressions against hostile input. Every pattern the packages ship (each literal in their sources, and every
// pattern of the OpenAPI document, which holds the ones built at run time) is checked by recheck, a ReDoS analyser:
// each must be linear, so no input can make it backtrack. Then the engine answers 100 kB adversarial strings in every
// string field, query parameter and path parameter of every operation, and the slowest answer is printed.
// The per-answer target (< 10 ms) is a speed figure: `pnpm bench` runs this check with RAILYARD_ADVERSARIAL_TARGET_MS=10,
// timing each request as the best of three (a schema compiled on its 16th use, or a collection, is not the input's
// doing). In the test suite the bound is what catastrophic backtracking would break (seconds), so a loaded CI machine
// cannot fail it. RAILYARD_ADVERSARIAL_OUT=file writes the figures as JSON (the bench reads them).

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TARGET_MS = Number(process.env.RAILYARD_ADVERSARIAL_TARGET_MS ?? 1_000);
const TRIES = process.env.RAILYARD_ADVERSARIAL_TARGET_MS === undefined ? 1 : 3;

/** Every regular-expression literal in the packages' shipped sources (tests excluded), with where it is. */
function shippedRegexLiterals(): { where: string; source: string; flags: string }[] {
  const found: { where: string; source: string; flags: string }[] = [];
  const visitDir = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visitDir(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
        const visit = (node: ts.Node) => {
          if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
            const text = node.getText(file);
            const end = text.lastIndexOf('/');
            found.push({ where: `${relative(ROOT, path)}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}`, source: text.slice(1, end), flags: text.slice(end + 1) });
          }
          ts.forEachChild(node, visit);
        };
        visit(file);
      }
    }
  };
  for (const pkg of readdirSync(join(ROOT, 'packages'))) visitDir(join(ROOT, 'packages', pkg, 'src'));
  return found;
}

/** Every `pattern` of a JSON document, at any depth. */
function patternsOf(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((item) => patternsOf(item, out));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'pattern' && typeof inner === 'string') out.add(inner);
      else patternsOf(inner, out);
    }
  }
  return out;
}

/** recheck's verdict: `safe` with its complexity, or what makes it vulnerable. */
function verdict(source: string, flags: string): { safe: boolean; says: string } {
  const result = checkSync(source, flags, { timeout: 10_000 });
  if (result.status === 'safe') return { safe: true, says: result.complexity.type };
  if (result.status === 'vulnerable') return { safe: false, says: `${result.complexity.type}, e.g. ${result.attack.pattern}` };
  return { safe: false, says: `not decided: ${result.error.kind}` };
}

/** 100 kB strings shaped to make a backtracking pattern fail late: long runs of what patterns repeat, then a misfit. */
const ADVERSARIAL: readonly string[] = [
  `${'a'.repeat(100_000)}!`, `${'0'.repeat(100_000)}x`, `${' '.repeat(100_000)}x`, `${'a.'.repeat(50_000)}@`, `${'-'.repeat(100_000)}\u0000`,
  `${'x@x.'.repeat(25_000)}@`, `${'A1'.repeat(50_000)}-`, `${'=/'.repeat(50_000)}x`, `$${'a'.repeat(100_000)}@`, `${'é'.repeat(50_000)}\u0301`,
];

describe('regular expressions', () => {
  it('every pattern the packages ship and the document lists is linear (recheck)', ({ task }) => {
    const literals = shippedRegexLiterals();
    const engine = createEngine();
    const documentPatterns = [...patternsOf(engine.openapi())];
    engine.close();
    const vulnerable: string[] = [];
    const complexities = new Map<string, number>();
    for (const { where, source, flags } of literals) {
      const { safe, says } = verdict(source, flags);
      if (!safe) vulnerable.push(`${where} /${source}/${flags}: ${says}`);
      complexities.set(says, (complexities.get(says) ?? 0) + 1);
    }
    for (const pattern of documentPatterns) {
      const { safe, says } = verdict(pattern, 'u');
      if (!safe) vulnerable.push(`document pattern ${pattern}: ${says}`);
      complexities.set(says, (complexities.get(says) ?? 0) + 1);
    }
    recordFigures(task, {
      'literals checked': literals.length, 'document patterns checked': documentPatterns.length, vulnerable: vulnerable.length,
      verdicts: [...complexities].map(([says, n]) => `${says} ${n}`).join(', '),
    });
    // The check reads the sources: it found the literals there are (a scan that found none would prove nothing).
    expect(literals.length).toBeGreaterThan(100);
    expect(vulnerable).toEqual([]);
  }, 120_000);

  it('the engine answers 100 kB adversarial strings in every string field, query and path parameter promptly', async ({ task }) => {
    const engine = createEngine();
    const auth = `Basic ${btoa('sandbox-client-id:sandbox-client-secret')}`;
    const doc = engine.openapi() as unknown as OpenApiDocument;
    const send = async (method: string, path: string, body?: unknown) => {
      const request = new Request(`http://x.test/2025-10-13${path}`, {
        method, headers: { authorization: auth, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      // Timed from the engine's side: building the Request (parsing a 300 kB URL) is the test's own work.
      const started = performance.now();
      const response = await engine.fetch(request);
      await answerText(response);
      return { status: response.status, ms: performance.now() - started };
    };
    const times: number[] = [];
    const serverErrors: string[] = [];
    let slowest = { ms: 0, what: '' };
    for (const { method, path, operation } of operationsOf(doc)) {
      const json = operation.requestBody?.content['application/json']?.schema as Schema | undefined;
      const base = json ? sampleValue(doc, json) : undefined;
      // Where a hostile string can go: each string property of the sampled body, each query and path parameter.
      const targets: { label: string; request: (value: string) => [string, unknown] }[] = [];
      if (typeof base === 'object' && base !== null && !Array.isArray(base)) {
        // Every property the schema names (optional ones too), and whatever the sample holds (a union's branch).
        const properties = Object.keys((resolve(doc, json!).properties ?? {}) as object);
        for (const name of new Set([...Object.keys(base), ...properties])) {
          targets.push({ label: `body.${name}`, request: (value) => [path.replace(/\{[^{}]+\}/g, 'x'), { ...base, [name]: value }] });
        }
      }
      for (const parameter of parametersIn(operation, 'query')) {
        targets.push({ label: `?${parameter.name}`, request: (value) => [`${path.replace(/\{[^{}]+\}/g, 'x')}?${parameter.name}=${encodeURIComponent(value)}`, base] });
      }
      for (const parameter of parametersIn(operation, 'path')) {
        targets.push({ label: `{${parameter.name}}`, request: (value) => [path.replace(`{${parameter.name}}`, encodeURIComponent(value)).replace(/\{[^{}]+\}/g, 'x'), base] });
      }
      for (const target of targets) {
        for (const value of ADVERSARIAL) {
          const [url, body] = target.request(value);
          let answer = await send(method.toUpperCase(), url, method === 'GET' ? undefined : body);
          for (let tried = 1; tried < TRIES; tried++) {
            const again = await send(method.toUpperCase(), url, method === 'GET' ? undefined : body);
            if (again.ms < answer.ms) answer = again;
          }
          times.push(answer.ms);
          if (answer.status >= 500) serverErrors.push(`${method} ${path} ${target.label} → ${answer.status}`);
          if (answer.ms > slowest.ms) slowest = { ms: answer.ms, what: `${method} ${path} ${target.label} (${value.slice(0, 6)}…)` };
        }
      }
    }
    engine.close();
    times.sort((a, b) => a - b);
    const figures = {
      requests: times.length, '5xx': serverErrors.length, 'median ms': times[Math.floor(times.length / 2)]!.toFixed(2),
      'p99 ms': times[Math.floor(times.length * 0.99)]!.toFixed(2), 'slowest ms': slowest.ms.toFixed(2), slowest: slowest.what, 'bound ms': TARGET_MS,
    };
    recordFigures(task, figures);
    if (process.env.RAILYARD_ADVERSARIAL_OUT) writeFileSync(process.env.RAILYARD_ADVERSARIAL_OUT, JSON.stringify(figures));
    expect(serverErrors).toEqual([]);
    expect(times.length).toBeGreaterThan(1_000);
    expect(slowest.ms, slowest.what).toBeLessThan(TARGET_MS);
  }, 300_000);
});
