/**
 * Is a 200 body a usable chat completion? The openai client retries HTTP failures but takes any
 * 200 as final, so a truncated, non-JSON or empty reply would end the call at once. This decides
 * which bodies are broken (a transient fault of the endpoint or a proxy, worth a retry) and says
 * what was wrong. A reply whose message carries no text (`content: ""`, or `null` with a refusal
 * or a tool call) is *not* broken: the model answered, it just said nothing usable.
 */

const PREVIEW = 60;

/** What is wrong with a 200 body, or null when it is a chat completion with a first choice and a message. */
export function brokenReplyProblem(text: string, contentType: string | null): string | null {
  if (text.trim() === '') return 'an empty body';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const trimmed = text.trimStart();
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
      return `truncated or malformed JSON (${(error as Error).name}: ${(error as Error).message})`;
    }
    return `a body that is not JSON (${contentType ?? 'no content-type'}: ${preview(text)})`;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return `JSON that is not a chat completion (${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value})`;
  }
  const record = value as { choices?: unknown; error?: unknown };
  if (!Array.isArray(record.choices) || record.choices.length === 0) {
    const error = record.error as { message?: unknown } | undefined;
    const said = error && typeof error.message === 'string' ? `; its error says: ${preview(error.message)}` : '';
    return `no choices${said}`;
  }
  const choice: unknown = record.choices[0];
  const message = choice && typeof choice === 'object' ? (choice as { message?: unknown }).message : undefined;
  if (!message || typeof message !== 'object') return 'a choice without a message';
  const content = (message as { content?: unknown }).content;
  if (content !== undefined && content !== null && typeof content !== 'string') {
    return `a message whose content is not text (${Array.isArray(content) ? 'an array' : typeof content})`;
  }
  return null;
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW ? `${flat.slice(0, PREVIEW)}…` : flat;
}
