/**
 * Test support: text from outside that tries to take over where Witness shows it — a terminal
 * (escape sequences, control characters, bidi overrides) or Markdown (lines that start headings,
 * lists or quotes, raw HTML that closes a `<details>`, backticks that close code, pipes that split
 * cells, links). Every such text must come out inert: shown as itself, changing nothing around it.
 */
export const HOSTILE_TEXTS: readonly { name: string; text: string }[] = [
  { name: 'colours and a cleared screen', text: '\u001b[2J\u001b[H\u001b[31mred\u001b[0m text' },
  { name: 'a window title (OSC ended by BEL)', text: 'before\u001b]0;pwned\u0007after' },
  {
    name: 'a hyperlink (OSC 8 ended by ESC \\)',
    text: '\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\',
  },
  { name: 'an 8-bit CSI', text: 'cleared\u009b2J' },
  { name: 'a sequence cut short', text: 'cut\u001b[12;' },
  { name: 'backspaces and a bell', text: 'ab\b\bXY\u0007' },
  { name: 'a bidi override', text: 'invoice\u202Etxt.exe' },
  { name: 'a CR-started heading', text: 'ok\r# Injected heading' },
  { name: 'an LF-started heading', text: 'ok\n## Injected heading' },
  { name: 'a CRLF-started list item', text: 'ok\r\n- injected item' },
  { name: 'a LINE SEPARATOR heading', text: 'ok\u2028# Injected heading' },
  { name: 'a heading', text: '# Injected heading' },
  { name: 'a quote', text: '> quoted' },
  { name: 'a list item', text: '- listed' },
  { name: 'a numbered item', text: '12. numbered' },
  { name: 'a setext rule', text: '===' },
  { name: 'an indented code block', text: '        indented' },
  { name: 'a closing details tag', text: '</details><details open><summary>taken over' },
  { name: 'raw HTML', text: '<img src=x onerror=alert(1)><script>alert(1)</script>&amp;' },
  { name: 'backticks', text: '``` fence and `code` and `` two' },
  { name: 'a trailing backtick', text: 'ends with `' },
  { name: 'pipes', text: 'a | b || c' },
  { name: 'a link and an image', text: '[click](https://evil.example) ![x](https://evil.example/x.png)' },
  { name: 'emphasis', text: '**bold** _it_ ~~gone~~ \\*' },
];

/** Anything a terminal acts on: C0 controls (but LF and tab), DEL, C1 controls, bidi marks and overrides. */
export const TERMINAL_ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** The tag names of rendered HTML, in order (opening tags only). */
export const htmlTags = (html: string): string[] => [...html.matchAll(/<([a-z0-9]+)[\s>]/g)].map((m) => m[1] as string);

/** The text of rendered HTML, trimmed: tags dropped, the entities a renderer writes decoded. */
export const htmlText = (html: string): string =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .trim();
