/**
 * Text from outside (dataset items, model replies, candidate harnesses, proposals) made inert where
 * Witness shows it: `terminalSafe` for a terminal (no escape sequence, control character or bidi
 * override can move the cursor, retitle the window, clear the screen or reorder what follows),
 * `markdownText` / `markdownCode` for Markdown (no new line, heading, quote, list, table cell, HTML
 * or link can start inside it), and `jsonForTerminal` for JSON printed to a terminal. Each is one
 * pass over the text (a scanner, or a global replace of a one-character class): linear time
 * whatever the input.
 */

const ESC = 0x1b;
const BEL = 0x07;
/** C1 controls that open a sequence (8-bit CSI, OSC, DCS, SOS, PM, APC). */
const C1_CSI = 0x9b;
const C1_STRINGS = new Set([0x90, 0x98, 0x9d, 0x9e, 0x9f]);
const C1_ST = 0x9c;

/** Bidirectional marks, embeddings, overrides and isolates (the "Trojan Source" characters). */
const isBidi = (c: number) =>
  c === 0x061c || c === 0x200e || c === 0x200f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);

/** C0 and C1 controls and DEL, the line breaks and tab included (callers keep those they want). */
const isControl = (c: number) => c < 0x20 || (c >= 0x7f && c <= 0x9f);

/** End of a CSI sequence starting at `i` (just after ESC [ or 8-bit CSI): past its final byte, or at a character that cannot be in it. */
function csiEnd(text: string, i: number): number {
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c >= 0x40 && c <= 0x7e) return i + 1; // final byte
    if (c < 0x20 || c > 0x3f) return i; // not a parameter or intermediate byte: the sequence was cut
    i++;
  }
  return i;
}

/** End of a string sequence (OSC, DCS, …) starting at `i`: past BEL, ST or ESC \, or at a line break. */
function stringEnd(text: string, i: number): number {
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === BEL || c === C1_ST) return i + 1;
    if (c === ESC) return text.charCodeAt(i + 1) === 0x5c ? i + 2 : i;
    if (c === 0x0a) return i;
    i++;
  }
  return i;
}

/** End of the escape sequence whose ESC is at `i`. */
function escapeEnd(text: string, i: number): number {
  const next = text.charCodeAt(i + 1);
  if (next === 0x5b) return csiEnd(text, i + 2); // ESC [
  if (next === 0x5d || next === 0x50 || next === 0x58 || next === 0x5e || next === 0x5f) return stringEnd(text, i + 2); // ESC ] P X ^ _
  let j = i + 1;
  while (j < text.length && text.charCodeAt(j) >= 0x20 && text.charCodeAt(j) <= 0x2f) j++; // intermediates
  const final = text.charCodeAt(j);
  return final >= 0x30 && final <= 0x7e ? j + 1 : j;
}

/**
 * `text` without terminal escape sequences (CSI, OSC and the other string sequences, 7- and
 * 8-bit), C0 and C1 controls and bidi overrides; `\n` and `\t` stay. Whatever follows a removed
 * sequence is kept as text.
 */
export function terminalSafe(text: string): string {
  let out = '';
  let kept = 0; // start of the run of plain characters not yet copied
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    let end = -1;
    if (c === ESC) end = escapeEnd(text, i);
    else if (c === C1_CSI) end = csiEnd(text, i + 1);
    else if (C1_STRINGS.has(c)) end = stringEnd(text, i + 1);
    else if ((isControl(c) && c !== 0x0a && c !== 0x09) || isBidi(c)) end = i + 1;
    if (end === -1) {
      i++;
      continue;
    }
    out += text.slice(kept, i);
    i = Math.max(end, i + 1);
    kept = i;
  }
  return kept === 0 ? text : out + text.slice(kept);
}

/** Line breaks Markdown (or a viewer) may honour — CR LF, CR, LF, NEL, LINE and PARAGRAPH SEPARATOR — and tab. */
const LINE_BREAKS = /\r\n|[\r\n\u0085\u2028\u2029\t]/g;

/** `terminalSafe` on one line: every line break or tab a space (an item of a list cannot fake the next one). */
export function terminalLine(text: string): string {
  return terminalSafe(text.replace(LINE_BREAKS, ' '));
}

/** Characters backslashed wherever they are: code, emphasis, links, table cells. */
const BACKSLASHED = /[\\`*_[\]|~]/g;

/**
 * `text` as inert inline Markdown, on one line: what is shown is the text itself. Line breaks
 * become spaces; backslash, backticks, `*`, `_`, `[`, `]`, `|` and `~` are backslash-escaped; `<`
 * and `&` become entities (no HTML, no autolink); leading spaces go, and a leading `#`, `>`, `-`,
 * `+`, `=` or `1.` (a heading, quote, list or rule where the text starts a line) is escaped. Safe
 * in table cells.
 */
export function markdownText(text: string): string {
  const flat = terminalLine(text).trimStart(); // four leading spaces would start a code block
  const out = flat.replace(BACKSLASHED, '\\$&').replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const lead = /^(?:[#>+=-]|\d{1,9}(?=[.)]))/.exec(out)?.[0];
  if (!lead) return out;
  return /^\d/.test(lead) ? `${lead}\\${out.slice(lead.length)}` : `\\${out}`;
}

/**
 * `text` as a Markdown code span on one line: fenced by one more backtick than its longest run of
 * backticks, padded with spaces when it starts or ends with one, so the text cannot close it.
 * Outside a table only: in a cell, a `|` inside still splits it (use `markdownText` there).
 */
export function markdownCode(text: string): string {
  const flat = terminalLine(text);
  let longest = 0;
  let run = 0;
  for (let i = 0; i < flat.length; i++) {
    run = flat.charCodeAt(i) === 0x60 ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  if (flat === '') return '` `';
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') || (flat.startsWith(' ') && flat.endsWith(' ')) ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** JSON of `value` for a terminal: C1 controls and bidi overrides inside strings as `\u` escapes (JSON.stringify leaves them raw). */
export function jsonForTerminal(value: unknown, indent = 2): string {
  const json = JSON.stringify(value, null, indent) ?? 'null';
  let out = '';
  let kept = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if ((c >= 0x7f && c <= 0x9f) || isBidi(c)) {
      out += `${json.slice(kept, i)}\\u${c.toString(16).padStart(4, '0')}`;
      kept = i + 1;
    }
  }
  return kept === 0 ? json : out + json.slice(kept);
}
