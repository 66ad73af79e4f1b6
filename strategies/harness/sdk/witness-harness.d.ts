/**
 * The harness SDK: what a candidate harness may import (`import { defineHarness } from 'witness-harness'`)
 * and the one surface it runs against. Documented member by member in docs/meta-harness.md.
 */
declare module 'witness-harness' {
  export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
  export type JsonObject = { [key: string]: Json };

  export interface ChatMessage {
    role: 'system' | 'user' | 'assistant';
    content: string;
  }

  /** The public task: no id, no gold, no hidden cases. */
  export interface HarnessTask {
    /** Opaque key of this episode, unique within one evaluation; it cannot be used to look a task up. */
    readonly key: string;
    readonly benchmark: string;
    /** Fence language of the programs: regex, sql, cypher, python. */
    readonly language: string;
    /** The natural-language statement. */
    readonly description: string;
    /** The task's public fields (dialect, database id, evidence, …). */
    readonly fields: JsonObject;
  }

  /** What running a program showed, never whether it is right. */
  export interface Observation {
    ok: boolean;
    error?: { kind: string; message: string };
    /** Rendered, truncated output: rows, values, matches. */
    output: string;
    shape?: { rows?: number; columns?: number };
  }

  /** A model reply: its text and the program the oracle's extraction finds in it (null: none). */
  export interface ModelReply {
    text: string;
    program: string | null;
  }

  export type CallPurpose = 'refine' | 'judge' | 'reflect' | 'memory';

  export interface ModelHandle {
    /**
     * The episode's first turn: the model answers the suite's prompt for this task, with `system`
     * appended to its instructions. Once per episode, and before any `chat`.
     */
    answer(options?: { system?: string }): Promise<{ program: string | null }>;
    /** Any further conversation with the model (metered; default purpose 'refine'). */
    chat(messages: ChatMessage[], options?: { purpose?: CallPurpose }): Promise<ModelReply>;
  }

  export interface ExecHandle {
    /** Runs a program on the task's visible environment; never compares with the gold. */
    observe(program: string): Promise<Observation>;
    /** The environment as text: schema, sample rows, labels, library versions. */
    describe(): Promise<string>;
    /** The program in a reply, found the oracle's way (fenced blocks first); null when there is none. */
    extract(reply: string): Promise<string | null>;
    /** An observation as one text block, clipped to `maxChars` (default 1500). */
    format(observation: Observation, maxChars?: number): string;
  }

  /** The episode's limits (docs/meta-harness.md, "Sandbox, limits and defaults"). */
  export interface Budgets {
    /** Model calls, `answer` included. */
    calls: number;
    /** Prompt and reply tokens (~4 characters each). */
    tokens: number;
    observes: number;
    /** Wall time of the episode; when it runs out the harness is stopped. */
    wallMs: number;
    /** `ctx.memory` as JSON. */
    memoryBytes: number;
    /** Characters of one chat request. */
    messageChars: number;
    /** Bytes of `ctx.log` entries and console output. */
    logBytes: number;
    /** Protocol messages the harness may send. */
    messages: number;
    /** Bytes the harness may write as protocol messages, all of them together. */
    outputBytes: number;
  }

  export interface BudgetHandle {
    /** The limits of this episode. */
    readonly limits: Readonly<Budgets>;
    /** What is left now (calls, tokens, observes, milliseconds). */
    remaining(): Promise<{ calls: number; tokens: number; observes: number; wallMs: number }>;
  }

  export interface HarnessContext {
    readonly task: HarnessTask;
    readonly model: ModelHandle;
    readonly exec: ExecHandle;
    /** Kept across the tasks of one evaluation when the harness declares `memory: true`; JSON only, size-capped. */
    readonly memory: JsonObject;
    readonly budget: BudgetHandle;
    /** Adds an entry to the episode's trace. */
    log(entry: string | JsonObject): void;
  }

  export interface HarnessResult {
    /** The final program (null: none). */
    program: string | null;
    rationale?: string;
  }

  export interface HarnessDefinition {
    name: string;
    /** Keep `ctx.memory` across tasks (episodes then run one at a time, in task order). */
    memory?: boolean;
    solve(ctx: HarnessContext): Promise<HarnessResult>;
  }

  /** Declares a harness; `export default defineHarness({...})`. */
  export function defineHarness(definition: HarnessDefinition): HarnessDefinition;

  /** An observation as one text block (the same as `ctx.exec.format`). */
  export function formatObservation(observation: Observation, maxChars?: number): string;
  /** A text clipped to `maxChars` (default 1500), with a note of how much was cut, as `format` clips. */
  export function clipText(text: string, maxChars?: number): string;
  /** The first balanced `{…}` in a text (strings respected), or null: a JSON object amid prose or fences. */
  export function firstJsonObject(text: string): string | null;
  /** The first balanced `{…}` in a text, parsed; null when there is none or it does not parse. */
  export function parseJsonObject(text: string): JsonObject | null;

  /** A budget is spent; catch it to return the best program so far (a second overrun stops the harness). */
  export class BudgetExceededError extends Error {
    readonly resource: 'calls' | 'tokens' | 'observes' | 'message';
  }
  /** The SDK was used against its rules. */
  export class HarnessUsageError extends Error {}
  /** A model call failed after the client's retries. */
  export class ModelCallFailedError extends Error {}
}
