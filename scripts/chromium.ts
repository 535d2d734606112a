/**
 * The system's Chromium (Debian's `chromium` package) driven by playwright-core, for the
 * browser test, the page benchmark and the docs' screenshots: no browser is downloaded.
 * Each launch gets a fresh profile in a temp folder, removed on close; networking the
 * browser would do on its own (updates, sync, QUIC) is turned off.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** The Chromium binary: `IMPORTKIT_CHROMIUM`, else the distribution's; undefined when none. */
export function findChromium(env = process.env): string | undefined {
  const wanted = env.IMPORTKIT_CHROMIUM;
  if (wanted) return existsSync(wanted) ? wanted : undefined;
  return CANDIDATES.find((p) => existsSync(p));
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Launches headless Chromium with a fresh profile; `close` removes the profile. */
export async function launchChromium(
  executablePath: string,
  viewport = { width: 1100, height: 900 },
): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const profile = await mkdtemp(join(tmpdir(), 'importkit-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath,
      headless: true,
      viewport,
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
    });
    return {
      context,
      async close() {
        await context.close();
        await rm(profile, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await rm(profile, { recursive: true, force: true });
    throw err;
  }
}
