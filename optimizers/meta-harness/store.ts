/**
 * The Meta-Harness store: one folder per search run, `<storeDir>/meta-harness/<runId>/`, the
 * proposer's whole world (docs/meta-harness.md#store-layout):
 *
 *   candidates/<id>/harness.ts, proposal.json, validation.json, scores.json, traces/<name>.json
 *   evolution.jsonl            one row per evaluated candidate
 *   frontier.json              the current Pareto frontier
 *   proposer/<iteration>/      the proposer's transcripts
 *   reports/iteration-<n>.md   a short report per iteration
 *
 * Held-out test results live in the sibling `<runId>.heldout/`, outside what `confine(root, …)`
 * lets the proposer reach, and may only be written once the search is marked finished. Every write
 * is atomic (temp file + rename in the same folder); every id and name is checked (no separators,
 * no `..`); every record read back is checked and a mismatch names the file.
 */
import {
  appendFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { dirname, join } from 'node:path';
import {
  checked,
  checkEvolutionRow,
  checkFrontier,
  checkHeldOut,
  checkProposal,
  checkScores,
  checkValidation,
  StoreRecordError,
  type EvolutionRow,
  type FrontierRecord,
  type HeldOutRecord,
  type ProposalRecord,
  type ScoresRecord,
  type ValidationRecord,
} from './store-records.ts';

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,79}$/;

/** Checks an id or file name used as one path segment (letters, digits, '_' and '-'; at most 80). */
export function checkName(kind: string, name: string): string {
  if (!NAME.test(name))
    throw new Error(
      `${kind} ${JSON.stringify(name)} must be 1 to 80 letters, digits, '_' or '-', starting with a letter or digit`,
    );
  return name;
}

/** The files of a candidate folder, written by the proposer (harness.ts, proposal.json) or the search: each one a file. */
export const CANDIDATE_FILES: readonly string[] = [
  'harness.ts',
  'proposal.json',
  'proposal.invalid.json',
  'validation.json',
  'scores.json',
  'spend.json',
];
/** What only the search writes in a candidate folder (its traces are a folder). */
export const SEARCH_WRITES: readonly string[] = [
  'proposal.invalid.json',
  'validation.json',
  'scores.json',
  'spend.json',
  'traces',
];

const statOf = (path: string): Stats | null => {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
};

/**
 * Writes text atomically: a temp file in the same folder, then rename. The search owns every name
 * it writes: a folder where its file belongs, or a file where its folder belongs (left by a
 * proposer), is removed first.
 */
