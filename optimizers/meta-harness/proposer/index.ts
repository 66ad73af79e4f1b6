/** The Meta-Harness proposers the search can use: the built-in agent, the user's command, and the one the config names. */
export { agentProposer, DEFAULT_MAX_STEPS, type AgentProposerOptions, type AgentTranscriptEntry } from './agent.ts';
export { commandEnv, commandProposer, DEFAULT_COMMAND_TIMEOUT_MS, type CommandProposerOptions } from './command.ts';
export { configuredProposer, proposerModelName, type ConfiguredProposer } from './configured.ts';
export type { ProposeInput, Proposer } from './contract.ts';
export { DEFAULT_SKILL_FILE } from './skill.ts';
