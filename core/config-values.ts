/** Checks of single config values; each error names where the value came from (file + key path, or variable). */

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** `where` is the value's source: `<file>: <key path>` or the environment variable's name. */
export function object(value: unknown, where: string): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ConfigError(`${where}: expected an object`);
  return value as Record<string, unknown>;
}

export function text(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new ConfigError(`${where}: expected a non-empty string`);
  return value.trim();
}

export function num(value: unknown, where: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new ConfigError(`${where}: expected a number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return value;
}

export function int(value: unknown, where: string, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new ConfigError(`${where}: expected an integer ≥ ${min}, got ${JSON.stringify(value)}`);
  }
  return value;
}

export function bool(value: unknown, where: string): boolean {
  if (typeof value !== 'boolean')
    throw new ConfigError(`${where}: expected true or false, got ${JSON.stringify(value)}`);
  return value;
}

export function positive(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new ConfigError(`${where}: expected a positive number, got ${JSON.stringify(value)}`);
  return value;
}

export function oneOf<T extends string>(value: unknown, choices: readonly T[], where: string): T {
  if (typeof value !== 'string' || !choices.includes(value as T)) {
    throw new ConfigError(`${where}: expected one of ${choices.join(', ')}, got ${JSON.stringify(value)}`);
  }
  return value as T;
}

/** Unknown keys of a file section are errors listing the known ones. */
export function onlyKnown(
  raw: Record<string, unknown>,
  known: readonly string[],
  where: (key: string) => string,
): void {
  for (const key of Object.keys(raw))
    if (!known.includes(key)) throw new ConfigError(`${where(key)}: unknown setting (known: ${known.join(', ')})`);
}
