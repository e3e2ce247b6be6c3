import type { z } from 'zod';
import { schemaDefOf as defOf, type SchemaDef as Def } from './schema-def.js';

/** What {@link splitUnknownFields} found in a request value. */
export interface UnknownFields<T = unknown> {
  /** The value without the fields its schema does not know (a copy where anything was removed). */
  readonly known: T;
  /** Dot paths of the removed fields, e.g. `accountInfo.platformAccountId`, `supportedCurrencies.0.providerRequiredCustomerFields`. */
  readonly paths: readonly string[];
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Splits a request value into what its schema knows and the fields it does not (unknown fields, and read-only fields
 * of a resource sent back in a request). Request schemas ignore such fields, as the reference service does; a platform
 * in strict mode is told about them instead (a typo in a test is caught that way).
 *
 * Follows objects, arrays, records, optional/nullable/default wrappers, pipes and unions (a discriminated union by its
 * discriminator, another union by the first option the value satisfies). A value the schema refuses for another reason
 * is left as it is: validation reports that.
 */
export function splitUnknownFields<T>(schema: z.ZodType, value: T): UnknownFields<T> {
  const paths: string[] = [];
  const known = walk(schema, value, [], paths) as T;
  return { known, paths };
}

/**
 * `path` is the way from the top to `value`, one stack shared by the whole walk (pushed before a field is walked, popped
 * after): every request body is walked, and a path is written out only for an unknown field.
 */
function walk(schema: z.ZodType, value: unknown, path: string[], out: string[]): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      if (!isPlainObject(value)) return value;
      const shape = def.shape ?? {};
      const open = def.catchall !== undefined && defOf(def.catchall).type !== 'never';
      let copy: Record<string, unknown> | undefined;
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
        if (field === undefined && !open) {
          out.push(path.length === 0 ? key : `${path.join('.')}.${key}`);
          copy ??= { ...value };
          delete copy[key];
          continue;
        }
        path.push(key);
        const next = walk(field ?? def.catchall!, value[key], path, out);
        path.pop();
        if (next !== value[key]) (copy ??= { ...value })[key] = next;
      }
      return copy ?? value;
    }
    case 'array': {
      if (!Array.isArray(value) || def.element === undefined) return value;
      let copy: unknown[] | undefined;
      for (let index = 0; index < value.length; index++) {
        const item: unknown = value[index];
        path.push(String(index));
        const next = walk(def.element, item, path, out);
        path.pop();
        if (next !== item) (copy ??= [...value])[index] = next;
      }
      return copy ?? value;
    }
    case 'record': {
      if (!isPlainObject(value) || def.valueType === undefined) return value;
      let copy: Record<string, unknown> | undefined;
      for (const [key, item] of Object.entries(value)) {
        path.push(key);
        const next = walk(def.valueType, item, path, out);
        path.pop();
        if (next !== item) (copy ??= { ...value })[key] = next;
      }
      return copy ?? value;
    }
    case 'union': {
      const option = unionOption(def, value);
      return option ? walk(option, value, path, out) : value;
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return value === undefined || value === null || def.innerType === undefined ? value : walk(def.innerType, value, path, out);
    case 'pipe':
      return def.in === undefined ? value : walk(def.in, value, path, out);
    case 'lazy':
      return def.getter === undefined ? value : walk(def.getter(), value, path, out);
    default:
      return value;
  }
}

/** The option of a union that describes `value`: by discriminator, else the first the value satisfies. */
function unionOption(def: Def, value: unknown): z.ZodType | undefined {
  const options = def.options ?? [];
  if (def.discriminator !== undefined) {
    if (!isPlainObject(value)) return undefined;
    const tag = value[def.discriminator];
    return options.find((option) => {
      const values = (option as unknown as { _zod: { propValues?: Record<string, Set<unknown>> } })._zod.propValues?.[def.discriminator!];
      return values?.has(tag) === true;
    });
  }
  return options.find((option) => option.safeParse(value).success);
}
