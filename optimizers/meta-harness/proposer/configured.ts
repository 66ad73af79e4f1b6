/**
 * The proposer a configuration asks for: the user's `--proposer-cmd` when given, else the agent
 * over the proposer model (`proposer.model`, or the configured model) built like every model
 * (createModel: the endpoint behind the response cache), metered by the caller. With only the sim
 * configured there is no real proposer: null, and the search falls back to its simulated one.
 */
import type { WitnessConfig } from '../../../core/config.ts';
import { createModel } from '../../../core/models/create.ts';
import type { ChatModel } from '../../../core/models/model.ts';
import { STEERABLE_SIM_NAME } from '../../../core/models/steerable-sim.ts';
import type { Proposer } from './contract.ts';
import { agentProposer } from './agent.ts';
import { commandProposer } from './command.ts';

export interface ConfiguredProposerOptions {
  /** `--proposer-cmd`: run this command instead of the built-in agent. */
  command?: string;
  /** Wraps the proposer model (the session's spend meter), so its calls count against the run's budget. */
  meter?: (model: ChatModel) => ChatModel;
  env?: Record<string, string | undefined>;
}

export interface ConfiguredProposer {
  proposer: Proposer;
  /** Closes the proposer model, if one was made. */
  close(): Promise<void>;
}

/** The model name the agent proposer uses: `proposer.model`, else the configured model. */
export const proposerModelName = (config: WitnessConfig) => config.proposer.model ?? config.model.name;

/** The configured proposer, or null when no real model (and no command) is configured. */
export function configuredProposer(
  config: WitnessConfig,
  options: ConfiguredProposerOptions = {},
): ConfiguredProposer | null {
  if (options.command !== undefined) {
    const proposer = commandProposer(options.command, {
      timeoutMs: config.proposer.commandTimeoutS * 1000,
      ...(options.env ? { env: options.env } : {}),
    });
    return { proposer, close: async () => {} };
  }
  const name = proposerModelName(config);
  if (name === 'sim' || name === STEERABLE_SIM_NAME) return null;
  const model = createModel({ ...config, model: { ...config.model, name } }, options.env);
  const metered = options.meter ? options.meter(model) : model;
  return {
    proposer: agentProposer({ model: metered, maxSteps: config.proposer.maxSteps }),
    close: async () => model.close?.(),
  };
}
