/** HERO-O's report as Markdown: the rounds, the acceptance decisions and the final selection. */
import { markdownCode, markdownText } from '../../core/text-safety.ts';
import type { HeroResult } from './optimize.ts';

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** The report; names, leaks, problems and error messages (from the reflector and the endpoint) shown as inert text. */
export function renderHeroReport(result: HeroResult): string {
  const lines: string[] = [
    `# HERO-O · ${markdownText(result.benchmark)} · ${markdownText(result.model.name)}`,
    '',
    `Reflector ${markdownCode(result.reflector.name)} · ${result.options.rounds} rounds · ${result.options.candidates} candidates per round · evidence up to ${result.options.evidencePerSide} successes and failures · acceptance margin ${result.options.acceptance.margin}, first slice ${result.options.acceptance.firstSlice} · seed ${result.options.seed}`,
    '',
  ];
  if (result.privilegedNotice) lines.push(`**${markdownText(result.privilegedNotice)}**`, '');
  const p = result.pools;
  lines.push(
    `Pools: diagnosis ${p.diagnosis.length}, update ${p.update.length}, selection ${p.sharedSelection ? `= update (too few training tasks for three pools)` : p.selection.length}, test ${p.test.length}.`,
    '',
    '| round | diagnosis pass | proposals | leaks rejected | adopted | cumulative fixes / breaks | reflector tokens |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const r of result.rounds) {
    const leaks = r.candidates.filter((c) => c.outcome === 'rejected-leak').length;
    const adopted = r.candidates.filter((c) => c.outcome === 'adopted').length;
    const tokens = r.reflectorCall
      ? `${r.reflectorCall.estimated ? '~' : ''}${r.reflectorCall.promptTokens + r.reflectorCall.completionTokens}`
      : r.reflectorError
        ? 'failed'
        : '—';
    lines.push(
      `| ${r.round} | ${pct(r.diagnosisPassRate)} | ${r.candidates.length} | ${leaks} | ${adopted} | ${r.cumulative.fixes} / ${r.cumulative.breaks} (${r.cumulative.ratio.toFixed(2)}) | ${tokens} |`,
    );
  }
  lines.push('', '## Decisions', '');
  for (const r of result.rounds) {
    for (const c of r.candidates) {
      const detail =
        c.outcome === 'rejected-leak'
          ? `leaks ${c.leaks?.map(markdownCode).join(', ')}`
          : c.outcome === 'rejected-invalid'
            ? markdownText(c.problem ?? '')
            : `${markdownText(c.decision?.reason ?? '')}; ${c.decision?.fixes} fixes, ${c.decision?.breaks} breaks, ${c.decision?.unchanged} unchanged; slices ${c.decision?.steps.map((s) => s.evaluated).join(' → ')}`;
      lines.push(`- round ${r.round}, candidate ${c.index} (${c.tokens} tokens): **${c.outcome}** — ${detail}`);
    }
    if (r.reflectorError)
      lines.push(`- round ${r.round}: the reflector call failed: ${markdownText(r.reflectorError)}`);
  }
  lines.push(
    '',
    '## Final prompt',
    '',
    `Selected: ${markdownText(result.final.source)} · ${result.final.tokens} tokens (seed prompt: ${result.seed.tokens}) · hash \`${result.final.hash}\``,
    '',
    ...result.final.selectionPasses.map((s) => `- \`${s.hash}\`: ${s.passes}/${s.of} on the selection pool`),
    '',
    `Calls: reflector ${result.calls.reflector.count} (${Math.round(result.calls.reflector.meanPerCall)} tokens per call), task model ${result.calls.task.count} (${result.calls.task.tokens} tokens). Verified training examples for HERO-T: ${result.verifiedExamples.length}.`,
    '',
  );
  return lines.join('\n');
}
