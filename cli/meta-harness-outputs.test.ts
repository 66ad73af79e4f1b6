/**
 * What a search leaves a user, through the binary: a tiny `witness optimize meta-harness` on the
 * nl-rx fixtures (sim model, sim proposer) writes report.html beside report.md, which renders in
 * headless Chromium from file:// (a frontier scatter with one point per evaluated candidate, the
 * best-so-far line, a table row per evolution row, the notices, the held-out table); and the
 * leaderboard command it prints, run as printed, puts the found harness in the nl-rx leaderboard
 * next to zero-shot and HERO-T.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withoutSuiteData } from '../testing/child-env.ts';
import { MetaHarnessStore } from '../optimizers/meta-harness/store.ts';
import { browserInstalled, CHROMIUM, launchBrowser } from '../reports/__fixtures__/browser.ts';
import { readResultsFile } from '../reports/results-file.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'witness-mh-outputs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = (extra: Record<string, string> = {}) => {
  const e = withoutSuiteData(process.env, { NO_COLOR: '1', FORCE_COLOR: '0' });
  for (const name of Object.keys(e))
    if (name.startsWith('WITNESS_') || name.startsWith('OPENAI_') || name.startsWith('VITEST') || name === 'TEST')
      delete e[name];
  return { ...e, WITNESS_STORE: join(dir, 'store'), ...extra };
};

/** Runs the binary in `cwd` (the package folder, as a user in a checkout would). */
const witness = (args: string[], extra: Record<string, string> = {}) => {
  const run = spawnSync(process.execPath, [join(root, 'bin/witness.js'), ...args], {
    cwd: root,
    env: env(extra),
    encoding: 'utf8',
    timeout: 180_000,
  });
  return { ...run, output: `${run.stdout}\n${run.stderr}` };
};

let stdout = '';
beforeAll(() => {
  const run = witness([
    'optimize',
    'meta-harness',
    '--suite',
    'nl-rx',
    '--model',
    'sim-steerable',
    '--iterations',
    '2',
    '--candidates',
    '2',
    '--seeds',
    'zero-shot,self-verify',
    '--limit',
    '5',
    '--out',
    join(dir, 'out'),
  ]);
  expect(run.status, run.output).toBe(0);
  stdout = run.stdout;
}, 180_000);

const line = (label: string) => stdout.match(new RegExp(`^${label}: (.+)$`, 'm'))?.[1] ?? '';

