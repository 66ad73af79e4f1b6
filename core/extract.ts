/**
 * Finding the program in a model reply: fenced code blocks first, preferring the expected language.
 *
 * A hand-written scanner, linear in the reply's length (a regex with a lazy body and a
 * backreference to the fence took seconds to minutes on replies full of unclosed fences). It finds
 * the same blocks the CommonMark-like rule below always did:
 * - an opening line is `[ \t]*` then a run of 3+ backticks or tildes, then anything, then a newline;
 * - the block closes at the first later line (not the very next one: the body has at least one
 *   line) that holds only `[ \t]*`, a run of the same character of the same length, `[ \t]*`;
 * - when no line closes the whole run, shorter runs of it are tried (longest first), which then
 *   carry no language; an opening line that closes nothing is ordinary text;
 * - after the last closed block, the first opening line whose body does not contain its fence
 *   counts as an unterminated final block (a truncated reply), its body with trailing whitespace
 *   removed.
 */

export interface CodeBlock {
  language: string;
  body: string;
}

const MIN_FENCE = 3;
const TAB = 9;
const NEWLINE = 10;
const SPACE = 32;
const BACKTICK = 96;
const TILDE = 126;

/**
 * The lines whose first non-blank character starts a fence (3+ backticks or tildes), as columns in
 * typed arrays sized for the most fence lines a reply of this length can hold (pushing onto plain
 * arrays was most of the scan's time on replies made of fence lines).
 */
interface FenceLines {
  count: number;
  /** Where the line starts and ends (its newline, or the reply's end). */
  start: Int32Array;
  end: Int32Array;
  /** The fence character's code and the run's length and end. */
  char: Int32Array;
  run: Int32Array;
  runEnd: Int32Array;
  /** 1 when the line holds only the run and spaces or tabs: it can close a block of this fence. */
  pure: Uint8Array;
}

const isBlank = (code: number) => code === SPACE || code === TAB;

/** `[\w+#.-]`: ASCII letters, digits and `_ + # . -`. */
function isLanguageChar(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    code === 0x5f ||
    code === 0x2b ||
    code === 0x23 ||
    code === 0x2e ||
    code === 0x2d
  );
}

function fenceLines(reply: string): FenceLines {
  // A fence line holds at least MIN_FENCE characters and, unless it is the last, a newline.
  const most = Math.floor((reply.length + 1) / (MIN_FENCE + 1)) + 1;
  const lines: FenceLines = {
    count: 0,
    start: new Int32Array(most),
    end: new Int32Array(most),
    char: new Int32Array(most),
    run: new Int32Array(most),
    runEnd: new Int32Array(most),
    pure: new Uint8Array(most),
  };
  for (let start = 0; ;) {
    const newline = reply.indexOf('\n', start);
    const end = newline === -1 ? reply.length : newline;
    let i = start;
    while (i < end && isBlank(reply.charCodeAt(i))) i++;
    const char = reply.charCodeAt(i);
    if (i < end && (char === BACKTICK || char === TILDE)) {
      let runEnd = i;
      while (runEnd < end && reply.charCodeAt(runEnd) === char) runEnd++;
      if (runEnd - i >= MIN_FENCE) {
        let rest = runEnd;
        while (rest < end && isBlank(reply.charCodeAt(rest))) rest++;
        const f = lines.count++;
        lines.start[f] = start;
        lines.end[f] = end;
        lines.char[f] = char;
        lines.run[f] = runEnd - i;
        lines.runEnd[f] = runEnd;
        lines.pure[f] = rest === end ? 1 : 0;
      }
    }
    if (newline === -1) return lines;
    start = newline + 1;
  }
}

function languageAfter(reply: string, from: number, end: number): string {
  let i = from;
  while (i < end && isBlank(reply.charCodeAt(i))) i++;
  const start = i;
  while (i < end && isLanguageChar(reply.charCodeAt(i))) i++;
  return reply.slice(start, i).toLowerCase();
}

/** All fenced blocks in order of appearance. An unterminated final fence still counts. */
export function codeBlocks(reply: string): CodeBlock[] {
  const lines = fenceLines(reply);
  // Lines that can close a block, by fence (character and length): each pure line links to the next
  // of its fence, and a pointer per fence only moves forward.
  const keyOf = (char: number, run: number) => run * 2 + (char === BACKTICK ? 0 : 1);
  const nextOfFence = new Int32Array(lines.count);
  const closers = new Map<number, number>();
  for (let f = lines.count - 1; f >= 0; f--) {
    if (!lines.pure[f]) continue;
    const key = keyOf(lines.char[f] as number, lines.run[f] as number);
    nextOfFence[f] = closers.get(key) ?? -1;
    closers.set(key, f);
  }
  const closerFrom = (char: number, run: number, position: number): number | null => {
    const key = keyOf(char, run);
    let f = closers.get(key);
    if (f === undefined) return null;
    while (f !== -1 && (lines.start[f] as number) < position) f = nextOfFence[f] as number;
    closers.set(key, f);
    return f === -1 ? null : f;
  };

  const blocks: CodeBlock[] = [];
  let tail = 0;
  for (let f = 0; f < lines.count && closers.size > 0; f++) {
    const end = lines.end[f] as number;
    if (end === reply.length) break; // only a line followed by a newline opens a block
    // The body has at least one line: a closing line starts after the next newline.
    const bodyEnd = reply.indexOf('\n', end + 1);
    if (bodyEnd === -1) break;
    const char = lines.char[f] as number;
    for (let run = lines.run[f] as number; run >= MIN_FENCE; run--) {
      const close = closerFrom(char, run, bodyEnd + 1);
      if (close === null) continue;
      const language = run === lines.run[f] ? languageAfter(reply, lines.runEnd[f] as number, end) : '';
      blocks.push({ language, body: reply.slice(end + 1, (lines.start[close] as number) - 1) });
      tail = close + 1;
      f = close;
      break;
    }
  }
  for (let f = tail; f < lines.count; f++) {
    const end = lines.end[f] as number;
    if (end === reply.length) break;
    const body = reply.slice(end + 1);
    const fence = String.fromCharCode(lines.char[f] as number).repeat(lines.run[f] as number);
    if (!body.includes(fence))
      blocks.push({ language: languageAfter(reply, lines.runEnd[f] as number, end), body: body.trimEnd() });
    break;
  }
  return blocks;
}

/**
 * The block to use: a block whose language is one of `languages`, else an unlabelled block, else
 * any block. `which` picks the last (default: models often show a draft first and the answer last)
 * or the first (DSCodeBench's rule) among those.
 */
export function pickCodeBlock(
  reply: string,
  languages: readonly string[],
  which: 'first' | 'last' = 'last',
): CodeBlock | null {
  const blocks = codeBlocks(reply);
  const wanted = new Set(languages.map((l) => l.toLowerCase()));
  const choose = (list: CodeBlock[]) => (which === 'first' ? list[0] : list.at(-1));
  return (
    choose(blocks.filter((b) => wanted.has(b.language))) ??
    choose(blocks.filter((b) => b.language === '')) ??
    choose(blocks) ??
    null
  );
}
