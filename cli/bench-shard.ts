/**
 * `witness bench --dry-run --shard i/n`: which suite files vitest's shard i of n runs. vitest
 * shards by file; the files are assigned by vitest's own sequencer (BaseSequencer.shard), so the
 * dry run counts exactly the shard the run would execute.
 */
import { resolve } from 'node:path';
import { usageError } from './options.ts';

export interface Shard {
  index: number;
  count: number;
}

/** The `--shard i/n` (or `--shard=i/n`) among vitest's arguments, checked as vitest checks it; undefined when there is none. */
export function shardOfArgs(args: readonly string[]): Shard | undefined {
  let value: string | undefined;
  for (const [i, arg] of args.entries()) {
    if (arg === '--shard') value = args[i + 1] ?? '';
    else if (arg.startsWith('--shard=')) value = arg.slice('--shard='.length);
  }
  if (value === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(value.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count)
    throw usageError(
      `--shard: expected <index>/<count> with 1 ≤ index ≤ count, e.g. 1/2; got ${JSON.stringify(value)}`,
    );
  return { index, count };
}

/** The suite files (relative to `root`) that shard `shard` runs, as vitest assigns them. */
export async function filesOfShard(files: readonly string[], shard: Shard, root: string): Promise<string[]> {
  if (shard.count > files.length)
    throw usageError(
      `--shard ${shard.index}/${shard.count}: vitest shards by file, and the run has ${files.length} suite file${files.length === 1 ? '' : 's'}: at most ${files.length} shard${files.length === 1 ? '' : 's'}`,
    );
  const { BaseSequencer } = await import('vitest/node');
  const base = resolve(root);
  // The sequencer reads only the shard and the root of its context, and each file's moduleId.
  const context = { config: { shard, root: base } } as unknown as ConstructorParameters<typeof BaseSequencer>[0];
  const specs = files.map((file) => ({ moduleId: resolve(base, file), file })) as unknown as Parameters<
    InstanceType<typeof BaseSequencer>['shard']
  >[0];
  const chosen = (await new BaseSequencer(context).shard(specs)) as unknown as { file: string }[];
  return chosen.map((spec) => spec.file);
}
