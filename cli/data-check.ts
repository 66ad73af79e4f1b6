/** `witness data check`: validates a dataset folder in a suite's official layout and says what is missing and where the release is published. */
import { Option } from 'commander';
import { SUITE_DATA_ENV, type SuiteName } from '../core/config-sections.ts';
import { loadConfig } from '../core/config.ts';
import type { DataFinding, DataReport } from '../core/data-report.ts';
import { existingPath } from './options.ts';
import { sayResult, warn } from './output.ts';
import type { Registrar } from './registrar.ts';

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
    .addHelpText(
      'after',
      '\nExit status: 0 when the suite can run on the data, 1 when an error was found, 2 on usage errors or a suite without a checker. Nothing is downloaded.',
    )
    .action(async (o: { suite: SuiteName; data?: string; json?: boolean }) => {
      const data = o.data ?? loadConfig(process.cwd()).config.suites[o.suite].data;
      if (!data) {
        const key = o.suite === 'nl-rx' ? "suites['nl-rx'].data" : `suites.${o.suite}.data`;
        warn(`witness: give --data, or set ${key} (${SUITE_DATA_ENV[o.suite]}) to check the configured data`);
        process.exitCode = 2;
        return;
      }
      const { DATA_CHECKERS } = await import('../suites/data-checkers.ts');
      const report = await DATA_CHECKERS[o.suite](data);
      sayResult(o.json, report, () => formatDataReport(report));
      process.exitCode = report.ok ? 0 : 1;
    });
};
