/** The page as text: self-contained and safe against hostile strings (the browser test checks it renders). */
import { describe, expect, it } from 'vitest';
import { CASES, makeTrajectory } from './__fixtures__/trajectories.ts';
import { renderHtml, scriptJson } from './html.ts';
import { buildReport } from './report-data.ts';

describe('the HTML report', () => {
  it('embeds data that cannot close its script element or break JavaScript', () => {
    const text = scriptJson({ s: '</script><script>alert(1)</script>\u2028' });
    expect(text).not.toMatch(/<\/script/i);
    expect(text).not.toContain('\u2028');
    expect(JSON.parse(text)).toEqual({ s: '</script><script>alert(1)</script>\u2028' });
  });

  it('is one self-contained file: Chart.js and the page script inline, nothing fetched', () => {
    const hostile = makeTrajectory({
      taskId: '<img src=x onerror=alert(1)>',
      turns: [{ source: '</script><b>', pass: CASES }],
    });
    const { report, views } = buildReport([hostile]);
    const html = renderHtml(report, views);
    expect(html).toContain('Chart.js v4');
    expect(html).toContain('id="witness-data"');
    expect(html).not.toMatch(/<script[^>]+src=/i);
    expect(html).not.toMatch(/<link[^>]+href=/i);
    expect(html).not.toMatch(/\b(src|href)="https?:/i);
    // The hostile task id appears only inside the escaped JSON, never as markup.
    expect(html).not.toContain('<img src=x');
    expect(html.match(/<\/script>/g)).toHaveLength(3);
  });
});
