import { z } from 'zod';
import { API_VERSION, BASE_PATH, type Endpoint } from './endpoint.js';
import { ApiErrorBody } from './errors.js';

/** Options of {@link buildOpenApiDocument}. */
export interface OpenApiOptions {
  /** Server URL including the base path. Default: the standalone server's `http://127.0.0.1:4100/2025-10-13`. */
  serverUrl?: string;
  title?: string;
}

type JsonSchema = Record<string, unknown>;
type Io = 'input' | 'output';

/** Error statuses every operation can answer; 403 for an API token without the permission. */
const COMMON_ERRORS = [400, 401, 403, 404, 405, 413, 500] as const;

const REASONS: Record<number, string> = {
  400: 'Invalid input: details.errors lists every invalid field', 401: 'Missing or invalid credentials', 403: 'Forbidden',
  404: 'Not found', 405: 'Method not allowed', 409: 'Conflict', 410: 'Gone', 412: 'Precondition failed',
  413: 'Body too large', 422: 'Unprocessable', 423: 'Locked', 424: 'Failed dependency', 429: 'Rate limited',
  500: 'Internal error', 501: 'Not implemented', 503: 'Unavailable',
};

/**
 * Builds the OpenAPI 3.1 document of the given endpoints from their zod schemas. Schemas that carry a `.meta({id})`
 * become shared components; everything else is inlined. Request-side schemas are rendered as input (defaults optional),
 * response schemas as output.
 *
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { buildOpenApiDocument, customerEndpoints } from '@railyard/contract';
 *
 * const document = buildOpenApiDocument(customerEndpoints);
 * assert.equal(document.openapi, '3.1.0');
 * assert.ok(Object.keys(document.paths as object).some((path) => path.startsWith('/customers')));
 * ```
 */
export function buildOpenApiDocument(endpoints: Readonly<Record<string, Endpoint>>, options: OpenApiOptions = {}): JsonSchema {
  const components = new SchemaComponents();
  const paths: Record<string, Record<string, unknown>> = {};
  const errorRef = components.add(ApiErrorBody, 'output');

  for (const endpoint of Object.values(endpoints)) {
    const operation: Record<string, unknown> = {
      operationId: endpoint.operationId,
      summary: endpoint.summary,
      tags: [endpoint.tag],
    };
    if (endpoint.description) operation.description = endpoint.description;
    if (endpoint.deprecated) operation.deprecated = true;
    const parameters: unknown[] = [
      ...parametersOf(endpoint.params, 'path', components),
      ...parametersOf(endpoint.query, 'query', components),
    ];
    if (endpoint.idempotencyKey === 'required') {
      parameters.push({
        name: 'Idempotency-Key', in: 'header', required: true, schema: { type: 'string', minLength: 1, maxLength: 255 },
        description: 'Required: a retry with the same key returns the first result; another request under the key is 409.',
      });
    }
    if (parameters.length > 0) operation.parameters = parameters;
    if (endpoint.body) {
      operation.requestBody = {
        required: !endpoint.bodyOptional,
        content: { [endpoint.multipart ? 'multipart/form-data' : 'application/json']: { schema: components.add(endpoint.body, 'input') } },
      };
    }
    const { status, description, schema, contentType } = endpoint.response;
    const responses: Record<string, unknown> = {
      [status]: schema
        ? { description, content: { 'application/json': { schema: components.add(schema, 'output') } } }
        : contentType
          ? { description, content: { [contentType]: { schema: { type: 'string' } } } }
          : { description },
    };
    for (const other of endpoint.alsoResponds ?? []) {
      const ref = components.add(other.schema, 'output');
      const existing = responses[other.status] as { description: string; content?: { 'application/json': { schema: unknown } } } | undefined;
      responses[other.status] = existing?.content
        ? { description: `${existing.description}; or ${other.description}`, content: { 'application/json': { schema: { oneOf: [existing.content['application/json'].schema, ref] } } } }
        : { description: other.description, content: { 'application/json': { schema: ref } } };
    }
    if (endpoint.public || endpoint.auth === 'none') operation.security = [];
    if (endpoint.auth === 'agent') operation.security = [{ AgentAuth: [] }];
    for (const status of new Set([...COMMON_ERRORS, ...(endpoint.errors ?? [])])) {
      responses[status] = { description: REASONS[status] ?? 'Error', content: { 'application/json': { schema: errorRef } } };
    }
    operation.responses = responses;
    // Control-plane paths are documented under the base path, where the client calls them.
    (paths[endpoint.path] ??= {})[endpoint.method.toLowerCase()] = operation;
  }

  return {
    openapi: '3.1.0',
    info: {
      title: options.title ?? 'Payments, onboarding and embedded-wallet API (Railyard)',
      version: API_VERSION,
      description: 'Generated from the @railyard/contract schemas. Paths under /_sandbox/ are the Railyard control plane.',
    },
    servers: [{ url: options.serverUrl ?? `http://127.0.0.1:4100${BASE_PATH}` }],
    security: [{ basicAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        basicAuth: { type: 'http', scheme: 'basic' },
        AgentAuth: { type: 'http', scheme: 'bearer', description: "An agent's access token, from redeeming its device code" },
      },
      schemas: components.schemas,
    },
  };
}

