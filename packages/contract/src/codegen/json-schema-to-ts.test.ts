import { describe, expect, it } from 'vitest';
import { TypeWriter } from './json-schema-to-ts.js';

const writer = new TypeWriter((ref) => ref.replace('#/components/schemas/', ''), {});

describe('JSON Schema to TypeScript', () => {
  it('writes references, literals, enums, unions and nullables', () => {
    expect(writer.type({ $ref: '#/components/schemas/Customer' })).toBe('Customer');
    expect(writer.type({ const: "it's" })).toBe("'it\\'s'");
    expect(writer.type({ enum: ['A', 'B'] })).toBe("'A' | 'B'");
    expect(writer.type({ anyOf: [{ type: 'string' }, { type: 'null' }] })).toBe('string | null');
    expect(writer.type({ type: ['integer', 'null'] })).toBe('number | null');
    expect(writer.type({})).toBe('unknown');
  });

  it('writes arrays, tuples and records', () => {
    expect(writer.type({ type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } })).toBe('(string | number)[]');
    expect(writer.type({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'boolean' }] })).toBe('[string, boolean]');
    expect(writer.type({ type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'number' } })).toBe('{ [key: string]: number }');
    expect(writer.type({ type: 'object', propertyNames: { enum: ['a', 'b'] }, additionalProperties: { type: 'number' } })).toBe("{ [K in 'a' | 'b']?: number }");
    expect(writer.type({ type: 'object', properties: {}, additionalProperties: false })).toBe('Record<string, never>');
  });

  it('writes objects with optional fields and their descriptions, and query fields as a caller writes them', () => {
    const schema = {
      type: 'object',
      properties: { id: { type: 'string', description: 'The id.' }, 'x-note': { type: 'string' } },
      required: ['id'],
    };
    expect(writer.isInterface(schema)).toBe(true);
    expect(writer.object(schema)).toBe("{\n  /** The id. */\n  id: string;\n  \"x-note\"?: string;\n}");
    const query = { type: 'object', properties: { flag: { type: 'string', enum: ['true', 'false'] }, any: {} } };
    expect(writer.queryObject(query)).toBe("{\n  flag?: 'true' | 'false' | boolean;\n  any?: string | number | boolean;\n}");
  });
});
