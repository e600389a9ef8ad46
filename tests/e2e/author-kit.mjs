// Helpers the author-mode end-to-end tests share (files.test.mjs drops files too): waiting for the
// standalone page, opening a draft on an empty partition, running the `logtime` CLI on a saved
// file, and dropping a file on the import panel.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, appRoot, waitText } from './harness.mjs';

/** The standalone page is up: its import panel shown and a scenario's title loaded. */
export async function ready(page) {
  await appRoot(page);
  await page.locator('[data-testid=import-panel]').waitFor({ timeout: 20_000 });
  await waitText(page.locator('[data-testid=scenario-title]'), /^(?!Loading)\S/, { timeout: 20_000 });
}

/** The `logtime` CLI (debug build; cargo run as a fallback). */
export function logtime(...args) {
  const bin = path.join(process.env.CARGO_TARGET_DIR ?? path.join(ROOT, 'target'), 'debug', 'logtime');
  if (fs.existsSync(bin)) return execFileSync(bin, args, { encoding: 'utf8' });
  return execFileSync('cargo', ['run', '-q', '--bin', 'logtime', '--', ...args], { cwd: ROOT, encoding: 'utf8' });
}

/** Drops a file named `name` holding `text` on the import panel, as a person drags one in. */
export async function drop(page, name, text) {
  const dt = await page.evaluateHandle(([n, t]) => {
    const d = new DataTransfer();
    d.items.add(new File([t], n, { type: 'application/json' }));
    return d;
  }, [name, text]);
  await page.locator('[data-testid=import-drop]').dispatchEvent('drop', { dataTransfer: dt });
}

/** Opens author mode on an empty Kafka 4.0 partition with one day of retention and 1 MiB
 * segments, and waits for the author pane. */
export async function emptyDraft(page) {
  await page.locator('[data-testid=author-button]').click();
  await page.locator('[data-testid=author-kafka]').selectOption('4.0');
  await page.locator('[data-testid=author-config-value-0]').fill('1d');
  await page.locator('[data-testid=author-config-value-1]').fill('1MiB');
  await page.locator('[data-testid=author-from-empty]').click();
  await page.locator('[data-testid=author]').waitFor();
}
