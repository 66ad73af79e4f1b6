/** What `witness split` and `witness optimize hero --split-file` share: the data option and a split file read or written. */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { loadConfig, type LoadedConfig, type WitnessConfig } from '../core/config.ts';
import { SUITE_DATA_ENV, SUITE_NAMES, type SuiteName } from '../core/config-sections.ts';
import { readSplitFile, splitFileMismatch, type HeroSplitFile } from '../optimizers/hero/split-file.ts';
import type { HeroSources } from '../core/suite-descriptor.ts';
import { buildSplitFile } from '../optimizers/hero/split-protocol.ts';
import { heroSources } from './hero-sources.ts';
import { usageError } from './options.ts';

/**
 * This folder's configuration for a command on `suite`, with `--data` applied as the suite's
 * SUITE_DATA_ENV variable would apply it; an unknown suite or a missing path is a usage error.
 */
export function configWithData(suite: string, data: string | undefined): LoadedConfig {
  if (!(SUITE_NAMES as readonly string[]).includes(suite))
    throw usageError(`unknown suite "${suite}" (known: ${[...SUITE_NAMES].sort().join(', ')})`);
  if (data === undefined) return loadConfig(process.cwd());
  const path = resolve(data);
  if (!existsSync(path)) throw usageError(`--data: there is no file or folder ${path}`);
  return loadConfig(process.cwd(), { ...process.env, [SUITE_DATA_ENV[suite as SuiteName]]: path });
}

export interface ResolvedSplit {
  file: HeroSplitFile;
  sources: HeroSources;
  /** True when the split was drawn now (and written, when a path was given). */
  drawn: boolean;
}

/** The split of a suite's data: read from `path` when it exists (checked against the data), else drawn (and written there). */
export async function resolveSplit(options: {
  suite: string;
  config: WitnessConfig;
  path?: string;
  seed: number;
  evaluationFraction?: number;
}): Promise<ResolvedSplit> {
  const sources = await heroSources(options.suite, options.config);
  const path = options.path ? resolve(options.path) : undefined;
  if (path && existsSync(path)) {
    const file = readSplitFile(path);
    const mismatch = splitFileMismatch(
      file,
      path,
      options.suite,
      sources.optimization.tasks.map((t) => t.id),
    );
    if (mismatch) throw new Error(mismatch);
    return { file, sources, drawn: false };
  }
  const file = buildSplitFile(options.suite, sources, {
    seed: options.seed,
    ...(options.evaluationFraction === undefined ? {} : { evaluationFraction: options.evaluationFraction }),
  });
  if (path) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`);
  }
  return { file, sources, drawn: true };
}

/** One line per pool: sizes (and groups). */
export function describeSplit(file: HeroSplitFile): string {
  const pools = file.pools;
  const groups = (key: keyof NonNullable<typeof pools.groups>) =>
    pools.groups ? ` (${file.groupedBy}: ${pools.groups[key].join(', ') || '—'})` : '';
  return [
    `${file.suite}: ${file.protocol}`,
    `  diagnosis ${pools.diagnosis.length}${groups('diagnosis')}`,
    `  update ${pools.update.length}${groups('update')}`,
    `  selection ${pools.selection.length}${pools.sharedSelection ? ' (the update pool)' : groups('selection')}`,
    `  evaluation ${pools.evaluation.length}${file.evaluation.split ? ` (${file.evaluation.split})` : ''}${groups('evaluation')}`,
  ].join('\n');
}
