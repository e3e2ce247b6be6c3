import { ALL_ERROR_CODES, ERROR_CODES } from '@railyard/contract';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Every error the engine answers is an ApiError (the HTTP layer maps nothing else but a 500). This test reads the
// engine's sources with the TypeScript checker, finds every `new ApiError(status, code, …)`, and collects the codes
// its `code` argument can hold: each must be a documented code of the contract (SPEC §7, REFERENCE §11) listed under
// that status. A code typed `string`, `any` or `never` (a cast, a computed string) fails the test, since nobody could
// then say what it emits.

const root = fileURLToPath(new URL('../../../..', import.meta.url));
const program = ts.createProgram([fileURLToPath(new URL('../index.ts', import.meta.url)), fileURLToPath(new URL('../msw.ts', import.meta.url))], {
  target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true,
  noEmit: true, skipLibCheck: true, baseUrl: root,
  paths: { '@railyard/contract': ['packages/contract/src/index.ts'] },
});
const checker = program.getTypeChecker();
const engineSources = program.getSourceFiles().filter((f) => f.fileName.includes('/packages/engine/src/') && !f.fileName.endsWith('.test.ts'));

interface Emission { readonly where: string; readonly status: string; readonly codes: readonly string[]; readonly opaque?: string }

function literalStrings(type: ts.Type): string[] | undefined {
  const parts = type.isUnion() ? type.types : [type];
  const out: string[] = [];
  for (const part of parts) {
    if (part.flags & ts.TypeFlags.Undefined) continue; // `code ?? 'INVALID_INPUT'` and optional codes
    if (!part.isStringLiteral()) return undefined;
    out.push(part.value);
  }
  return out.length > 0 ? out : undefined;
}

function statusOf(expression: ts.Expression): string {
  if (ts.isNumericLiteral(expression)) return expression.text;
  const type = checker.getTypeAtLocation(expression);
  return type.isNumberLiteral() ? String(type.value) : checker.typeToString(type);
}

const emissions: Emission[] = [];
for (const source of engineSources) {
  const visit = (node: ts.Node) => {
    if (ts.isNewExpression(node) && node.expression.getText(source) === 'ApiError' && node.arguments && node.arguments.length >= 2) {
      const [status, code] = node.arguments as unknown as [ts.Expression, ts.Expression];
      const where = `${source.fileName.slice(root.length)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
      const type = checker.getTypeAtLocation(code);
      const codes = literalStrings(type);
      emissions.push(codes ? { where, status: statusOf(status), codes } : { where, status: statusOf(status), codes: [], opaque: checker.typeToString(type) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

describe('the codes the engine can emit', () => {
  it('are found in every area of the engine', () => {
    expect(engineSources.length).toBeGreaterThan(50);
    expect(emissions.length).toBeGreaterThan(40);
    const codes = new Set(emissions.flatMap((e) => e.codes));
    console.log(`error codes: ${emissions.length} ApiError constructions in ${engineSources.length} engine files can emit ${codes.size} distinct codes`);
  });

  it('each construction names its codes as literals, never a string of unknown value', () => {
    expect(emissions.filter((e) => e.opaque !== undefined).map((e) => `${e.where}: ${e.opaque}`)).toEqual([]);
  });

  it('each code is a documented code of the contract, under its status', () => {
    const all = new Set<string>(ALL_ERROR_CODES);
    const misplaced: string[] = [];
    for (const { where, status, codes } of emissions) {
      const forStatus = (ERROR_CODES as Record<string, readonly string[]>)[status];
      for (const code of codes) {
        if (!all.has(code)) misplaced.push(`${where}: ${code} is not a documented code`);
        // A helper with a status parameter (e.g. 400 | 422) is checked against the union of those statuses.
        else if (forStatus !== undefined && !forStatus.includes(code)) misplaced.push(`${where}: ${code} is not a ${status} code`);
      }
    }
    expect(misplaced).toEqual([]);
  });
});
