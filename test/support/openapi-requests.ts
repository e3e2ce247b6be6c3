import fc from 'fast-check';

// Requests made from an OpenAPI document alone, so a check driven by the document covers every operation it lists,
// new ones included: the operations, their parameters, and a request body each one's schema accepts.

/** A JSON Schema as the document gives it (loosely typed: the walker reads what is there). */
export type Schema = Record<string, any>;

export interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  readonly required?: boolean;
  readonly schema?: Schema;
}

export interface Operation {
  readonly operationId: string;
  readonly parameters?: readonly Parameter[];
  readonly requestBody?: { readonly required?: boolean; readonly content: Record<string, { readonly schema: Schema }> };
  readonly responses: Record<string, unknown>;
  /** `[]`: a public operation (no credentials). */
  readonly security?: readonly Record<string, readonly string[]>[];
}

export interface OpenApiDocument {
  readonly paths: Record<string, Record<string, Operation>>;
  readonly components?: { readonly schemas?: Record<string, Schema> };
}

/** One operation of the document with its method and path template. */
export interface OperationRef {
  readonly method: string;
  readonly path: string;
  readonly operation: Operation;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);

/** Every operation of the document. */
export function operationsOf(doc: OpenApiDocument): OperationRef[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).filter(([method]) => METHODS.has(method)).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })));
}

/** The operation's parameters of one kind. */
export const parametersIn = (operation: Operation, where: Parameter['in']): Parameter[] => (operation.parameters ?? []).filter((p) => p.in === where);

/** A schema with its `$ref` followed. */
export function resolve(doc: OpenApiDocument, schema: Schema): Schema {
  let at = schema;
  for (let hops = 0; typeof at.$ref === 'string' && hops < 32; hops++) {
    const name = (at.$ref as string).replace('#/components/schemas/', '');
    at = doc.components?.schemas?.[name] ?? {};
  }
  return at;
}

/** A string matching `pattern` (fast-check, fixed seed): the same one each time, made once per pattern. */
const matching = new Map<string, string>();
function sampleMatching(pattern: string): string {
  let found = matching.get(pattern);
  if (found === undefined) {
    found = fc.sample(fc.stringMatching(new RegExp(pattern)), { numRuns: 1, seed: 7 })[0]!;
    matching.set(pattern, found);
  }
  return found;
}

/** Supplies the value of an object property by its name (an id the check wants sent), or undefined to sample one. */
export type PropertyFill = (name: string, schema: Schema) => unknown;

/** Values for string formats a schema names (the rest are sampled from their pattern or length). */
const FORMATTED: Record<string, string> = {
  date: '2020-01-02', 'date-time': '2020-01-02T03:04:05.000Z', email: 'sample@example.com', uri: 'https://example.com/', url: 'https://example.com/',
  'iso3166-1-alpha-2': 'US', uuid: '00000000-0000-4000-8000-000000000001',
};

/**
 * A value `schema` accepts, as small as the walker can make it: required properties only (plus those `fill` supplies),
 * the first enum value and oneOf branch, the least number allowed, a string matching the pattern (fast-check, fixed
 * seed). Not every domain rule holds for it; the schema's do.
 */
export function sampleValue(doc: OpenApiDocument, schema: Schema, fill: PropertyFill = () => undefined, depth = 0): unknown {
  const s = resolve(doc, schema);
  if (depth > 24) return undefined;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  const branches = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
  if (branches && branches.length > 0 && s.type === undefined) return sampleValue(doc, branches.find((b) => resolve(doc, b).type !== 'null') ?? branches[0]!, fill, depth + 1);
  if (Array.isArray(s.allOf)) {
    return Object.assign({}, ...(s.allOf as Schema[]).map((part) => sampleValue(doc, part, fill, depth + 1)));
  }
  const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set<string>(s.required ?? []);
      for (const [name, property] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) {
        const given = fill(name, property);
        if (given !== undefined) out[name] = given;
        else if (required.has(name)) out[name] = sampleValue(doc, property, fill, depth + 1);
      }
      return out;
    }
    case 'array':
      return Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => sampleValue(doc, s.items ?? {}, fill, depth + 1));
    case 'integer':
    case 'number': {
      const least = s.minimum ?? (s.exclusiveMinimum === undefined ? 1 : s.exclusiveMinimum + 1);
      return Math.min(Math.max(least, 1), s.maximum ?? Number.MAX_SAFE_INTEGER);
    }
    case 'boolean':
      return true;
    case 'string': {
      if (typeof s.format === 'string' && s.format in FORMATTED) return FORMATTED[s.format];
      if (typeof s.pattern === 'string') return sampleMatching(s.pattern);
      return 'x'.repeat(Math.max(1, s.minLength ?? 1));
    }
    default:
      return branches ? sampleValue(doc, branches[0]!, fill, depth + 1) : {};
  }
}

/** A few bytes that pass the sandbox's content check for a PNG image (for a multipart `file`). */
export const SAMPLE_PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

/** The body an operation takes, sampled from its schema: JSON, or a form for multipart; undefined when it takes none. */
export function sampleBody(doc: OpenApiDocument, operation: Operation, fill?: PropertyFill): { json: unknown } | { form: FormData } | undefined {
  const content = operation.requestBody?.content;
  if (!content) return undefined;
  const json = content['application/json'];
  if (json) return { json: sampleValue(doc, json.schema, fill) };
  const multipart = content['multipart/form-data'];
  if (!multipart) return undefined;
  const fields = sampleValue(doc, multipart.schema, fill) as Record<string, unknown>;
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (name === 'file') form.set('file', new Blob([SAMPLE_PNG], { type: 'image/png' }), 'sample.png');
    else form.set(name, String(value));
  }
  return { form };
}
