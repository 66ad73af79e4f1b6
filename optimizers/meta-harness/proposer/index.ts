/** The Meta-Harness proposers the search can use: the one the configuration and options name, and the skill file they read. */
export { configuredProposer, proposerModelName } from './configured.ts';
export { DEFAULT_SKILL_FILE } from './skill.ts';
