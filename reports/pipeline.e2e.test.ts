/**
 * The CI pipeline as .github/workflows/witness.yml declares it, run locally: the workflow file is
 * parsed and its own commands run — the shard matrix with the blob reporter, the merge that writes
 * the reports and gates against the committed baseline, the job summary — on the nl-rx suite with
 * the sim model. Then the HTML page is opened in a real headless Chromium (Debian's package,
 * driven by playwright-core) from file://: the plots rendered, the table sorts, a trajectory
 * opens; a screenshot is saved (to docs/img/ when WITNESS_SCREENSHOT=1, for the README).
 */
import { exec } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { schemaErrors } from './__fixtures__/schemas.ts';
import { readGateInput } from './outcomes.ts';
import { readResultsFile } from './results-file.ts';
import { withoutSuiteData } from '../testing/child-env.ts';
import { browserInstalled, CHROMIUM, launchBrowser } from './__fixtures__/browser.ts';

const run = promisify(exec);
const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'witness-pipeline-'));

interface Step {
  id?: string;
  run?: string;
  uses?: string;
  if?: string;
  env?: Record<string, string>;
}
interface Job {
  needs?: string | string[];
  env?: Record<string, string>;
  strategy?: { matrix?: { shard?: number[] } };
  steps: Step[];
}
const workflow = parse(readFileSync(join(root, '.github/workflows/witness.yml'), 'utf8')) as {
  env: Record<string, string>;
  jobs: Record<string, Job>;
};
const bench = workflow.jobs.bench as Job;
const report = workflow.jobs.report as Job;
const step = (job: Job, id: string) => {
  const found = job.steps.find((s) => s.id === id);
  if (!found?.run) throw new Error(`the workflow has no step with id "${id}" and a run command`);
  return found.run;
};

/** Runs one of the workflow's commands with bash, as the runner would, with local folders. */
async function runStep(command: string, env: Record<string, string>, matrix: Record<string, string> = {}) {
  const resolved = command.replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (whole, name: string) => {
    if (name in matrix) return matrix[name] as string;
    throw new Error(`unexpected expression ${whole} in a run command`);
  });
  const childEnv: NodeJS.ProcessEnv = { ...withoutSuiteData(), ...workflow.env, ...env, NO_COLOR: '1' };
  for (const key of Object.keys(childEnv)) if (key.startsWith('VITEST') || key === 'TEST') delete childEnv[key];
  delete childEnv.WITNESS_MODEL;
  try {
    const { stdout, stderr } = await run(resolved, {
      cwd: root,
      env: childEnv,
      shell: '/bin/bash',
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, output: (e.stdout ?? '') + (e.stderr ?? '') };
  }
}

