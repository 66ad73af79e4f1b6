/**
 * `witness gate --baseline A.json --candidate B.json [--config FILE]`: the CI regression gate on
 * two results (or baseline) files; exit 0 = pass (warnings included), 1 = the candidate regressed,
 * fell below the floor or is missing planned episodes (its ledger), 2 = unusable input. `witness baseline RESULTS... --out FILE` writes the
 * compact baseline file a repository commits.
 */
import { InvalidArgumentError, Option } from 'commander';
import { GATE_METRICS, type GateScope, loadConfig, type GateMetric } from '../core/config.ts';
import { say, sayResult, warn } from './output.ts';
import type { CommandGroups } from './registrar.ts';

function share(value: string): number {
  const n = Number(value);
  if (!(n >= 0 && n <= 1)) throw new InvalidArgumentError('expected a number from 0 to 1');
  return n;
}

interface GateOptions {
  baseline: string;
  candidate: string;
  config?: string;
  metric?: GateMetric;
  noiseBand?: number;
  alpha?: number;
  floor?: number;
  by?: GateScope;
  markdown?: string;
  json?: boolean;
}

/** Input problems (unreadable files, bad config) exit 2, distinct from a failing gate (1). */
async function inputs<T>(body: () => Promise<T>): Promise<T | undefined> {
  try {
    return await body();
  } catch (error) {
    warn(`witness: ${(error as Error).message}`);
    process.exitCode = 2;
    return undefined;
  }
}

/** Registers `gate` and `baseline`. */
export function registerGate({ program }: CommandGroups): void {
  program
    .command('gate')
    .description(
      'compare a candidate run with a baseline on their shared instances; fail only on a significant regression beyond the noise band or below the floor',
    )
    .requiredOption('--baseline <file>', 'results.json or baseline file of the reference run')
    .requiredOption('--candidate <file>', 'results.json or baseline file of the run to judge')
    .option(
      '--config <file>',
      'witness config whose "gate" section sets the policy (default: witness.config.json if present)',
    )
    .addOption(new Option('--metric <metric>', 'per-instance success compared').choices([...GATE_METRICS]))
    .option('--noise-band <share>', 'largest drop that is noise, as a share (0.02 = 2 points)', share)
    .option('--alpha <p>', 'significance level of the one-sided exact sign test', share)
    .option('--floor <share>', 'fail when the candidate is below this share', share)
    .addOption(
      new Option('--by <scope>', 'one check per benchmark, or per (benchmark, strategy)').choices([
        'benchmark',
        'strategy',
      ]),
    )
    .option('--markdown <file>', 'also append the verdict as Markdown to this file (e.g. "$GITHUB_STEP_SUMMARY")')
    .option('--json', 'print the verdict as JSON')
    .addHelpText(
      'after',
      '\nExit status: 0 pass (also with warnings), 1 the candidate is worse beyond the noise band or below the floor, or its results are missing planned episodes (fail closed), 2 unusable input.',
    )
    .action(async (o: GateOptions) => {
      const { evaluateGate } = await import('../reports/gate.ts');
      const { renderGateMarkdown, renderGateText } = await import('../reports/gate-format.ts');
      const { readGateInput } = await import('../reports/outcomes.ts');
      const loaded = await inputs(async () => {
        const env = o.config ? { ...process.env, WITNESS_CONFIG: o.config } : process.env;
        const { gate } = loadConfig(process.cwd(), env).config;
        const { baseline: _configured, ...fromConfig } = gate;
        return {
          policy: fromConfig,
          baseline: await readGateInput(o.baseline),
          candidate: await readGateInput(o.candidate),
        };
      });
      if (!loaded) return;
      const policy = {
        ...loaded.policy,
        ...(o.metric ? { metric: o.metric } : {}),
        ...(o.noiseBand !== undefined ? { noiseBand: o.noiseBand } : {}),
        ...(o.alpha !== undefined ? { alpha: o.alpha } : {}),
        ...(o.floor !== undefined ? { floor: o.floor } : {}),
        ...(o.by ? { by: o.by } : {}),
      };
      const verdict = evaluateGate(loaded.baseline, loaded.candidate, policy);
      sayResult(o.json, verdict, () => renderGateText(verdict));
      if (o.markdown) {
        const { appendFile } = await import('node:fs/promises');
        await appendFile(o.markdown, `${renderGateMarkdown(verdict)}\n`);
      }
      process.exitCode = verdict.ok ? 0 : 1;
    });

  program
    .command('baseline')
    .description(
      'write a compact baseline file (witness.baseline: one outcome per instance) from results files, to commit for the gate',
    )
    .argument('<results...>', 'results.json files (merged like `witness report` does)')
    .requiredOption('--out <file>', 'the baseline file to write')
    .action(async (files: string[], o: { out: string }) => {
      const { mergeResults } = await import('../reports/merge.ts');
      const { buildBaseline, writeBaselineFile } = await import('../reports/outcomes.ts');
      const { readResultsFile } = await import('../reports/results-file.ts');
      const merged = await inputs(async () => mergeResults(await Promise.all(files.map((f) => readResultsFile(f)))));
      if (!merged) return;
      const baseline = buildBaseline(merged.trajectories);
      await writeBaselineFile(o.out, baseline);
      say(`Witness baseline: ${o.out} (${baseline.instances.length} instances of run ${baseline.runId})`);
    });
}
