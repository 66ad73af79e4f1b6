/**
 * The agent proposer's file tools over one search run's store: list, read (by lines), grep and
 * write. Every path is confined to the run folder (confine.ts; the held-out results are a sibling
 * folder, out of reach); writes go only into the given candidates' folders, never over the files
 * the search itself writes there, and never turn a file of the candidate into a folder or a folder
 * into a file. Each tool returns the observation text the agent is shown.
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { confine, ConfinementError } from '../../../core/paths-inside.ts';
import { CANDIDATE_FILES, SEARCH_WRITES, type MetaHarnessStore } from '../store.ts';
import type { ProposerAction } from './actions.ts';
import { MatchTimeoutError, timedMatcher } from './match-lines.ts';

/** Limits of the tools, so no observation floods the agent's context. */
export const TOOL_LIMITS = {
  listEntries: 300,
  lineChars: 2000,
  observationChars: 20_000,
  grepPatternChars: 200,
  grepMatches: 100,
  /** Time one grep's pattern may run, over all files. */
  grepMs: 2000,
  grepFileBytes: 1 << 20,
  readFileBytes: 32 << 20,
  writeBytes: 256 * 1024,
} as const;

export interface ToolResult {
  ok: boolean;
  observation: string;
  /** The store-relative path a write created or replaced. */
  wrote?: string;
}

export interface ToolContext {
  store: MetaHarnessStore;
  /** The candidates of this iteration: the only folders a write may go into. */
  candidateIds: readonly string[];
  /** Single files a write may also create (absolute, inside the store): the iteration's report. */
  writableFiles?: readonly string[];
}

/** Runs one action (anything but `done`) and returns what the agent sees. */
export function runTool(context: ToolContext, action: Exclude<ProposerAction, { action: 'done' }>): ToolResult {
  try {
    switch (action.action) {
      case 'list':
        return list(context, action.path);
      case 'read':
        return read(context, action.path, action.offset, action.limit);
      case 'grep':
        return grep(context, action.pattern, action.path);
      case 'write':
        return write(context, action.path, action.content);
    }
  } catch (error) {
    if (error instanceof ConfinementError) return refused(`${error.message}: tools see only the search run's folder`);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return refused(`${action.path}: no such file or folder`);
    return refused(`${action.path}: ${code ?? (error as Error).message}`);
  }
}

const refused = (observation: string): ToolResult => ({ ok: false, observation: `error: ${observation}` });

const shown = (context: ToolContext, absolute: string) =>
  relative(context.store.root, absolute).split(sep).join('/') || '.';

function cap(text: string): string {
  if (text.length <= TOOL_LIMITS.observationChars) return text;
  return `${text.slice(0, TOOL_LIMITS.observationChars)}\n[cut at ${TOOL_LIMITS.observationChars} characters: read a smaller range]`;
}

function list(context: ToolContext, path: string): ToolResult {
  const dir = confine(context.store.root, path);
  if (!statSync(dir).isDirectory()) return refused(`${path}: is a file, not a folder (read it instead)`);
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  const lines = entries.slice(0, TOOL_LIMITS.listEntries).map((e) => {
    if (e.isDirectory()) return `${e.name}/`;
    if (e.isSymbolicLink()) return `${e.name} (symbolic link)`;
    return `${e.name} (${lstatSync(join(dir, e.name)).size} bytes)`;
  });
  const more = entries.length > lines.length ? `\n[${entries.length - lines.length} more entries not shown]` : '';
  const header = `${shown(context, dir)}/: ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}`;
  return { ok: true, observation: cap([header, ...lines].join('\n') + more) };
}

