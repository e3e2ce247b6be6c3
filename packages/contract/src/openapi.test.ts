import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { endpoints } from './endpoints.js';
import { buildOpenApiDocument } from './openapi.js';

const document = buildOpenApiDocument(endpoints) as any;

/** Every `$ref` in the document, with where it appears. */
function refsOf(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refsOf(v, out));
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') out.push(inner);
      else refsOf(inner, out);
    }
  }
  return out;
}

describe('OpenAPI document', () => {
  it('validates as OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('marks exactly the deprecated endpoints deprecated', () => {
    const marked = Object.values(document.paths).flatMap((ops: any) => Object.values(ops).filter((op: any) => op.deprecated === true).map((op: any) => op.operationId));
    expect(marked.sort()).toEqual(Object.values(endpoints).filter((e) => (e as { deprecated?: boolean }).deprecated).map((e) => e.operationId).sort());
    expect(marked).toEqual(expect.arrayContaining(['getKycLinkLegacy', 'listQuotes', 'webhookTestLegacy', 'transferIn', 'transferOut']));
    expect(Object.values(document.paths).flatMap((ops: any) => Object.values(ops)).every((op: any) => op.deprecated === undefined || op.deprecated === true)).toBe(true);
  });

  it('has one operation per endpoint, with its operationId', () => {
    const operationIds = Object.values(document.paths).flatMap((ops: any) => Object.values(ops).map((op: any) => op.operationId));
    expect(operationIds.sort()).toEqual(Object.keys(endpoints).sort());
    expect(document.paths['/customers/{customerId}'].patch.operationId).toBe('updateCustomer');
  });

  it('resolves every $ref', () => {
    const refs = refsOf(document);
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(document.components.schemas[ref.slice('#/components/schemas/'.length)], ref).toBeDefined();
    }
  });

  it('describes the customer create body, the error object and parameters from the schemas', () => {
    const create = document.paths['/customers'].post;
    expect(create.requestBody.required).toBe(true);
    const individual = document.components.schemas.IndividualCustomerCreateRequest;
    expect(individual.required).toEqual(['customerType']);
    expect(individual.properties.customerType).toEqual({ type: 'string', const: 'INDIVIDUAL' });
    expect(create.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Customer' });
    expect(create.responses['409'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(document.components.schemas.Error.required).toEqual(['status', 'code', 'message']);

    const list = document.paths['/customers'].get;
    const limit = list.parameters.find((p: any) => p.name === 'limit');
    expect(limit).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } });
    const id = document.paths['/customers/{customerId}'].get.parameters[0];
    expect(id).toMatchObject({ name: 'customerId', in: 'path', required: true });
  });

  it('stores a named schema once per distinct rendering', () => {
    const schemas = document.components.schemas;
    for (const name of Object.keys(schemas)) {
      const base = name.replace(/(Input|Output)$/, '');
      if (base !== name && schemas[base]) expect(JSON.stringify(schemas[name]), name).not.toBe(JSON.stringify(schemas[base]));
    }
    // Responses that reuse Customer or InternalAccount refer to one component, not copies.
    expect(schemas.CustomerOutput).toBeUndefined();
    expect(schemas.InternalAccountOutput).toBeUndefined();
    expect(document.paths['/customers/{customerId}'].delete.responses['200'].content['application/json'].schema)
      .toEqual({ $ref: '#/components/schemas/Customer' });
  });

  it('documents HTTP Basic security and the versioned server', () => {
    expect(document.components.securitySchemes.basicAuth).toEqual({ type: 'http', scheme: 'basic' });
    expect(document.servers[0].url).toBe('http://127.0.0.1:4100/2025-10-13');
    expect(document.info.version).toBe('2025-10-13');
  });

  it('documents the other answers of signed operations: the 202 challenge and 200 PROCESSING', () => {
    const add = document.paths['/auth/credentials'].post.responses;
    expect(add['202'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/SignedRetryChallenge' });
    expect(add['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/WalletOperationProcessing' });
    const patch = document.paths['/internal-accounts/{accountId}'].patch.responses['200'].content['application/json'].schema;
    expect(patch.oneOf).toEqual([{ $ref: '#/components/schemas/InternalAccount' }, { $ref: '#/components/schemas/WalletOperationProcessing' }]);
    expect(document.paths['/quotes'].post.responses['202']).toBeDefined();
  });

  it('marks Idempotency-Key required on the stablecoin creates only, and documents their 503', () => {
    const requiring = Object.entries(document.paths as Record<string, Record<string, { parameters?: { name: string; in: string; required?: boolean }[] }>>)
      .flatMap(([path, methods]) => Object.entries(methods).filter(([, op]) => op.parameters?.some((p) => p.name === 'Idempotency-Key' && p.in === 'header' && p.required)).map(([method]) => `${method.toUpperCase()} ${path}`));
    expect(requiring.sort()).toEqual(['POST /stablecoin-provider-accounts', 'POST /stablecoins', 'POST /stablecoins/{stablecoinId}/burns', 'POST /stablecoins/{stablecoinId}/mints']);
    expect(document.paths['/stablecoins/{stablecoinId}/mints'].post.responses['503']).toBeDefined();
    expect(document.paths['/stablecoins/{stablecoinId}/mints'].post.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/StablecoinOperation' });
  });
});
