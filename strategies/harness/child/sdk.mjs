// The harness SDK's runtime inside the sandbox: what a candidate's `import … from 'witness-harness'`
// resolves to. Plain JavaScript, so the child needs no compiler. Its types are in ../sdk/witness-harness.d.ts.

/** A budget of the episode is spent (calls, tokens, observes, time or memory); catch it to return what you have. */
export class BudgetExceededError extends Error {
  constructor(resource, message) {
    super(message);
    this.name = 'BudgetExceededError';
    this.resource = resource;
  }
}

/** The SDK was used against its rules (e.g. chat before answer, answer twice). */
export class HarnessUsageError extends Error {
  constructor(message) {
    super(message);
    this.name = 'HarnessUsageError';
  }
}

/** The model call failed after the client's retries; the episode may go on. */
export class ModelCallFailedError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ModelCallFailedError';
  }
}

/** Declares a harness: checks its shape and returns it unchanged. */
export function defineHarness(definition) {
  if (typeof definition !== 'object' || definition === null) throw new TypeError('defineHarness: expected an object');
  if (typeof definition.name !== 'string' || !definition.name.trim())
    throw new TypeError('defineHarness: `name` must be a non-empty string');
  if (typeof definition.solve !== 'function') throw new TypeError('defineHarness: `solve` must be a function');
  return Object.freeze({ ...definition, [Symbol.for('witness.harness')]: true });
}

/** A text clipped to `maxChars`, with a note of how much was cut. */
export function clipText(text, maxChars = 1500) {
  return text.length > maxChars ? `${text.slice(0, maxChars)}\n… (${text.length - maxChars} more characters)` : text;
}

/** The observation as one text block: `ok [rows, columns]` and the output, or `error (kind): message`. */
export function formatObservation(observation, maxChars = 1500) {
  if (!observation.ok)
    return `error (${observation.error?.kind ?? 'runtime'}): ${clipText(observation.error?.message ?? 'unknown error', maxChars)}`;
  const shape = observation.shape
    ? [
        observation.shape.rows !== undefined ? `${observation.shape.rows} rows` : '',
        observation.shape.columns !== undefined ? `${observation.shape.columns} columns` : '',
      ]
        .filter(Boolean)
        .join(', ')
    : '';
  return `ok${shape ? ` [${shape}]` : ''}\n${clipText(observation.output, maxChars)}`;
}

/** The first balanced `{…}` in a text (strings respected), or null. */
export function firstJsonObject(text) {
  const start = text.indexOf('{');
  if (start < 0) return null;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  return null;
}

/** The first balanced `{…}` in a text, parsed; null when there is none or it does not parse. */
export function parseJsonObject(text) {
  const json = firstJsonObject(text);
  if (json === null) return null;
  try {
    return JSON.parse(json);
  } catch {
    return null;
  }
}
