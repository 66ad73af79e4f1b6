/** Builds the configured model: the sim, the steerable sim, or an OpenAI-compatible endpoint behind the response cache. */
import type { WitnessConfig } from '../config.ts';
import { withCache } from './cache.ts';
import type { ModelInfo } from '../types.ts';
import type { ChatModel } from './model.ts';
import { createOpenAIModel } from './openai.ts';
import { createSimModel } from './sim.ts';
import { createSteerableSimModel, STEERABLE_SIM_NAME } from './steerable-sim.ts';

/** `env` holds the key, in the variable named by `model.apiKeyEnv` (read here, never stored in the config). */
export function createModel(config: WitnessConfig, env: Record<string, string | undefined> = process.env): ChatModel {
  const m = config.model;
  const { skill, maxMutations, neighbourhood, mistakeRate, ruleFactor, harmFactor, repairRate } = config.sim;
  if (m.name === 'sim') return createSimModel({ seed: config.seed, skill, maxMutations, neighbourhood });
  if (m.name === STEERABLE_SIM_NAME)
    return createSteerableSimModel({
      seed: config.seed,
      neighbourhood,
      mistakeRate,
      ruleFactor,
      harmFactor,
      repairRate,
    });
  const inner = createOpenAIModel({
    model: m.name,
    ...(m.baseURL ? { baseURL: m.baseURL } : {}),
    ...(env[m.apiKeyEnv] ? { apiKey: env[m.apiKeyEnv] as string } : {}),
    apiKeyEnv: m.apiKeyEnv,
    temperature: m.temperature,
    ...(m.seed !== undefined ? { seed: m.seed } : {}),
    ...(m.maxTokens !== undefined ? { maxTokens: m.maxTokens } : {}),
    timeoutMs: m.timeoutMs,
    maxRetries: m.maxRetries,
    retryBudgetMs: m.retryBudgetMs,
    concurrency: m.concurrency,
    // A hard cap: the last retry starts within the budget and gets its own timeout.
    deadlineMs: m.retryBudgetMs + m.timeoutMs,
  });
  if (config.cache.mode === 'off') return inner;
  return withCache(inner, {
    path: config.cache.path,
    mode: config.cache.mode,
    sampling: { temperature: m.temperature, seed: m.seed ?? null, maxTokens: m.maxTokens ?? null },
  });
}

/** What a trajectory records of the configured model, known without building it: its name and whether it knows the gold. */
export function configuredModelInfo(config: WitnessConfig): ModelInfo {
  const name = config.model.name;
  return { name, privileged: name === 'sim' || name === STEERABLE_SIM_NAME };
}

/** The one-line notice printed when no model is configured. */
export const NO_MODEL_NOTICE =
  'witness: no model configured, using the privileged `sim` model (it knows the gold programs). ' +
  'To evaluate a real model set WITNESS_MODEL=<name> and OPENAI_API_KEY (and OPENAI_BASE_URL for vLLM, Ollama or llama.cpp).';
