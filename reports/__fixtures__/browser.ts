/** Headless Chromium (Debian's package) driven by playwright-core, as the browser tests launch it. Not a test file itself. */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Whether the browser is installed (.ci/setup.d/40-browser.sh installs it). */
export const browserInstalled = (): boolean => existsSync(CHROMIUM);

/** A fresh headless browser context with no network extras. */
export function launchBrowser(): ReturnType<typeof chromium.launchPersistentContext> {
  return chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'witness-chromium-')), {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1400, height: 1000 },
  });
}