function parametersOf(schema: z.ZodObject | undefined, location: 'path' | 'query', components: SchemaComponents) {
  if (!schema) return [];
  return Object.entries(schema.shape).map(([name, field]) => {
    // Parameters travel as text; their output form says what they mean (an integer 1–100, not "number or digits").
    const rendered = components.add(field as z.ZodType, 'output');
    const required = location === 'path' || !(field as z.ZodType).safeParse(undefined).success;
    const description = (rendered as { description?: string }).description;
    return { name, in: location, required, schema: rendered, ...(description ? { description } : {}) };
  });
}

/**
 * Named schemas shared by the document, with `$defs` references rewritten to `#/components/schemas/…`. Also used by
 * the generator of the zod-free types (src/codegen).
 * @internal
 */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};

  add(schema: z.ZodType, io: Io): JsonSchema {
    const rendered = render(schema, io);
    const { $defs = {}, $schema: _schema, ...root } = rendered as JsonSchema & { $defs?: Record<string, JsonSchema> };
    const renames = new Map<string, string>();
    for (const [name, definition] of Object.entries($defs)) renames.set(name, this.place(name, definition, io));
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (value === null || typeof value !== 'object') return value;
      const out: JsonSchema = {};
      for (const [key, inner] of Object.entries(value)) {
        if (key === '$schema') continue;
        out[key] = key === '$ref' && typeof inner === 'string' && inner.startsWith('#/$defs/')
          ? `#/components/schemas/${renames.get(inner.slice(8)) ?? inner.slice(8)}`
          : rewrite(inner);
      }
      return out;
    };
    for (const name of renames.values()) this.schemas[name] = rewrite(this.schemas[name]) as JsonSchema;
    return rewrite(root) as JsonSchema;
  }

  /**
   * Stores a named definition under its id. When the same named schema is also needed in the other direction and
   * renders differently there (itself or anything it references, e.g. defaults or `additionalProperties`), that
   * rendering gets its own name, `NameInput` or `NameOutput`, whichever direction came second.
   */
  private place(name: string, definition: JsonSchema, io: Io): string {
    const key = `${io}:${name}`;
    let target = this.placed.get(key);
    if (target === undefined) {
      const other = this.placed.get(`${io === 'input' ? 'output' : 'input'}:${name}`);
      target = other === undefined || !this.differsByIo(name) ? (other ?? name) : `${name}${io === 'input' ? 'Input' : 'Output'}`;
      this.placed.set(key, target);
      this.schemas[target] ??= definition;
    }
    return target;
  }

  /** Component name of each (direction, id) already placed. */
  private readonly placed = new Map<string, string>();
  private readonly ioSensitive = new Map<string, boolean>();

  private differsByIo(name: string): boolean {
    let differs = this.ioSensitive.get(name);
    if (differs === undefined) {
      const schema = z.globalRegistry._idmap.get(name);
      differs = schema === undefined || !sameJson(render(schema, 'input'), render(schema, 'output'));
      this.ioSensitive.set(name, differs);
    }
    return differs;
  }
}

const render = (schema: z.ZodType | z.core.$ZodType, io: Io): JsonSchema =>
  z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any', cycles: 'ref', reused: 'inline' }) as JsonSchema;

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
