/**
 * One pass over the structure of a JSON text — its brackets and braces outside strings, and its
 * strings whole — each character read once, so hostile input costs linear time and no recursion.
 * Text that is not JSON is scanned all the same: the answer is about its brackets, and JSON.parse
 * then judges it.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * What the scan meets: a bracket or brace (`code` is its character code, `end` is `at`), or a
 * string (`code` is the quote's; `at` is its opening quote, `end` its closing one, or the text's
 * length when it is not closed). Returning true stops the scan there.
 */
export type JsonVisitor = (code: number, at: number, end: number) => boolean;

/** Scans `text` from `from`; the index where `visit` stopped it, or -1 when it reached the end. */
export function scanJson(text: string, from: number, visit: JsonVisitor): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let end = i + 1;
      for (; end < text.length; end++) {
        const d = text.charCodeAt(end);
        if (d === BACKSLASH)
          end++; // the next character is escaped
        else if (d === QUOTE) break;
      }
      end = Math.min(end, text.length);
      if (visit(c, i, end)) return i;
      i = end;
    } else if (c === OPEN_BRACE || c === CLOSE_BRACE || c === OPEN_BRACKET || c === CLOSE_BRACKET) {
      if (visit(c, i, i)) return i;
    }
  }
  return -1;
}

/** Whether a character code opens an array or an object. */
export const opensNesting = (code: number) => code === OPEN_BRACE || code === OPEN_BRACKET;

/** Whether a character code closes an array or an object. */
export const closesNesting = (code: number) => code === CLOSE_BRACE || code === CLOSE_BRACKET;

/**
 * The first `{…}` at or after `from` whose braces balance outside strings (brackets are not
 * counted), or null when there is none or it is not closed.
 */
export function firstJsonObject(text: string, from = 0): string | null {
  const start = text.indexOf('{', from);
  if (start < 0) return null;
  let depth = 0;
  const end = scanJson(text, start, (code) => {
    if (code === OPEN_BRACE) depth++;
    else if (code === CLOSE_BRACE) return --depth === 0;
    return false;
  });
  return end < 0 ? null : text.slice(start, end + 1);
}

/** Whether a JSON text nests arrays and objects more than `maxDepth` levels deep. */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  return (
    scanJson(text, 0, (code) => {
      if (opensNesting(code)) return ++depth > maxDepth;
      if (closesNesting(code)) depth--;
      return false;
    }) >= 0
  );
}
