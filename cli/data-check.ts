/**
 * `witness data check`: validates a dataset folder in a suite's official layout and says what is
 * missing and where the release is published; with `--items` it also poses every item as a run
 * would (cli/posed-items.ts) and lists those a run records as invalid data or cannot pose, and
 * `--write-invalid FILE` writes the invalid ones for `witness bench --exclude-tasks @FILE`.
 */
import { resolve } from 'node:path';
import { Option } from 'commander';
import { SUITE_DATA_ENV, type SuiteName } from '../core/config-sections.ts';
import { loadConfig } from '../core/config.ts';
import type { DataFinding, DataReport } from '../core/data-report.ts';
import { disposeSpec, type SuiteDescriptor } from '../core/suite-descriptor.ts';
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
      const { config } = loadConfig(process.cwd());
      const data = o.data ?? config.suites[o.suite].data;
      if (!data) {
        const key = o.suite === 'nl-rx' ? "suites['nl-rx'].data" : `suites.${o.suite}.data`;
        warn(`witness: give --data, or set ${key} (${SUITE_DATA_ENV[o.suite]}) to check the configured data`);
        process.exitCode = 2;
        return;
      }
      const { suiteNamed } = await import('../oracles/suites.ts');
      const suite = suiteNamed(o.suite);
      const report = await suite.checkData(data);
      if (!(o.items || o.writeInvalid)) {
        sayResult(o.json, report, () => formatDataReport(report));
        process.exitCode = report.ok ? 0 : 1;
        return;
      }
      // Posed even when some items are broken: a run records those as invalid data and goes on.
      const posed = await poseSuiteItems(suite, data, o.split);
      const { formatPosedItems, writeExclusionList } = await import('./posed-items.ts');
      sayResult(o.json, { ...report, items: posed }, () => `${formatDataReport(report)}\n${formatPosedItems(posed)}`);
      if (o.writeInvalid) {
        const written = await writeExclusionList(o.writeInvalid, posed);
        warn(`witness: ${written} invalid items written to ${o.writeInvalid}`);
      }
      process.exitCode = report.ok && !posed.unposable.some((u) => u.kind === 'harness-error') ? 0 : 1;
    });
};

/** The suite's items on `data` posed as `witness bench --data DATA [--split SPLIT]` would pose them. */
async function poseSuiteItems(suite: SuiteDescriptor, data: string, split: string | undefined) {
  const env = { ...process.env, [SUITE_DATA_ENV[suite.name]]: resolve(data) };
  if (split !== undefined) env.WITNESS_SPLIT = split;
  const { config } = loadConfig(process.cwd(), env);
  // Without the engine every item would fail the same way: say so once instead.
  const status = (await suite.engineStatus?.(config)) ?? { ok: true };
  if (!status.ok) throw new Error(`--items: the ${suite.name} items cannot be posed here: ${status.reason}`);
  const { poseItems } = await import('./posed-items.ts');
  const spec = await suite.spec(config, split === undefined ? {} : { split });
  try {
    return await poseItems(spec, split ?? config.run.split ?? null, progressLine('items'));
  } finally {
    await disposeSpec(spec);
  }
}