const local = {
  BLOB_DIR: join(dir, 'blobs'),
  // The nl-rx suite, two of its strategies (vitest file and name filters), to keep the test quick.
  WITNESS_SUITES: 'suites/nl-rx.eval.ts -t (zero-shot|diagnostic)$',
  WITNESS_STORE: join(dir, 'store'),
  WITNESS_RUN_ID: 'ci-run',
};
const out = join(dir, 'witness-out');
/** Shared instances the gate compared, from its printed check line ("n 74 (37 tasks)"). */
const data_shared = (output: string) => Number(/✓ nl-rx: .*, n (\d+) \(/.exec(output)?.[1]);
let merged = { code: -1, output: '' };

beforeAll(async () => {
  const shards = bench.strategy?.matrix?.shard ?? [];
  await Promise.all(
    shards.map((shard) =>
      runStep(
        step(bench, 'shard'),
        { ...local, WITNESS_OUT: join(dir, 'shard-out') },
        { 'matrix.shard': String(shard), 'strategy.job-total': String(shards.length) },
      ),
    ),
  );
  merged = await runStep(step(report, 'merge'), { ...local, ...report.env, WITNESS_OUT: out });
}, 180_000);

describe('the CI workflow', () => {
  it('declares a shard matrix with the blob reporter, a merge that gates against a committed baseline, and the job summary', async () => {
    expect(bench.strategy?.matrix?.shard?.length).toBeGreaterThanOrEqual(2);
    expect(step(bench, 'shard')).toMatch(/--shard=\$\{\{ matrix\.shard \}\}\/\$\{\{ strategy\.job-total \}\}/);
    expect(step(bench, 'shard')).toContain('--reporter=blob');
    expect(report.needs).toBe('bench');
    expect(step(report, 'merge')).toMatch(/--merge-reports=.* --reporter=\.\/reports\/reporter\.ts/);
    expect(report.steps.find((s) => s.id === 'summary')?.if).toContain('always()');
    expect(step(report, 'summary')).toContain('$GITHUB_STEP_SUMMARY');
    const baseline = await readGateInput(join(root, report.env?.WITNESS_GATE_BASELINE as string));
    expect(baseline.instances.filter((i) => i.benchmark === 'nl-rx').length).toBeGreaterThanOrEqual(37 * 6);
  });

  it('merges the shards into one run and passes the gate against the committed baseline', async () => {
    expect(merged.code, merged.output).toBe(0);
    expect(merged.output).toMatch(/Witness gate: pass/);
    const results = await readResultsFile(join(out, 'results.json'));
    expect(new Set(results.trajectories.map((t) => t.runId))).toEqual(new Set(['ci-run']));
    expect(results.trajectories).toHaveLength(37 * 2);
    expect(data_shared(merged.output)).toBe(37 * 2);
    expect(schemaErrors('witness.results', results)).toEqual([]);
    const data = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(schemaErrors('witness.report', data)).toEqual([]);
    expect(data.gate.status).not.toBe('fail');

    const summary = join(dir, 'step-summary.md');
    const posted = await runStep(step(report, 'summary'), {
      ...report.env,
      WITNESS_OUT: out,
      GITHUB_STEP_SUMMARY: summary,
    });
    expect(posted.code).toBe(0);
    const markdown = readFileSync(summary, 'utf8');
    expect(markdown).toMatch(/^## Witness gate: pass/);
    expect(markdown).toContain('## nl-rx · sim');
    expect(markdown.length).toBeLessThan(65_536); // fits a pull-request comment
  });

  it('fails the merge step when the run is worse than the baseline, naming the instances that broke', async () => {
    const baseline = JSON.parse(readFileSync(join(root, report.env?.WITNESS_GATE_BASELINE as string), 'utf8'));
    for (const i of baseline.instances) Object.assign(i, { status: 'solved', solvedAtTurn: 1 });
    const better = join(dir, 'better-baseline.json');
    writeFileSync(better, JSON.stringify(baseline));
    const gated = await runStep(step(report, 'merge'), {
      ...local,
      ...report.env,
      WITNESS_OUT: join(dir, 'gated'),
      WITNESS_GATE_BASELINE: better,
    });
    expect(gated.code).not.toBe(0);
    expect(gated.output).toContain('Witness gate: FAIL — Pass@1 regressed or fell below the floor in nl-rx');
    expect(gated.output).toMatch(/broke: nl-rx · \S+ · task \S+ · trial 0;/);
    expect(readFileSync(join(dir, 'gated', 'summary.md'), 'utf8')).toMatch(/^## Witness gate: FAIL/);
  }, 60_000);
});

describe('the HTML report in a real browser', () => {
  const browserReady = browserInstalled();
  let context: Awaited<ReturnType<typeof launchBrowser>> | undefined;
  afterAll(async () => {
    await context?.close();
  });

  it('renders the plots from file:// with no network, sorts the table and opens a trajectory', async () => {
    expect(browserReady, `${CHROMIUM} is missing: run .ci/setup.d/40-browser.sh`).toBe(true);
    context = await launchBrowser();
    const page = await context.newPage();
    const problems: string[] = [];
    const requests: string[] = [];
    page.on('pageerror', (e) => problems.push(String(e)));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('request', (r) => !r.url().startsWith('file:') && requests.push(r.url()));
    await page.goto(pathToFileURL(join(out, 'report.html')).href);
    // Page code is given as text: this project compiles without the DOM library.
    await page.waitForFunction("document.body.dataset.ready === 'true'", undefined, { timeout: 30_000 });
    expect(problems).toEqual([]);
    expect(requests).toEqual([]);

    // Every plot is a Chart.js instance whose canvas has drawn pixels.
    const canvases = (await page.evaluate(`Object.values(Chart.instances).map((chart) => {
      const canvas = chart.canvas;
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      let drawn = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) drawn++;
      return { label: canvas.getAttribute('aria-label'), drawn };
    })`)) as { label: string; drawn: number }[];
    expect(canvases.map((c) => c.label)).toEqual(
      expect.arrayContaining([
        'Convergence: solved by turn t (%)',
        'Time to success (episodes by first solving turn)',
        'Fixes vs breaks of hidden cases between turns',
        'Hidden vs hardened vs robust success (%)',
      ]),
    );
    for (const c of canvases) expect(c.drawn, `${c.label} is blank`).toBeGreaterThan(500);
    await expect(page.locator('#gate h2').textContent()).resolves.toMatch(/^Witness gate: pass/);

    // The leaderboard sorts by a column (descending first for numbers).
    const section = page.locator('section.card', { has: page.locator('h2', { hasText: 'nl-rx · sim' }) });
    await section.locator('table.leaderboard th', { hasText: 'Pass@final %' }).click();
    const order = await section.locator('table.leaderboard tbody tr td:nth-child(4)').allTextContents();
    const values = order.map((t) => Number.parseFloat(t));
    expect(values).toEqual([...values].sort((a, b) => b - a));
    expect(await section.locator('table.leaderboard th[aria-sort="descending"]').textContent()).toBe('Pass@final %');

    await page.screenshot({ path: join(dir, 'report.png') });
    if (process.env.WITNESS_SCREENSHOT === '1') {
      mkdirSync(join(root, 'docs/img'), { recursive: true });
      copyFileSync(join(dir, 'report.png'), join(root, 'docs/img/report.png'));
    }

    // A diagnostic episode solved after feedback: every turn's candidate, verdict, witnesses and feedback.
    await section
      .locator('tr', { has: page.locator('button.run.solved[title*="diagnostic"]') })
      .first()
      .locator('button.run.solved[title*="diagnostic"]')
      .click();
    const dialog = page.locator('dialog#trajectory[open]');
    await expect(dialog.locator('#trajectory-title').textContent()).resolves.toMatch(
      /^task \S+ · diagnostic · trial 0$/,
    );
    const turns = dialog.locator('article.turn');
    expect(await turns.count()).toBeGreaterThanOrEqual(2);
    await expect(turns.first().locator('h4').textContent()).resolves.toMatch(/^Turn 1 \(solve\): ✗/);
    expect(await turns.first().locator('pre.candidate').textContent()).not.toBe('');
    expect(await turns.first().locator('ul.witnesses li').count()).toBeGreaterThan(0);
    await expect(turns.first().locator('pre.feedback').textContent()).resolves.toMatch(/\S/);
    await expect(turns.last().locator('h4').textContent()).resolves.toMatch(/✓ passed all \d+ cases/);
    await page.screenshot({ path: join(dir, 'trajectory.png') });
    await dialog.locator('button.close').click();
    await expect(page.locator('dialog#trajectory[open]').count()).resolves.toBe(0);
  }, 90_000);
});