describe('the search report as a page', () => {
  it('renders from file:// in Chromium: one point per evaluated candidate, a row per evolution row, the notices', async () => {
    expect(browserInstalled(), `${CHROMIUM} is missing: run .ci/setup.d/40-browser.sh`).toBe(true);
    const htmlFile = line('html report');
    expect(htmlFile).toMatch(/report\.html$/);
    expect(existsSync(join(htmlFile, '..', 'report.md'))).toBe(true);
    const store = new MetaHarnessStore(join(dir, 'out'), line('store').split('/').pop() as string);
    const rows = store.readEvolution();
    const frontier = new Set(store.readFrontier()?.members.map((m) => m.id));
    const scored = rows.filter((r) => r.passAtFinal !== null);
    expect(rows.length).toBe(6);

    const context = await launchBrowser();
    try {
      const page = await context.newPage();
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('pageerror', (e) => problems.push(String(e)));
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      page.on('request', (r) => !r.url().startsWith('file:') && requests.push(r.url()));
      await page.goto(pathToFileURL(htmlFile).href);
      await page.waitForFunction("document.body.dataset.ready === 'true'", undefined, { timeout: 30_000 });
      expect(problems).toEqual([]);
      expect(requests).toEqual([]);

      // Page code is given as text: this project compiles without the DOM library.
      const charts = (await page.evaluate(`Object.values(Chart.instances).map((chart) => {
        const canvas = chart.canvas;
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        let drawn = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i] > 0) drawn++;
        return { id: canvas.id, drawn, datasets: chart.data.datasets.map((d) => ({ label: d.label, points: d.data.map((p) => p && typeof p === 'object' ? p.id : p) })) };
      })`)) as { id: string; drawn: number; datasets: { label: string; points: unknown[] }[] }[];
      const scatter = charts.find((c) => c.id === 'frontier-chart');
      const evolution = charts.find((c) => c.id === 'evolution-chart');
      expect(scatter?.drawn).toBeGreaterThan(500);
      expect(evolution?.drawn).toBeGreaterThan(500);
      const [front, dominated] = scatter?.datasets ?? [];
      expect(new Set(front?.points)).toEqual(new Set(scored.filter((r) => frontier.has(r.id)).map((r) => r.id)));
      expect(new Set(dominated?.points)).toEqual(new Set(scored.filter((r) => !frontier.has(r.id)).map((r) => r.id)));
      expect((front?.points.length ?? 0) + (dominated?.points.length ?? 0)).toBe(scored.length);
      // Best so far never falls, and ends at the best candidate's Pass@final.
      const bestSoFar = (evolution?.datasets[0]?.points ?? []) as number[];
      expect(bestSoFar).toHaveLength(3);
      for (let i = 1; i < bestSoFar.length; i++)
        expect(bestSoFar[i]).toBeGreaterThanOrEqual(bestSoFar[i - 1] as number);
      expect(bestSoFar.at(-1)).toBeCloseTo(100 * Math.max(...scored.map((r) => r.passAtFinal as number)), 6);

      const tableIds = await page
        .locator('#candidates-table tbody tr')
        .evaluateAll((trs) => trs.map((tr) => (tr as unknown as { dataset: { id: string } }).dataset.id));
      expect(tableIds).toEqual(rows.map((r) => r.id));
      const first = rows.find((r) => r.iteration === 1);
      const cells = await page.locator(`#candidates-table tr[data-id="${first?.id}"] td`).allTextContents();
      expect(cells).toContain(first?.mechanism);
      expect(cells).toContain(first?.hypothesis);
      expect(cells).toContain(first?.parent ?? '—');
      await expect(page.locator('#proposer-simulated').textContent()).resolves.toMatch(/Proposer simulated/);
      await expect(page.locator('#privileged').textContent()).resolves.toMatch(/[Pp]rivileged/);
      const heldOut = store.readHeldOut();
      await expect(page.locator('#heldout-table tbody tr').count()).resolves.toBe(heldOut?.results.length);
      await expect(page.locator('#heldout-table').textContent()).resolves.toContain('seed-zero-shot (baseline)');
    } finally {
      await context.close();
    }
  }, 60_000);
});

describe('a found harness in a leaderboard', () => {
  it('the printed bench command runs it next to zero-shot and hero-t: the nl-rx results hold its row', async () => {
    const command = line('leaderboard');
    expect(command).toMatch(/^npx witness bench --suite nl-rx --strategies zero-shot,hero-t,harness:\S+harness\.ts$/);
    const harness = (command.match(/harness:(\S+)$/) as RegExpMatchArray)[1] as string;
    const args = command.replace(/^npx witness /, '').split(' ');
    const out = join(dir, 'bench');
    const run = witness([...args, '--limit', '4'], { WITNESS_OUT: out });
    expect(run.status, run.output).toBe(0);
    const { trajectories } = await readResultsFile(join(out, 'results.json'));
    const name = `harness:${resolve(root, harness)}`;
    const byStrategy = (s: string) => trajectories.filter((t) => t.strategy === s);
    expect(byStrategy('zero-shot')).toHaveLength(4);
    expect(byStrategy('hero-t')).toHaveLength(4);
    expect(byStrategy(name)).toHaveLength(4);
    expect(new Set(trajectories.map((t) => t.strategy)).size).toBe(3);
    for (const t of byStrategy(name)) expect(t.outcome.status).not.toBe('harness-error');
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain(name);
  }, 180_000);

  it('a harness file that does not exist is a usage error naming it', () => {
    const run = witness([
      'bench',
      '--suite',
      'nl-rx',
      '--strategies',
      'zero-shot,harness:no/such/harness.ts',
      '--dry-run',
    ]);
    expect(run.status).toBe(2);
    expect(run.output).toMatch(
      /--strategies: harness:no\/such\/harness\.ts: there is no harness file .*no\/such\/harness\.ts/,
    );
  });
});