function writeAtomic(file: string, text: string): void {
  const dir = dirname(file);
  if (statOf(dir)?.isDirectory() === false) rmSync(dir, { force: true });
  if (statOf(file)?.isDirectory()) rmSync(file, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new StoreRecordError(
      file,
      `cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new StoreRecordError(file, `is not valid JSON: ${(error as Error).message}`);
  }
}

/** Which candidates a resumed search may skip, and which it must (re)do. */
export interface EvaluationState {
  /** Validation failed (stored), or validation passed and scores are stored. */
  evaluated: string[];
  /** Written (harness.ts present) but not fully evaluated: validate and evaluate again. */
  pending: string[];
}

/** Typed access to one search run's folder. */
export class MetaHarnessStore {
  /** `<storeDir>/meta-harness/<runId>`: what the proposer may read. */
  readonly root: string;
  /** `<storeDir>/meta-harness/<runId>.heldout`: never under `root`. */
  readonly heldOutDir: string;

  constructor(storeDir: string, runId: string) {
    checkName('search run id', runId);
    this.root = join(storeDir, 'meta-harness', runId);
    this.heldOutDir = join(storeDir, 'meta-harness', `${runId}.heldout`);
  }

  candidateDir(id: string): string {
    return join(this.root, 'candidates', checkName('candidate id', id));
  }

  tracesDir(id: string): string {
    return join(this.candidateDir(id), 'traces');
  }

  proposerDir(iteration: number): string {
    return join(this.root, 'proposer', String(checkIteration(iteration)));
  }

  reportFile(iteration: number): string {
    return join(this.root, 'reports', `iteration-${checkIteration(iteration)}.md`);
  }

  get evolutionFile(): string {
    return join(this.root, 'evolution.jsonl');
  }

  get frontierFile(): string {
    return join(this.root, 'frontier.json');
  }

  writeHarness(id: string, source: string): string {
    const file = this.harnessFile(id);
    writeAtomic(file, source);
    return file;
  }

  /** harness.ts of a candidate, as the search reads it. */
  harnessFile(id: string): string {
    return join(this.candidateDir(id), 'harness.ts');
  }

  /** Whether the candidate has a harness: 'file' (a regular file), 'missing', or 'not-a-file' (a folder, a link, …). */
  harnessState(id: string): 'file' | 'missing' | 'not-a-file' {
    const stat = statOf(this.harnessFile(id));
    return stat === null ? 'missing' : stat.isFile() ? 'file' : 'not-a-file';
  }

  readHarness(id: string): string {
    const file = this.harnessFile(id);
    try {
      return readFileSync(file, 'utf8');
    } catch (error) {
      throw new StoreRecordError(
        file,
        `cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
  }

  writeProposal(proposal: ProposalRecord): void {
    if (proposal.parent !== null) checkName('parent id', proposal.parent);
    const file = this.file(proposal.id, 'proposal.json');
    writeAtomic(file, json(checked(file, checkProposal, proposal)));
  }

  readProposal(id: string): ProposalRecord {
    const file = this.file(id, 'proposal.json');
    const proposal = checked(file, checkProposal, readJson(file));
    if (proposal.id !== id) throw new StoreRecordError(file, `id must be "${id}" (its folder), got "${proposal.id}"`);
    return proposal;
  }

  writeValidation(id: string, validation: ValidationRecord): void {
    const file = this.file(id, 'validation.json');
    writeAtomic(file, json(checked(file, checkValidation, validation)));
  }

  readValidation(id: string): ValidationRecord {
    const file = this.file(id, 'validation.json');
    return checked(file, checkValidation, readJson(file));
  }

  writeScores(id: string, scores: ScoresRecord): void {
    const file = this.file(id, 'scores.json');
    writeAtomic(file, json(checked(file, checkScores, scores)));
  }

  readScores(id: string): ScoresRecord {
    const file = this.file(id, 'scores.json');
    return checked(file, checkScores, readJson(file));
  }

  /** Writes what evaluating the candidate on the search pool cost (spend.json). */
  writeSpend(id: string, spend: { tokens: number; usd: number }): void {
    writeAtomic(this.file(id, 'spend.json'), json(spend));
  }

  /** What the candidate's evaluation cost, or zero when none is stored. */
  readSpend(id: string): { tokens: number; usd: number } {
    const file = this.file(id, 'spend.json');
    if (!statOf(file)?.isFile()) return { tokens: 0, usd: 0 };
    const value = readJson(file) as { tokens?: unknown; usd?: unknown } | null;
    return { tokens: Number(value?.tokens) || 0, usd: Number(value?.usd) || 0 };
  }

  /** Writes one full trajectory (every prompt, reply, observation, program) as traces/<name>.json. */
  writeTrace(id: string, name: string, trace: unknown): string {
    const file = join(this.tracesDir(id), `${checkName('trace name', name)}.json`);
    writeAtomic(file, json(trace));
    return file;
  }

  /** Trace names of a candidate, sorted. */
  listTraces(id: string): string[] {
    const dir = this.tracesDir(id);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.slice(0, -'.json'.length))
      .sort();
  }

  /** Appends one row to evolution.jsonl (checked before it is written). */
  appendEvolution(row: EvolutionRow): void {
    const line = JSON.stringify(checked(this.evolutionFile, checkEvolutionRow, row));
    mkdirSync(this.root, { recursive: true });
    // One short line per append: O_APPEND keeps concurrent or interrupted writers from interleaving.
    appendFileSync(this.evolutionFile, `${line}\n`);
  }

  /**
   * The evolution rows in order. A last line without its newline (a write cut short by a kill) is
   * ignored; any other line that is not a valid row is an error naming the file and line.
   */
  readEvolution(): EvolutionRow[] {
    if (!existsSync(this.evolutionFile)) return [];
    const text = readFileSync(this.evolutionFile, 'utf8');
    // The piece after the last newline is '' for a complete file, or an unterminated (cut) line: dropped either way.
    return text
      .split('\n')
      .slice(0, -1)
      .flatMap((line, i) => {
        if (line.trim() === '') return [];
        const where = `${this.evolutionFile}:${i + 1}`;
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch (error) {
          throw new StoreRecordError(where, `is not valid JSON: ${(error as Error).message}`);
        }
        return [checked(where, checkEvolutionRow, value)];
      });
  }

  writeFrontier(frontier: FrontierRecord): void {
    writeAtomic(this.frontierFile, json(checked(this.frontierFile, checkFrontier, frontier)));
  }

  /** The stored frontier, or null before the first one was written. */
  readFrontier(): FrontierRecord | null {
    if (!existsSync(this.frontierFile)) return null;
    return checked(this.frontierFile, checkFrontier, readJson(this.frontierFile));
  }

  /** Stores one proposer transcript (a step's messages, a tool call) as proposer/<iteration>/<name>.json. */
  writeProposerTranscript(iteration: number, name: string, transcript: unknown): string {
    const file = join(this.proposerDir(iteration), `${checkName('transcript name', name)}.json`);
    writeAtomic(file, json(transcript));
    return file;
  }

  writeReport(iteration: number, markdown: string): string {
    const file = this.reportFile(iteration);
    writeAtomic(file, markdown.endsWith('\n') ? markdown : `${markdown}\n`);
    return file;
  }

  /** Candidate ids (folders under candidates/ with a valid name), sorted. */
  listCandidates(): string[] {
    const dir = join(this.root, 'candidates');
    if (!existsSync(dir)) return [];
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && NAME.test(d.name))
      .map((d) => d.name)
      .sort();
  }

  /** For `--resume`: which candidates are fully evaluated and which must be done again. */
  evaluationState(): EvaluationState {
    const state: EvaluationState = { evaluated: [], pending: [] };
    for (const id of this.listCandidates()) {
      if (this.harnessState(id) !== 'file') continue;
      const done =
        existsSync(this.file(id, 'validation.json')) &&
        (!this.readValidation(id).ok || existsSync(this.file(id, 'scores.json')));
      if (done && existsSync(this.file(id, 'scores.json'))) this.readScores(id);
      (done ? state.evaluated : state.pending).push(id);
    }
    return state;
  }

  /** Marks the search finished: from now on the held-out results may be written. */
  markSearchFinished(): void {
    writeAtomic(join(this.root, 'search-finished.json'), json({ finishedAt: new Date().toISOString() }));
  }

  get searchFinished(): boolean {
    return existsSync(join(this.root, 'search-finished.json'));
  }

  /** Writes the held-out results; refused while the search is still running. */
  writeHeldOut(results: HeldOutRecord): string {
    if (!this.searchFinished)
      throw new Error('held-out results may only be written after the search (markSearchFinished() first)');
    const file = join(this.heldOutDir, 'results.json');
    writeAtomic(file, json(checked(file, checkHeldOut, results)));
    return file;
  }

  readHeldOut(): HeldOutRecord | null {
    const file = join(this.heldOutDir, 'results.json');
    if (!existsSync(file)) return null;
    return checked(file, checkHeldOut, readJson(file));
  }

  private file(id: string, name: string): string {
    return join(this.candidateDir(id), name);
  }
}

function checkIteration(iteration: number): number {
  if (!Number.isInteger(iteration) || iteration < 0)
    throw new Error(`iteration must be an integer ≥ 0, got ${iteration}`);
  return iteration;
}
