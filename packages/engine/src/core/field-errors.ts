import { splitUnknownFields, type FieldConstraint, type FieldError } from '@railyard/contract';
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

/** Joins a zod path into the dot path of a FieldError (`address.country`, `currencies.0`). */
const dotPath = (prefix: string | undefined, path: PropertyKey[]): string =>
  [prefix, ...path.map(String)].filter((p) => p !== undefined && p !== '').join('.');

const typeName = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' && !Number.isFinite(value) ? 'a non-finite number' : typeof value;

/**
 * Turns zod issues into FieldErrors: one per field, with the constraint that failed (REFERENCE §11). Messages describe
 * the value without repeating the field name (`must be …`), since every FieldError carries its `field`.
 */
export function toFieldErrors(issues: readonly Issue[], prefix?: string): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({ field: dotPath(prefix, [...issue.path, key]), message: 'is not a field of this request' });
      }
      continue;
    }
    if (issue.code === 'invalid_union' && !('discriminator' in issue) && messageOf(issue, '') !== ''
      && issue.errors.every((branch) => branch.every((e) => e.path.length === 0))) {
      // Alternatives of one value (a timestamp or a date): the union's own message names them all.
      out.push({ field: dotPath(prefix, issue.path) || 'body', message: messageOf(issue, '') });
      continue;
    }
    if (issue.code === 'invalid_union' && issue.errors.every((e) => e.length > 0) && issue.errors.length > 0 && !('discriminator' in issue)) {
      // Report the branch that got furthest, rather than a bare "invalid input".
      const best = issue.errors.reduce((a, b) => (b.length < a.length ? b : a));
      out.push(...toFieldErrors(best, dotPath(prefix, issue.path)));
      continue;
    }
    out.push(describe(issue, dotPath(prefix, issue.path)));
  }
  return dedupeFieldErrors(out);
}

function describe(issue: Issue, field: string): FieldError {
  const name = field || 'body';
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return { field: name, message: 'is required', constraint: { required: true } };
      return { field: name, message: `must be ${article(issue.expected)}, not ${typeName(issue.input)}`, constraint: { type: issue.expected } };
    }
    case 'invalid_format': {
      const constraint: FieldConstraint = issue.format === 'regex' || issue.format === 'starts_with' || issue.format === 'ends_with'
        ? { pattern: stripSlashes(issue.pattern) }
        : { format: issue.format };
      return { field: name, message: messageOf(issue, 'is not in the expected format'), constraint };
    }
    case 'invalid_value':
      return {
        field: name,
        message: `must be one of ${issue.values.map(String).join(', ')}`,
        constraint: { enum: issue.values.map(String) },
      };
    case 'too_small':
    case 'too_big': {
      const bound = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
      const isLength = issue.origin === 'string' || issue.origin === 'array' || issue.origin === 'set';
      const constraint: FieldConstraint = isLength
        ? issue.code === 'too_small' ? { minLength: bound } : { maxLength: bound }
        : issue.code === 'too_small' ? { minimum: bound } : { maximum: bound };
      const unit = issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : '';
      const relation = issue.code === 'too_small' ? 'at least' : 'at most';
      return { field: name, message: `must be ${relation} ${bound}${unit}`, constraint };
    }
    case 'invalid_union': {
      const options = 'options' in issue && Array.isArray(issue.options) ? (issue.options as unknown[]).map(String) : undefined;
      return options
        ? { field: name, message: `must be one of ${options.join(', ')}`, constraint: { enum: options } }
        : { field: name, message: messageOf(issue, 'matches none of the accepted shapes') };
    }
    case 'not_multiple_of':
      return { field: name, message: `must be a multiple of ${String(issue.divisor)}` };
    case 'custom': {
      const constraint = (issue.params as { constraint?: FieldConstraint } | undefined)?.constraint;
      return constraint ? { field: name, message: issue.message, constraint } : { field: name, message: issue.message };
    }
    default:
      return { field: name, message: messageOf(issue, 'is invalid') };
  }
}

/** Our schemas carry readable messages ("must be …"); zod's defaults start with "Invalid". */
function messageOf(issue: Issue, fallback: string): string {
  return issue.message && !/^Invalid/.test(issue.message) ? issue.message : fallback;
}

const article = (word: string) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);
const stripSlashes = (pattern: string | undefined) => (pattern ?? '').replace(/^\/(.*)\/[a-z]*$/, '$1');

/** One FieldError per field and message (schema and domain checks may both see a problem). */
export function dedupeFieldErrors(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const key = `${e.field}\u0000${e.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The message of a field a request schema does not know (listed only for a platform in strict mode). */
export const UNKNOWN_FIELD_MESSAGE = 'is not a field of this request (unknown, or read-only); strict mode refuses it';

/**
 * The fields of `value` that `schema` does not know, as FieldErrors for a platform in strict mode, and the value
 * without them (what the domain checks see). Lenient platforms ignore such fields, as the reference does.
 */
export function unknownFieldsOf<T>(schema: z.ZodType, value: T, prefix?: string): { known: T; errors: FieldError[] } {
  const { known, paths } = splitUnknownFields(schema, value);
  return { known, errors: paths.map((path) => ({ field: prefix ? `${prefix}.${path}` : path, message: UNKNOWN_FIELD_MESSAGE })) };
}
