/**
 * The report page of a large run: trajectories in report-data/, one script per task, loaded when
 * one is opened — in a real headless Chromium from file:// — and read back in full from a real
 * run store though the reports were given only the compact copies task meta carries.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compactTrajectory } from '../core/meta.ts';
import { RunStore } from '../core/store.ts';
import type { Trajectory } from '../core/types.ts';
import { browserInstalled, CHROMIUM, launchBrowser } from './__fixtures__/browser.ts';
import { CASES, makeTrajectory } from './__fixtures__/trajectories.ts';
import { FullTrajectories } from './full-trajectories.ts';
import { compareTrajectories } from './merge.ts';
import { readResultsFile } from './results-file.ts';
import { writeReports } from './write-reports.ts';

const storeDir = mkdtempSync(join(tmpdir(), 'witness-lazy-store-'));
const store = new RunStore(storeDir, 'run-1');
const full: Trajectory[] = [];
for (const task of ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12'])
  for (const strategy of ['zero-shot', 'diagnostic']) {
    const t = makeTrajectory({
      taskId: task,
      strategy,
      turns: [
        { source: 'a', pass: [] },
        { source: 'b', pass: CASES },
      ],
    });
    full.push({
      ...t,
      turns: t.turns.map((turn) => ({ ...turn, messages: [{ role: 'user', content: `PROMPT of task ${task} <b>` }] })),
    });
  }
const source = new FullTrajectories();
const compact = full.map((t) => {
  const c = compactTrajectory(t);
  source.remember(c, { storeDir, runId: 'run-1', ...store.save(t) });
  return c;
});

const out = mkdtempSync(join(tmpdir(), 'witness-lazy-out-'));
let context: Awaited<ReturnType<typeof launchBrowser>> | undefined;
afterAll(async () => {
  await context?.close();
});

describe('the report page of a large run', () => {
  it('keeps trajectories in report-data/, one script per task, and results.json has them in full', async () => {
    const written = await writeReports(out, compact, { fullSource: source, inlineViewsMax: 10 });
    expect(written.reportData).toBe(join(out, 'report-data'));
    expect(readdirSync(join(out, 'report-data')).sort()).toHaveLength(12);
    const html = readFileSync(written.html, 'utf8');
    expect(html).not.toContain('PROMPT of task');
    expect(html).toContain('"lazy":"report-data/"');
    expect((await readResultsFile(written.results)).trajectories).toEqual([...full].sort(compareTrajectories));
    expect(source.missing).toBe(0);
  });

  it('opens a task from file:// in Chromium, loading its script on demand; a missing folder is said so', async () => {
    expect(browserInstalled(), `${CHROMIUM} is missing: run .ci/setup.d/40-browser.sh`).toBe(true);
    context = await launchBrowser();
    const page = await context.newPage();
    const problems: string[] = [];
    const loaded: string[] = [];
    page.on('pageerror', (e) => problems.push(String(e)));
    page.on('request', (r) => loaded.push(r.url()));
    await page.goto(pathToFileURL(join(out, 'report.html')).href);
    await page.waitForFunction("document.body.dataset.ready === 'true'", undefined, { timeout: 30_000 });
    expect(loaded.filter((u) => u.includes('report-data'))).toEqual([]);
    await page.locator('tr[data-task="7"] button.run[title*="diagnostic"]').click();
    const dialog = page.locator('dialog#trajectory[open]');
    await expect(dialog.locator('#trajectory-title').textContent()).resolves.toBe('task 7 · diagnostic · trial 0');
    await expect(dialog.locator('details pre').first().textContent()).resolves.toBe('PROMPT of task 7 <b>');
    expect(await dialog.locator('article.turn').count()).toBe(2);
    expect(loaded.filter((u) => u.includes('report-data')).map((u) => u.replace(/.*\//, ''))).toHaveLength(1);
    expect(problems).toEqual([]);

    rmSync(join(out, 'report-data'), { recursive: true });
    await page.reload();
    await page.waitForFunction("document.body.dataset.ready === 'true'", undefined, { timeout: 30_000 });
    await page.locator('tr[data-task="3"] button.run[title*="zero-shot"]').click();
    await expect(page.locator('dialog#trajectory[open] p.privileged').first().textContent()).resolves.toMatch(
      /could not be loaded from .*report-data\/c\d+\.js \(keep the report-data folder next to report\.html\)/,
    );
  }, 60_000);

  it('a small run is one self-contained page again: a report-data/ folder left from a larger one is removed', async () => {
    await writeReports(out, compact, { fullSource: source, inlineViewsMax: 100 });
    expect(existsSync(join(out, 'report-data'))).toBe(false);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('PROMPT of task 7');
  });
});
