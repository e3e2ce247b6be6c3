/**
 * Turns the JSON Schemas the contract renders from its zod schemas into TypeScript declarations, so the client's
 * declaration files name every type (`Customer`, not an expanded structure) and need no zod to type-check.
 * @module
 */

type JsonSchema = Record<string, unknown>;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (name: string) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));
const literal = (value: unknown) => (typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : JSON.stringify(value));
const union = (members: string[]) => {
  const unique = [...new Set(members)];
  return unique.length === 0 ? 'never' : unique.length === 1 ? unique[0]! : unique.map((m) => (m.includes('=>') ? `(${m})` : m)).join(' | ');
};
/** A member of an intersection or array element, parenthesized when it is a union. */
const atom = (type: string) => (/[|&]/.test(type) && !/^[{[]/.test(type) ? `(${type})` : type);

/** A TSDoc comment for a schema's description, indented, or nothing. */
export function doc(schema: unknown, indent = ''): string {
  const description = (schema as JsonSchema | undefined)?.description;
  if (typeof description !== 'string' || description.trim() === '') return '';
  const lines = description.replace(/\*\//g, '*\\/').split('\n');
  return lines.length === 1 ? `${indent}/** ${lines[0]} */\n` : `${indent}/**\n${lines.map((l) => `${indent} * ${l}`.trimEnd()).join('\n')}\n${indent} */\n`;
}

/**
 * Converts JSON Schemas to TypeScript type expressions. `refName` maps a `$ref` (`#/components/schemas/X`) to the
 * declared name of that component.
 */
export class TypeWriter {
  constructor(private readonly refName: (ref: string) => string, private readonly components: Record<string, JsonSchema>) {}

  /** The type expression of a schema. */
  type(schema: unknown, indent = ''): string {
    if (schema === true || schema === undefined) return 'unknown';
    if (schema === false) return 'never';
    const s = schema as JsonSchema;
    if (typeof s.$ref === 'string') return this.refName(s.$ref);
    if ('const' in s) return literal(s.const);
    if (Array.isArray(s.enum)) return union(s.enum.map(literal));
    const alternatives = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
    if (alternatives) {
      const base = this.withoutCombinators(s);
      const alts = union(alternatives.map((a) => this.type(a, indent)));
      return base === undefined ? alts : `${atom(this.type(base, indent))} & (${alts})`;
    }
    if (Array.isArray(s.allOf)) return s.allOf.map((part) => atom(this.type(part, indent))).join(' & ');
    if (Array.isArray(s.type)) return union(s.type.map((t) => this.type({ ...s, type: t }, indent)));
    switch (s.type) {
      case 'string': return 'string';
      case 'number': case 'integer': return 'number';
      case 'boolean': return 'boolean';
      case 'null': return 'null';
      case 'array': return this.array(s, indent);
      case 'object': return this.object(s, indent);
      default:
        if (s.properties) return this.object(s, indent);
        if (s.not !== undefined && Object.keys(s.not as object).length === 0) return 'never';
        return 'unknown';
    }
  }

  /** Whether a schema renders as an object literal with named properties (declared as an interface). */
  isInterface(schema: JsonSchema): boolean {
    return Object.keys((schema.properties ?? {}) as object).length > 0 && !schema.anyOf && !schema.oneOf
      && !schema.allOf && (schema.additionalProperties === undefined || schema.additionalProperties === false) && schema.propertyNames === undefined;
  }

  /**
   * A query's fields as a caller writes them: where the contract coerces (a value it does not constrain) any string,
   * number or boolean; a `'true' | 'false'` flag also takes a boolean (the query string carries either as text).
   */
  queryObject(s: JsonSchema): string {
    return this.object(s, '', (type) => (type === 'unknown' ? 'string | number | boolean' : type === "'true' | 'false'" ? "'true' | 'false' | boolean" : type));
  }

  /** The body of an interface (`{ … }`) for an object schema. */
  object(s: JsonSchema, indent = '', field: (type: string) => string = (type) => type): string {
    const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((s.required ?? []) as string[]);
    const names = Object.keys(properties);
    const additional = s.additionalProperties;
    if (s.propertyNames !== undefined && names.length === 0) {
      const keys = this.type(s.propertyNames, indent);
      const value = this.type(additional === undefined || additional === false ? {} : additional, indent);
      if (keys === 'string') return `{ [key: string]: ${value} }`;
      const exhaustive = required.size > 0;
      return `{ [K in ${keys}]${exhaustive ? '' : '?'}: ${value} }`;
    }
    if (names.length === 0) {
      if (additional === false) return 'Record<string, never>';
      return `{ [key: string]: ${additional === undefined || additional === true ? 'unknown' : this.type(additional, indent)} }`;
    }
    const inner = `${indent}  `;
    const lines = names.map((name) => `${doc(properties[name], inner)}${inner}${key(name)}${required.has(name) ? '' : '?'}: ${field(this.type(properties[name], inner))};`);
    if (additional !== undefined && additional !== false && additional !== true) {
      lines.push(`${inner}[key: string]: ${this.type(additional, inner)} | ${union(names.map((n) => this.type(properties[n], inner)))} | undefined;`);
    }
    return `{\n${lines.join('\n')}\n${indent}}`;
  }

  private array(s: JsonSchema, indent: string): string {
    if (Array.isArray(s.prefixItems)) {
      const fixed = s.prefixItems.map((item) => this.type(item, indent));
      const rest = s.items === undefined || s.items === false ? [] : [`...${atom(this.type(s.items, indent))}[]`];
      return `[${[...fixed, ...rest].join(', ')}]`;
    }
    return `${atom(this.type(s.items, indent))}[]`;
  }

  /** The schema without its anyOf/oneOf, when it says anything else about the value (shared properties). */
  private withoutCombinators(s: JsonSchema): JsonSchema | undefined {
    const { anyOf: _a, oneOf: _o, description: _d, default: _f, title: _t, ...rest } = s;
    return Object.keys(rest).some((k) => k === 'properties' || k === 'allOf') ? rest : undefined;
  }
}
