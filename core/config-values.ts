/**
 * The kinds of config values as zod schemas, each with the error text Witness prints; the shape of
 * an environment variable's entry; and the one place a zod issue becomes a ConfigError naming where
 * the value came from (file + key path, or variable).
 */
import { resolve } from 'node:path';
import { z } from 'zod';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const got = (value: unknown) => `got ${JSON.stringify(value)}`;

/** A non-empty string, trimmed. */
export const text = () => z.string({ error: 'expected a non-empty string' }).trim().min(1);

/** A path: a non-empty string resolved against `base` (the file's folder, or the project root for a variable). */
export const path = (base: string) => text().transform((value) => resolve(base, value));

/** A finite number from `min` to `max`. */
export const num = (min: number, max: number) =>
  z
    .number({ error: (issue) => `expected a number from ${min} to ${max}, ${got(issue.input)}` })
    .min(min)
    .max(max);

/** An integer ≥ `min`. */
export const int = (min: number) =>
  z
    .number({ error: (issue) => `expected an integer ≥ ${min}, ${got(issue.input)}` })
    .int()
    .min(min);

/** A finite number > 0. */
export const positive = () =>
  z.number({ error: (issue) => `expected a positive number, ${got(issue.input)}` }).positive();

export const bool = () => z.boolean({ error: (issue) => `expected true or false, ${got(issue.input)}` });

export const oneOf = <T extends string>(choices: readonly T[]) =>
  z.enum(choices as readonly [T, ...T[]], {
    error: (issue) => `expected one of ${choices.join(', ')}, ${got(issue.input)}`,
  });

/** A file section: every key optional, an unknown key an error listing the known ones. */
export const section = <T extends Record<string, z.ZodType>>(shape: T) =>
  z.strictObject(optional(shape), {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown setting (known: ${Object.keys(shape).join(', ')})`
        : 'expected an object',
  });

function optional<T extends Record<string, z.ZodType>>(shape: T): { [K in keyof T]: z.ZodOptional<T[K]> } {
  return Object.fromEntries(Object.entries(shape).map(([key, value]) => [key, value.optional()])) as {
    [K in keyof T]: z.ZodOptional<T[K]>;
  };
}

/**
 * Runs a parse that reports its problems by throwing an Error whose message starts with `where`
 * (core/selection.ts and core/budget.ts do); the message without that prefix becomes a zod issue.
 */
export function fromThrowing<T>(parse: (where: string) => T, context: z.RefinementCtx): T {
  const where = '\u0000';
  try {
    return parse(where);
  } catch (error) {
    const message = (error as Error).message;
    context.addIssue({ code: 'custom', message: message.startsWith(`${where}: `) ? message.slice(3) : message });
    return z.NEVER;
  }
}

/**
 * How an environment variable sets a key: `name` (the variable) sets `key` (a key path of the
 * config). `read` turns its text into the value: `number` (then the key's schema checks it),
 * `switch` (`1`/`true`, `0`/`false`), `string` (checked by the key's schema), `raw` (as it is),
 * `trimmed` (blank = unset), or a function that throws a ConfigError itself.
 */
export interface EnvSetting {
  name: string;
  key: string;
  read: 'number' | 'switch' | 'string' | 'raw' | 'trimmed' | ((value: string, name: string) => unknown);
  /** The schema of a key the file does not hold (environment only). */
  schema?: z.ZodType;
  /** Applies only while the key is still unset (a lookup of last resort, like JAVA_HOME). */
  fallback?: boolean;
  /** What the variable means, for the reference table, when the key is not in the file. */
  description?: string;
}

/** A variable for a key the file does not hold, checked by `schema`. */
export const envOnly = (
  name: string,
  key: string,
  schema: z.ZodType,
  description: string,
  read: 'string' | 'number' = 'string',
): EnvSetting => ({ name, key, read, schema, description });

/** The value `schema` makes of `value`, or a ConfigError `<where(key path)>: <message>` for its first issue. */
export function parseSetting<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: (keyPath: string) => string,
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = firstIssue(result.error.issues);
  const keys = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] as string] : issue.path;
  throw new ConfigError(`${where(keyPath(keys))}: ${issue.message}`);
}

/**
 * The issue to report. A failed union (a list or a string) reports the alternative the value has
 * the type of: the first whose issue is more than a wrong type at its root, else the last.
 */
function firstIssue(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue {
  const issue = issues[0] as z.core.$ZodIssue;
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return issue;
  const branches = issue.errors.map((branch) => firstIssue(branch));
  const typed = branches.find((b) => !(b.code === 'invalid_type' && b.path.length === 0)) ?? branches.at(-1);
  return { ...(typed as z.core.$ZodIssue), path: [...issue.path, ...(typed as z.core.$ZodIssue).path] };
}

/** `a.b[0].c`, as the messages name a key. */
function keyPath(keys: readonly PropertyKey[]): string {
  return keys.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`)).join('');
}
