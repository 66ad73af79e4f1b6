/**
 * `witness report [RESULTS...] --out DIR`: merges results files — shards of a run, runs of several
 * models, several runs — into summary.md, report.html, report.json and a merged results.json.
 * Also registers `witness gate` and `witness baseline` (cli/gate.ts).
 */
import { resolve } from 'node:path';
import { loadConfig } from '../core/config.ts';
import { registerGate } from './gate.ts';
import { existingFile } from './options.ts';
import { say } from './output.ts';
import type { Registrar } from './registrar.ts';

/** Merges results files and writes every report; returns the lines to print. */
export async function runReport(files: readonly string[], outDir: string): Promise<string[]> {
  const { runTotalLines } = await import('../reports/extra-tables.ts');
  const { ledgerLine, mergeLedgers } = await import('../reports/ledger.ts');
  const { mergeResults } = await import('../reports/merge.ts');
  const { readResultsFile } = await import('../reports/results-file.ts');
  const { summarize } = await import('../reports/summary.ts');
  const { renderTables } = await import('../reports/table.ts');
  const { writeReports } = await import('../reports/write-reports.ts');
  const inputs = await Promise.all(files.map((f) => readResultsFile(f)));
  const merged = mergeResults(inputs);
  if (merged.trajectories.length === 0) throw new Error(`no trajectories in ${files.join(', ')}`);
  // Planned against recorded holds only when every file kept its ledger.
  const ledger = mergeLedgers(inputs.map((i) => i.ledger));
  const written = await writeReports(outDir, merged.trajectories, {
    variantOf: merged.variantOf,
    notes: merged.notes,
    sources: [...files],
    ...(ledger ? { ledger } : {}),
  });
  return [
    renderTables(summarize(merged.trajectories, {}, merged.variantOf)),
    ...(ledger ? ['', ledgerLine(ledger)] : []),
    ...merged.notes.map((n) => `note: ${n}`),
    '',
    ...runTotalLines(written.report.runs),
    '',
    `Witness results: ${written.results}`,
    `Witness summary: ${written.summary}`,
    `Witness report: ${written.html}`,
    `Witness report data: ${written.reportJson}`,
  ];
}

export const registerReports: Registrar = (groups) => {
  groups.program
    .command('report')
    .description(
      'merge results files (shards, models, runs) into a Markdown leaderboard, a self-contained HTML page and report.json',
    )
    .argument('[results...]', 'results.json files (default: the results.json in the configured output folder)')
    .option('--out <dir>', 'folder for the reports', 'witness-report')
    .addHelpText(
      'after',
      '\nRuns that overlap (the same tasks and trials under different run ids) become separate rows; shards merge into one.',
    )
    .action(async (files: string[], o: { out: string }) => {
      for (const file of files) existingFile(file);
      const inputs = files.length > 0 ? files : [resolve(loadConfig(process.cwd()).config.outDir, 'results.json')];
      say((await runReport(inputs, resolve(o.out))).join('\n'));
    });
  registerGate(groups);
};
