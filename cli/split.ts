/** `witness split --suite S [--data D] [--seed N] --out F`: writes HERO's split file of a suite's data. */
import { existsSync, rmSync } from 'node:fs';
import { fraction, nonNegativeInteger, usageError } from './options.ts';
import { say } from './output.ts';
import type { Registrar } from './registrar.ts';

export const registerSplit: Registrar = ({ program }) => {
  program
    .command('split')
    .description(
      "write HERO's split file: seeded, disjoint diagnosis / update / selection pools and the evaluation split of a suite's data",
    )
    .requiredOption('--suite <name>', 'the benchmark, e.g. bird')
    .requiredOption('--out <file>', 'the split file to write (JSON)')
    .option(
      '--data <path>',
      "the suite's data in its official layout (default: the configured data, else the fixtures)",
    )
    .option('--seed <n>', 'seed of the split', nonNegativeInteger, 1)
    .option(
      '--evaluation-fraction <x>',
      'share held out for evaluation when the data has no evaluation split of its own',
      fraction,
      0.5,
    )
    .option('--force', 'overwrite an existing split file')
    .action(
      async (o: {
        suite: string;
        out: string;
        data?: string;
        seed: number;
        evaluationFraction: number;
        force?: boolean;
      }) => {
        const { configWithData, describeSplit, resolveSplit } = await import('./hero-split.ts');
        const { config } = configWithData(o.suite, o.data);
        if (existsSync(o.out)) {
          if (!o.force) throw usageError(`${o.out} exists; pass --force to draw the split again`);
          rmSync(o.out);
        }
        const { file } = await resolveSplit({
          suite: o.suite,
          config,
          path: o.out,
          seed: o.seed,
          evaluationFraction: o.evaluationFraction,
        });
        say(`${describeSplit(file)}\nsplit file: ${o.out}`);
      },
    );
};
