/**
 * Debian's Chromium, headless, driven by playwright-core (`.ci/run` installs
 * it when missing; CHROMIUM_PATH names another binary), and the folder where
 * browser tests keep their screenshots for a person to look at:
 * test-output/browser/ at the repository root (OFFEROPS_TEST_OUTPUT changes
 * the root).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Browser, chromium } from 'playwright-core';

export const SCREENSHOTS = resolve(process.env.OFFEROPS_TEST_OUTPUT ?? join(__dirname, '../../../test-output'), 'browser');

/** Starts the browser (and makes sure the screenshot folder exists). */
export async function launchBrowser(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    throw new Error(
      `The browser tests need Chromium at ${executablePath}: install Debian's (sudo apt-get install -y chromium), ` +
        'or name another Chromium binary in CHROMIUM_PATH.',
    );
  }
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** Where a screenshot called `name` (without extension) goes. */
export const screenshotPath = (name: string): string => join(SCREENSHOTS, `${name}.png`);
