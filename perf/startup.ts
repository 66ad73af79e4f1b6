/**
 * Start-up of the `witness` command, compiled (bin/witness.js on a fresh dist/) against the
 * TypeScript sources through tsx (bin/from-source.js, what the command did before the build), run
 * alternately, median of N runs each (prints figures, asserts nothing):
 * `npx tsx perf/startup.ts [runs]` (default 15). `--version` is answered by the launcher itself;
 * `--help` loads every command module, so it is the start-up cost of any other command.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const runs = Number(process.argv[2] ?? 15);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`runs must be a positive integer, not ${process.argv[2]}`);
const TARGET_MS = 150;

const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, encoding: 'utf8' });
if (build.status !== 0) throw new Error(`the build failed:\n${build.stdout}\n${build.stderr}`);

interface Subject {
  label: string;
  args: string[];
  compiled: boolean;
}
const subjects: Subject[] = [
  { label: 'node -e 0 (Node alone)', args: ['-e', '0'], compiled: true },
  { label: 'witness --version, compiled', args: [join(root, 'bin/witness.js'), '--version'], compiled: true },
  { label: 'witness --version, tsx', args: [join(root, 'bin/from-source.js'), '--version'], compiled: false },
  { label: 'witness --help, compiled', args: [join(root, 'bin/witness.js'), '--help'], compiled: true },
  { label: 'witness --help, tsx', args: [join(root, 'bin/from-source.js'), '--help'], compiled: false },
];

const times = new Map<string, number[]>(subjects.map((s) => [s.label, []]));
for (let round = 0; round < runs; round++) {
  for (const subject of subjects) {
    const started = performance.now();
    const run = spawnSync(process.execPath, subject.args, { cwd: root, encoding: 'utf8' });
    const ms = performance.now() - started;
    if (run.status !== 0) throw new Error(`${subject.label} failed (${run.status}):\n${run.stderr}`);
    // A compiled run that fell back to the sources would measure the wrong thing.
    if (subject.compiled && run.stderr.includes('tsx'))
      throw new Error(`${subject.label} ran the sources: ${run.stderr}`);
    times.get(subject.label)?.push(ms);
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const medians = new Map([...times].map(([label, values]) => [label, median(values)]));
const width = Math.max(...subjects.map((s) => s.label.length));
console.log(`start-up, median of ${runs} runs each (alternating), wall time of the whole process:`);
for (const subject of subjects) {
  const values = times.get(subject.label) ?? [];
  const line = `  ${subject.label.padEnd(width)}  ${(medians.get(subject.label) ?? 0).toFixed(0).padStart(5)} ms`;
  console.log(`${line}   (min ${Math.min(...values).toFixed(0)}, max ${Math.max(...values).toFixed(0)})`);
}
const ratio = (tsx: string, compiled: string) => ((medians.get(tsx) ?? 0) / (medians.get(compiled) ?? 1)).toFixed(1);
console.log(`  --version: tsx / compiled = ${ratio('witness --version, tsx', 'witness --version, compiled')}×`);
console.log(`  --help:    tsx / compiled = ${ratio('witness --help, tsx', 'witness --help, compiled')}×`);
const version = medians.get('witness --version, compiled') ?? Infinity;
const nodeAlone = medians.get('node -e 0 (Node alone)') ?? 0;
console.log(
  `  over Node alone: --version +${(version - nodeAlone).toFixed(0)} ms, --help compiled +${((medians.get('witness --help, compiled') ?? 0) - nodeAlone).toFixed(0)} ms`,
);
console.log(
  `  target: witness --version under ${TARGET_MS} ms → ${version < TARGET_MS ? 'met' : 'NOT met'} (${version.toFixed(0)} ms, of which Node alone ${nodeAlone.toFixed(0)} ms on this machine now)`,
);
