/** The gate's verdict as terminal text and as Markdown (for a job summary or a pull-request comment). */
import { markdownCode, markdownText, terminalSafe } from '../core/text-safety.ts';
import { type GateCheck, type GateVerdict, instanceLabel, METRIC_LABELS, scopeLabel } from './gate.ts';

/** Broken instances listed before "… and N more". */
export const MAX_LISTED = 20;

const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);
const points = (x: number | null) => (x === null ? '—' : `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}`);
const MARK = { pass: '✓', warn: '!', fail: '✗' } as const;

function policyLine(v: GateVerdict): string {
  const p = v.policy;
  return [
    `metric ${METRIC_LABELS[p.metric]}`,
    `noise band ${(p.noiseBand * 100).toFixed(1)} points`,
    `alpha ${p.alpha}`,
    `floor ${p.floor === undefined ? 'none' : pct(p.floor)}`,
    `one check per ${p.by}`,
    ...(p.strategies ? [`strategies ${p.strategies.join(', ')}`] : []),
  ].join(', ');
}

function numbers(c: GateCheck): string {
  const x = c.comparison;
  const ci = x.interval ? ` [${points(x.interval.low)}, ${points(x.interval.high)}]` : '';
  return `${pct(x.baselineRate)} → ${pct(x.candidateRate)}, Δ ${points(x.delta)}${ci} points, n ${x.n} (${x.tasks} tasks), fixes ${x.fixes.length}, breaks ${x.breaks.length}, sign test p ${x.sign.pWorse.toPrecision(3)}`;
}

function listed(c: GateCheck): string[] {
  const broke = c.comparison.breaks;
  if (broke.length === 0) return [];
  const shown = broke.slice(0, MAX_LISTED).map(instanceLabel);
  return [...shown, ...(broke.length > MAX_LISTED ? [`… and ${broke.length - MAX_LISTED} more`] : [])];
}

/** The verdict for a terminal (task ids, strategy names and paths come from outside: controls removed). */
export function renderGateText(v: GateVerdict): string {
  return terminalSafe(gateLines(v).join('\n'));
}

function gateLines(v: GateVerdict): string[] {
  const lines = [
    v.title,
    `  baseline  ${v.baseline.path} (run ${v.baseline.runId})`,
    `  candidate ${v.candidate.path} (run ${v.candidate.runId})`,
    `  policy: ${policyLine(v)}`,
  ];
  for (const c of v.checks) {
    lines.push(`  ${MARK[c.status]} ${scopeLabel(c)}: ${numbers(c)}`);
    for (const r of c.reasons) lines.push(`      ${r}`);
    const broke = listed(c);
    if (broke.length > 0 && c.status !== 'pass') lines.push(`      broke: ${broke.join('; ')}`);
  }
  for (const n of v.notes) lines.push(`  note: ${n}`);
  return lines;
}

/** The verdict as Markdown: a heading, the policy, one table row per check, the reasons and the broken instances. */
export function renderGateMarkdown(v: GateVerdict): string {
  const lines = [
    `## ${v.title}`,
    '',
    `Baseline ${markdownCode(v.baseline.runId)} (${markdownText(v.baseline.path)}) · candidate ${markdownCode(v.candidate.runId)} (${markdownText(v.candidate.path)}) · ${markdownText(policyLine(v))}`,
    '',
    `| | scope | baseline | candidate | Δ [95% CI] (points) | n (tasks) | fixes | breaks | sign test p |`,
    `|---|---|---:|---:|---:|---:|---:|---:|---:|`,
  ];
  for (const c of v.checks) {
    const x = c.comparison;
    const ci = x.interval ? ` [${points(x.interval.low)}, ${points(x.interval.high)}]` : '';
    lines.push(
      `| ${MARK[c.status]} | ${markdownText(scopeLabel(c))} | ${pct(x.baselineRate)} | ${pct(x.candidateRate)} | ${points(x.delta)}${ci} | ${x.n} (${x.tasks}) | ${x.fixes.length} | ${x.breaks.length} | ${x.sign.pWorse.toPrecision(3)} |`,
    );
  }
  for (const c of v.checks.filter((c) => c.reasons.length > 0)) {
    lines.push('', `**${markdownText(scopeLabel(c))}**: ${markdownText(c.reasons.join('; '))}.`);
    const broke = listed(c);
    if (broke.length > 0 && c.status !== 'pass')
      lines.push(
        '',
        '<details><summary>Instances that broke</summary>',
        '',
        ...broke.map((b) => `- ${markdownText(b)}`),
        '',
        '</details>',
      );
  }
  if (v.notes.length > 0) lines.push('', ...v.notes.map((n) => `- ${markdownText(n)}`));
  return `${lines.join('\n')}\n`;
}
