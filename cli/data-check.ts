/**
 * `witness data check`: validates a dataset folder in a suite's official layout and says what is
 * missing and where the release is published; with `--items` it also poses every item as a run
 * would (suites/unposable.ts) and lists those a run records as invalid data or cannot pose, and
 * `--write-invalid FILE` writes the invalid ones for `witness bench --exclude-tasks @FILE`.
 */
import { resolve } from 'node:path';
import { Option } from 'commander';
import { SUITE_DATA_ENV, type SuiteName } from '../core/config-sections.ts';
import { loadConfig } from '../core/config.ts';
import type { DataFinding, DataReport } from '../core/data-report.ts';
import { existingPath, progressLine } from './options.ts';
import { say, sayResult, warn } from './output.ts';
import type { Registrar } from './registrar.ts';

interface DataCheckOptions {
  suite: SuiteName;
  data?: string;
  json?: boolean;
  items?: boolean;
  split?: string;
  writeInvalid?: string;
}

const LEVEL_WIDTH = 'warning'.length;

function findingLine(f: DataFinding): string {
  const where = [f.path, f.item].filter(Boolean).join(' ');
  return `${f.level.padEnd(LEVEL_WIDTH)}  ${where ? `${where}: ` : ''}${f.message}`;
}

/** The report as text: a verdict line, the counts, one line per finding, and where the release is when something is wrong. */
export function formatDataReport(report: DataReport): string {
  const errors = report.findings.filter((f) => f.level === 'error').length;
  const warnings = report.findings.filter((f) => f.level === 'warning').length;
  const verdict = report.ok
    ? `ok${warnings ? ` (${warnings} warning${warnings === 1 ? '' : 's'})` : ''}`
    : `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`;
  const counts = Object.entries(report.counts).map(([k, v]) => `${k} ${v.toLocaleString('en-US')}`);
  const lines = [
    `${report.suite} data at ${report.data}: ${verdict}${report.release ? ` · ${report.release}` : ''}`,
    ...(counts.length ? [`  ${counts.join(' · ')}`] : []),
    ...report.findings.map(findingLine),
  ];
  if (!report.ok) lines.push(`The official ${report.source.name} data is published at ${report.source.url}`);
  return lines.join('\n');
}

export const registerDataCheck: Registrar = ({ program }) => {
  const data = program.command('data').description("inspect datasets in the benchmarks' official layouts");
  data
    .command('check')
    .description(
      "validate a dataset folder in a suite's official layout: files, counts, every item's fields, databases, checksums of known releases",
    )
    .addOption(
      new Option('--suite <name>', 'the suite the data is for')
        .choices(Object.keys(SUITE_DATA_ENV))
        .makeOptionMandatory(),
    )
    .option(
      '--data <path>',
      "the dataset folder (or file) to check (default: the suite's configured data)",
      existingPath,
    )
    .option('--json', 'print the report as JSON')
    .option(
      '--items',
      "also pose every item as a run would (the suite's oracle runs each gold on its data: needs the suite's engine) and list those a run records as invalid data, or cannot pose",
    )
    .option('--split <name>', 'with --items: the split to pose (default: the one `witness bench` runs)')
    .option(
      '--write-invalid <file>',
      'with --items (implied): write the invalid items, one id per line under its reason, for `witness bench --exclude-tasks @FILE`',
    )
    .addHelpText(
      'after',
      '\nExit status: 0 when the suite can run on the data (invalid items included), 1 when an error was found or an item is one Witness cannot pose, 2 on usage errors or a suite without a checker. Nothing is downloaded.',
    )
    .action(async (o: DataCheckOptions) => {
      const data = o.data ?? loadConfig(process.cwd()).config.suites[o.suite].data;
      if (!data) {
        const key = o.suite === 'nl-rx' ? "suites['nl-rx'].data" : `suites.${o.suite}.data`;
        warn(`witness: give --data, or set ${key} (${SUITE_DATA_ENV[o.suite]}) to check the configured data`);
        process.exitCode = 2;
        return;
      }
      const { DATA_CHECKERS } = await import('../suites/data-checkers.ts');
      const report = await DATA_CHECKERS[o.suite](data);
      if (!(o.items || o.writeInvalid)) {
        sayResult(o.json, report, () => formatDataReport(report));
        process.exitCode = report.ok ? 0 : 1;
        return;
      }
      // Posed even when some items are broken: a run records those as invalid data and goes on.
      const posed = await poseSuiteItems(o.suite, data, o.split);
      const { formatPosedItems, writeExclusionList } = await import('../suites/unposable.ts');
      sayResult(o.json, { ...report, items: posed }, () => `${formatDataReport(report)}\n${formatPosedItems(posed)}`);
      if (o.writeInvalid) {
        const written = await writeExclusionList(o.writeInvalid, posed);
        warn(`witness: ${written} invalid items written to ${o.writeInvalid}`);
      }
      process.exitCode = report.ok && !posed.unposable.some((u) => u.kind === 'harness-error') ? 0 : 1;
    });
};

/** The suite's items on `data` posed as `witness bench --data DATA [--split SPLIT]` would pose them. */
async function poseSuiteItems(suite: SuiteName, data: string, split: string | undefined) {
  // The suite's spec reads this process's configuration: give it the data and split a run would get.
  process.env[SUITE_DATA_ENV[suite]] = resolve(data);
  if (split !== undefined) process.env.WITNESS_SPLIT = split;
  if (suite === 'bigcodebench' || suite === 'dscodebench') {
    // Without the sandbox every item would fail the same way: say so once instead.
    const { pythonSandboxStatus } = await import('../suites/not-run.ts');
    const status = await pythonSandboxStatus(loadConfig(process.cwd()).config.python);
    if (!status.ok) throw new Error(`--items: the ${suite} items cannot be posed here: ${status.reason}`);
  }
  const { specByName } = await import('../suites/registry.ts');
  const { poseItems } = await import('../suites/unposable.ts');
  const spec = await specByName(suite, split === undefined ? {} : { split });
  try {
    return await poseItems(spec, split ?? loadConfig(process.cwd()).config.run.split ?? null, progressLine('items'));
  } finally {
    await spec.oracle.dispose?.();
    await spec.dispose?.();
  }
}