function read(context: ToolContext, path: string, offset: number, limit: number): ToolResult {
  const file = confine(context.store.root, path);
  const stat = statSync(file);
  if (stat.isDirectory()) return refused(`${path}: is a folder (list it instead)`);
  if (stat.size > TOOL_LIMITS.readFileBytes)
    return refused(
      `${path}: ${stat.size} bytes is more than the ${TOOL_LIMITS.readFileBytes} read can open; grep a smaller file`,
    );
  const lines = readFileSync(file, 'utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (offset >= lines.length && lines.length > 0)
    return refused(`${path}: offset ${offset} is past the end (${lines.length} lines)`);
  const slice = lines.slice(offset, offset + limit).map((line, i) => `${offset + i}: ${clip(line)}`);
  const end = offset + slice.length;
  const header = `${shown(context, file)}: lines ${offset}-${Math.max(offset, end - 1)} of ${lines.length} (0-based)`;
  const more = end < lines.length ? `\n[more: read with offset ${end}]` : '';
  return { ok: true, observation: cap([header, ...slice].join('\n') + more) };
}

const clip = (line: string) =>
  line.length > TOOL_LIMITS.lineChars ? `${line.slice(0, TOOL_LIMITS.lineChars)}[… line cut]` : line;

function grep(context: ToolContext, pattern: string, path: string): ToolResult {
  if (pattern.length > TOOL_LIMITS.grepPatternChars)
    return refused(`the pattern is longer than ${TOOL_LIMITS.grepPatternChars} characters`);
  let regex: RegExp;
  try {
    regex = new RegExp(pattern);
  } catch (error) {
    return refused(`the pattern is not a valid JavaScript regular expression: ${(error as Error).message}`);
  }
  const start = confine(context.store.root, path);
  const matcher = timedMatcher(regex, TOOL_LIMITS.grepMs);
  const matches: string[] = [];
  let truncated = false;
  let skipped = 0;
  const visit = (absolute: string): void => {
    if (truncated) return;
    const stat = lstatSync(absolute);
    if (stat.isSymbolicLink()) return; // never followed: a link could lead outside the store
    if (stat.isDirectory()) {
      for (const name of readdirSync(absolute).sort()) visit(join(absolute, name));
      return;
    }
    if (!stat.isFile()) return;
    if (stat.size > TOOL_LIMITS.grepFileBytes) {
      skipped++;
      return;
    }
    const text = readFileSync(absolute, 'utf8');
    if (text.includes('\0')) return;
    const lines = text.split('\n').map((line) => line.slice(0, TOOL_LIMITS.lineChars));
    const hits = matcher.match(lines, TOOL_LIMITS.grepMatches - matches.length + 1);
    for (const i of hits) {
      if (matches.length === TOOL_LIMITS.grepMatches) {
        truncated = true;
        return;
      }
      matches.push(`${shown(context, absolute)}:${i}: ${(lines[i] as string).slice(0, 300)}`);
    }
  };
  try {
    visit(start);
  } catch (error) {
    if (error instanceof MatchTimeoutError) return refused(error.message);
    throw error;
  }
  const over =
    skipped > 0
      ? `; ${skipped} file${skipped === 1 ? '' : 's'} over ${TOOL_LIMITS.grepFileBytes >> 20} MiB skipped (read them)`
      : '';
  const header = `${matches.length}${truncated ? '+' : ''} matching line${matches.length === 1 ? '' : 's'} (line numbers 0-based${over})`;
  const more = truncated ? `\n[stopped at ${TOOL_LIMITS.grepMatches} matches: narrow the pattern or the path]` : '';
  return { ok: true, observation: cap([header, ...matches].join('\n') + more) };
}

function write(context: ToolContext, path: string, content: string): ToolResult {
  const target = confine(context.store.root, path);
  const bytes = Buffer.byteLength(content);
  if (bytes > TOOL_LIMITS.writeBytes)
    return refused(`${path}: ${bytes} bytes is more than the ${TOOL_LIMITS.writeBytes} a file may have`);
  if (context.writableFiles?.some((file) => confine(context.store.root, file) === target))
    return writeFile(context, target, content);
  const allowed = context.candidateIds.map((id) => context.store.candidateDir(id));
  const home = allowed.find((dir) => {
    try {
      confine(dir, target);
      return target !== dir;
    } catch {
      return false;
    }
  });
  if (home === undefined)
    return refused(
      `${path}: writes go only into this iteration's candidate folders (${[
        ...allowed.map((d) => `${shown(context, d)}/`),
        ...(context.writableFiles ?? []).map((f) => shown(context, f)),
      ].join(', ')})`,
    );
  const parts = relative(home, target).split(sep);
  const first = parts[0] as string;
  if (SEARCH_WRITES.includes(first)) return refused(`${path}: ${first} is written by the search, not the proposer`);
  if (CANDIDATE_FILES.includes(first) && parts.length > 1)
    return refused(`${path}: ${first} is a file of the candidate, it cannot hold other files`);
  const blocked = notAFolder(home, parts.slice(0, -1));
  if (blocked) return refused(`${path}: ${shown(context, blocked)} is a file, not a folder`);
  if (lstatSync(target, { throwIfNoEntry: false })?.isDirectory())
    return refused(`${path}: is a folder, not a file (a write replaces a file)`);
  return writeFile(context, target, content);
}

/** The first of the folders on the way below `home` that exists and is not a folder. */
function notAFolder(home: string, folders: readonly string[]): string | null {
  let at = home;
  for (const name of folders) {
    at = join(at, name);
    const stat = lstatSync(at, { throwIfNoEntry: false });
    if (stat === undefined) return null;
    if (!stat.isDirectory()) return at;
  }
  return null;
}

function writeFile(context: ToolContext, target: string, content: string): ToolResult {
  mkdirSync(dirname(target), { recursive: true });
  const temp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(temp, content);
  renameSync(temp, target);
  const name = shown(context, target);
  return { ok: true, observation: `wrote ${name} (${Buffer.byteLength(content)} bytes)`, wrote: name };
}
