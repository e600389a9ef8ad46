// What the lessons and incidents suites share: core's answer key for a lesson file, read from
// `logtime explain` (never from the page), and stepping a lesson to its next question or task.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './harness.mjs';

/** `logtime explain [--seed N] FILE`, by the built CLI (cargo run as a fallback). */
export function explain(file, seed) {
  const args = ['explain', ...(seed === undefined ? [] : ['--seed', String(seed)]), file];
  const bin = path.join(process.env.CARGO_TARGET_DIR ?? path.join(ROOT, 'target'), 'debug', 'logtime');
  if (fs.existsSync(bin)) return execFileSync(bin, args, { encoding: 'utf8' });
  return execFileSync('cargo', ['run', '-q', '--bin', 'logtime', '--', ...args], { cwd: ROOT, encoding: 'utf8' });
}

/** Core's answer key: `{ kind: 'question'|'task', points, answer }` per item, in order. */
export function answerKey(file, seed) {
  const items = [];
  for (const line of explain(file, seed).split('\n')) {
    const head = line.match(/^step \d+ .*· (question|task) \d+ \((\d+) points\)/);
    if (head) items.push({ kind: head[1], points: Number(head[2]), answer: null });
    const a = line.match(/^ {2}answer: (.*)$/);
    if (a && items.length) items[items.length - 1].answer = a[1];
  }
  return items;
}

/** `3, 6 to 10` → [3, 6, 7, 8, 9, 10]. */
function offsets(list) {
  return list.split(', ').flatMap((part) => {
    const m = part.match(/^(\d+) to (\d+)$/);
    if (!m) return [Number(part)];
    const out = [];
    for (let o = Number(m[1]); o <= Number(m[2]); o++) out.push(o);
    return out;
  });
}

/** What the learner does to give `answer` (a line of the key). */
export function parseAnswer(answer) {
  let m;
  if ((m = answer.match(/^segments (.*)$/))) return { segments: m[1] === 'none' ? [] : m[1].split(', ').map(Number) };
  if (answer.startsWith('no segment')) return { segments: [] };
  if ((m = answer.match(/^records? (.*)$/))) return { records: offsets(m[1]) };
  if (answer.startsWith('no record')) return { records: [] };
  if ((m = answer.match(/^segment (\d+)$/))) return { segment: Number(m[1]) };
  if ((m = answer.match(/^offset (\d+)$/))) return { type: Number(m[1]), kind: 'offset' };
  if (answer.startsWith('no offset')) return { none: true };
  if ((m = answer.match(/^error (-?\d+)/))) return { type: Number(m[1]), kind: 'error' };
  if ((m = answer.match(/^any value from (-?\d+) to/))) return { type: Number(m[1]), kind: 'value' };
  if ((m = answer.match(/^value (-?\d+)/))) return { type: Number(m[1]), kind: 'value' };
  throw new Error(`an answer form the test does not know: ${answer}`);
}

export const next = (page) => page.locator('[data-testid=lesson-next]');

/** Clicks Next until a question or task is open (true), or the lesson is finished (false). */
export async function toItem(page) {
  for (let i = 0; i < 120; i++) {
    if (await page.locator('[data-testid=lesson-item] [data-testid=reveal-button]').count()) return true;
    if (!(await next(page).isEnabled())) return false;
    await next(page).click();
  }
  throw new Error('no item after 120 steps');
}
