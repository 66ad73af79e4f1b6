/**
 * `witness optimize hero --suite NAME`: learns a prompt with HERO-O and writes it with a report.
 * Its pools follow HERO's split protocol (optimizers/hero/split-protocol.ts); `--split-file` fixes them: read
 * when the file exists (and checked against the data), written when it does not.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { packagePath } from '../core/package-root.ts';
import { witnessPath } from '../core/paths.ts';
import { disposeSpec } from '../core/suite-descriptor.ts';
import { DEFAULT_HERO, optimizePrompt } from '../optimizers/hero/optimize.ts';
import { fraction, positiveInteger, proportion } from './options.ts';
import { say, warn } from './output.ts';
import type { Registrar } from './registrar.ts';

const REFLECT_PROMPT = packagePath('prompts', 'hero', 'reflect.md');

export const registerOptimizeHero: Registrar = ({ program }) => {
  const optimize =
    program.commands.find((c) => c.name() === 'optimize') ??
    program.command('optimize').description('learn prompts offline from execution evidence');
  optimize
    .command('hero')
    .description('HERO-O: learn a reusable prompt for a suite from execution evidence (paired acceptance, leak filter)')
    .requiredOption('--suite <name>', 'the benchmark, e.g. nl-rx')
    .option('--rounds <n>', 'optimization rounds (no early stop)', positiveInteger, DEFAULT_HERO.rounds)
    .option('--candidates <n>', 'prompt revisions proposed per round', positiveInteger, DEFAULT_HERO.candidates)
    .option(
      '--evidence <n>',
      'successes and failures shown to the reflector, each',
      positiveInteger,
      DEFAULT_HERO.evidencePerSide,
    )
    .option('--margin <x>', 'pass-rate improvement a revision must exceed', proportion, DEFAULT_HERO.acceptance.margin)
    .option(
      '--first-slice <n>',
      'update instances in the first acceptance slice',
      positiveInteger,
      DEFAULT_HERO.acceptance.firstSlice,
    )
    .option(
      '--train-fraction <x>',
      'share of the tasks used for optimization when the data has no evaluation split of its own (the rest is held out)',
      fraction,
      0.5,
    )
    .option('--data <path>', "the suite's data in its official layout (BIRD: a folder with train.json and dev.json)")
    .option('--split-file <file>', 'the split file: read when it exists, else drawn and written there (witness split)')
    .option('--seed <n>', 'seed of the pools', positiveInteger, DEFAULT_HERO.seed)
    .option('--reflector <model>', 'reflector model at the same endpoint (default: the configured model)')
    .option(
      '--out <dir>',
      'where to write learned.md, hero-report.json and hero-report.md (default .witness/hero/<suite>)',
    )
    .action(
      async (o: {
        suite: string;
        rounds: number;
        candidates: number;
        evidence: number;
        margin: number;
        firstSlice: number;
        trainFraction: number;
        seed: number;
        reflector?: string;
        out?: string;
        data?: string;
        splitFile?: string;
      }) => {
        const { suiteNamed } = await import('../oracles/suites.ts');
        const { createModel, NO_MODEL_NOTICE } = await import('../core/models/create.ts');
        const { loadPrompt } = await import('../core/prompt.ts');
        const { renderHeroReport } = await import('../optimizers/hero/report.ts');
        const { poolsOf } = await import('../optimizers/hero/split-protocol.ts');
        const { configWithData, describeSplit, resolveSplit } = await import('./hero-split.ts');
        const { config, defaultedToSim } = configWithData(o.suite, o.data);
        const split = await resolveSplit({
          suite: o.suite,
          config,
          ...(o.splitFile ? { path: o.splitFile } : {}),
          seed: o.seed,
          evaluationFraction: 1 - o.trainFraction,
        });
        const spec = await suiteNamed(o.suite).spec(config);
        if (defaultedToSim) warn(NO_MODEL_NOTICE);
        const model = createModel(config);
        const reflector = o.reflector
          ? createModel({ ...config, model: { ...config.model, name: o.reflector } })
          : model;
        const issues = [...split.sources.optimization.issues, ...(split.sources.evaluation?.issues ?? [])];
        const for_ = issues.length
          ? ` (${issues.length} unreadable items skipped: ${issues.map((i) => i.item).join(', ')})`
          : '';
        const tasks = split.sources.optimization.tasks;
        warn(`HERO-O on ${spec.name}: ${tasks.length} tasks${for_}\n${describeSplit(split.file)}`);
        if (o.splitFile) warn(`  split file: ${o.splitFile}${split.drawn ? ' (written)' : ' (read)'}`);
        try {
          const result = await optimizePrompt({
            benchmark: spec.name,
            tasks,
            pools: poolsOf(split.file, split.sources),
            oracle: spec.oracle,
            seedPrompt: loadPrompt(spec.prompt),
            model,
            reflector,
            reflectPrompt: loadPrompt(REFLECT_PROMPT),
            options: {
              rounds: o.rounds,
              candidates: o.candidates,
              evidencePerSide: o.evidence,
              acceptance: { margin: o.margin, firstSlice: o.firstSlice },
              seed: split.file.seed,
              trainFraction: o.trainFraction,
            },
            onProgress: (message) => warn(`  ${message}`),
          });
          const out = resolve(o.out ?? witnessPath(process.cwd(), 'hero', spec.name));
          mkdirSync(out, { recursive: true });
          writeFileSync(join(out, 'learned.md'), result.final.template);
          writeFileSync(join(out, 'hero-report.json'), `${JSON.stringify(result, null, 2)}\n`);
          writeFileSync(join(out, 'hero-report.md'), renderHeroReport(result));
          writeFileSync(join(out, 'split.json'), `${JSON.stringify(split.file, null, 2)}\n`);
          if (result.privilegedNotice) warn(result.privilegedNotice);
          say(
            `learned prompt: ${join(out, 'learned.md')} (${result.final.source})\nreport: ${join(out, 'hero-report.md')}\nsplit: ${join(out, 'split.json')}`,
          );
        } finally {
          await model.close?.();
          if (reflector !== model) await reflector.close?.();
          await disposeSpec(spec);
        }
      },
    );
};
