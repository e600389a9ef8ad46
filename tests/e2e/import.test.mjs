// End-to-end tests of importing a real partition: the partition folders Apache Kafka wrote
// (tests/import/kafka) through the file pickers and a drop, kafka-dump-log text pasted, damaged
// and malformed files, and a moment link of the imported partition. Every expected number comes
// from what Kafka reported (report.json next to each fixture).
// Run after `trunk build --release --offline`:  node --test tests/e2e/import.test.mjs
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import zlib from 'node:zlib';
import { ROOT, SCREENSHOTS, appRoot, screenshot, useE2E, waitText, withPage } from './harness.mjs';

const e2e = useE2E();
const FIXTURES = path.join(ROOT, 'tests', 'import');

const json = (...p) => JSON.parse(fs.readFileSync(path.join(FIXTURES, ...p), 'utf8'));

async function ready(page) {
  await appRoot(page);
  await page.locator('[data-testid=clock]').first().waitFor({ timeout: 20_000 });
  await page.locator('[data-testid=import-panel]').waitFor({ timeout: 20_000 });
  // The page's own scenario has arrived (its title no longer says it is loading).
  await waitText(page.locator('[data-testid=scenario-title]'), /^(?!Loading)\S/, { timeout: 20_000 });
}

async function text(page, sel) {
  return (await page.locator(sel).first().innerText()).replace(/\s+/g, ' ');
}

/** Sets the import's broker clock and rules preset. */
async function settings(page, now, kafka) {
  await page.locator('[data-testid=import-clock]').fill(String(now));
  await page.locator('[data-testid=import-clock]').dispatchEvent('change');
  if (kafka) await page.locator('[data-testid=import-rules]').selectOption(kafka);
}

/** Waits for the imported partition's table to list exactly `bases`. */
async function rows(page, bases) {
  await page.locator('[data-testid=inspect-table]').waitFor({ timeout: 20_000 });
  const ids = await page.locator('[data-testid=inspect-table] tbody tr').evaluateAll((rs) => rs.map((r) => r.dataset.testid));
  assert.deepEqual(ids, bases.map((b) => `inspect-row-${b}`));
}

async function lookup(page, spec) {
  if (['earliest', 'latest', 'max-timestamp'].includes(spec)) {
    await page.locator('.lt-lookup .lt-chips button', { hasText: spec }).click();
  } else {
    await page.locator('[data-testid=lookup-time]').fill(spec);
    await page.locator('[data-testid=lookup-go]').click();
  }
  const answer = page.locator('[data-testid=lookup-answer]');
  await answer.waitFor();
  const m = (await answer.innerText()).match(/offset (-?\d+)/);
  return Number(m[1]);
}

/** The moment link's scenario, unpacked. */
async function linkedScenario(page) {
  await page.locator('[data-testid=copy-link]').click();
  const url = await page.locator('[data-testid=moment-link]').inputValue();
  const z = new URL(url).searchParams.get('z');
  assert.ok(z, `the link carries the scenario: ${url.slice(0, 120)}`);
  return { url, scenario: JSON.parse(zlib.inflateRawSync(Buffer.from(z, 'base64url')).toString('utf8')) };
}

// A copy of a fixture's partition folder whose .log modification times are the ones Kafka's
// replay had: Kafka reads them as the largest timestamp of a segment without record stamps, and
// the browser passes them on as File.lastModified.
function withMtimes(src, segments) {
  const dst = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'logtime-import-')), 'clicks-0');
  fs.cpSync(src, dst, { recursive: true });
  for (const s of segments) {
    const t = new Date(s.largest_timestamp);
    fs.utimesSync(path.join(dst, `${String(s.base_offset).padStart(20, '0')}.log`), t, t);
  }
  return dst;
}

const segFiles = (dir) => fs.readdirSync(dir).sort().map((n) => path.join(dir, n));

for (const [name, which] of [
  ['pinned-retention', 'live'],
  ['lookup-out-of-order', 'closed'],
  ['far-offsets', 'live'],
  ['log-append-time', 'live'],
  ['many-small-segments', 'live'],
  ['no-timestamp-and-keys', 'closed'],
]) {
  test(`${name} (${which}): the imported partition is what Kafka reported`, async () => {
    const report = json('kafka', name, 'report.json');
    const scenario = json('kafka', name, 'scenario.json');
    const now = report.steps.at(-1).now;
    const fin = report.final;
    const dir = withMtimes(path.join(FIXTURES, 'kafka', name, which, 'clicks-0'), fin.segments);
    await withPage(e2e, { path: '/index.html', reducedMotion: 'reduce' }, async (page) => {
      await ready(page);
      await settings(page, now, scenario.kafka);
      const t0 = Date.now();
      if (which === 'closed') {
        await page.locator('[data-testid=import-folder]').setInputFiles(dir);
      } else {
        await page.locator('[data-testid=import-files]').setInputFiles(segFiles(dir));
      }
      await rows(page, fin.segments.map((s) => s.base_offset));
      console.log(`[import] ${name} ${which}: ${Date.now() - t0} ms to the table`);
      // A folder gives the partition its name; loose files cannot.
      const title = which === 'closed' ? 'clicks-0 (imported)' : 'partition (imported)';
      assert.equal(await text(page, '[data-testid=scenario-title]'), title);
      assert.match(await text(page, '[data-testid=import-done]'), /Left aside \(not segment files\): leader-epoch-checkpoint, partition.metadata, \d+ producer snapshots/);
      for (const s of fin.segments) {
        const row = await text(page, `[data-testid=inspect-row-${s.base_offset}]`);
        assert.match(row, new RegExp(`^${s.base_offset} ${s.base_offset}–${s.next_offset - 1} ${s.size_bytes} B`), row);
        assert.ok(row.includes(new Date(s.largest_timestamp).toISOString().replace('.000Z', 'Z')), `${row} has ${s.largest_timestamp}`);
      }
      // The indexes, as the import kept them, travel in the link's scenario.
      const { scenario: linked } = await linkedScenario(page);
      assert.equal(linked.log.log_start_offset, fin.log_start_offset);
      linked.log.segments.forEach((g, i) => {
        const w = fin.segments[i];
        assert.equal(g.base_offset, w.base_offset);
        assert.deepEqual(g.offset_index, w.offset_index, `${name} segment ${w.base_offset} .index`);
        if (which === 'live') assert.deepEqual(g.time_index, w.time_index, `${name} segment ${w.base_offset} .timeindex`);
      });
      // Every lookup of the scenario answers what Kafka answered.
      scenario.steps.forEach((st, i) => (st.index = i));
      for (const st of scenario.steps.filter((s) => s.lookup)) {
        const spec = st.lookup.timestamp ?? st.lookup.spec;
        const want = report.steps[st.index].lookup.offset;
        if (spec === 'latest' && want === -1) continue;
        assert.equal(await lookup(page, spec), want, `${name}: lookup ${spec}`);
      }
    });
  });
}

test('pinned-retention: the verdicts, what pins them, the DeleteRecords remedy, and a link round trip', async () => {
  const dir = path.join(FIXTURES, 'kafka', 'pinned-retention', 'closed', 'clicks-0');
  let url;
  await withPage(e2e, { path: '/index.html', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    assert.match(await text(page, '[data-testid=import-private]'), /nothing is uploaded and nothing leaves this computer/);
    await settings(page, '2027-03-11T00:00:00Z', '3.6');
    await page.locator('[data-testid=import-folder]').setInputFiles(dir);
    await rows(page, [18, 24, 30]);
    assert.match(await text(page, '[data-testid=inspect-row-18]'), /in 2 y 355 d kept: stamped in the future/);
    assert.match(await text(page, '[data-testid=inspect-row-24]'), /8 d 20 h expired, pinned 18 2030-03-07T18:00:00.001Z/);
    assert.match(await text(page, '[data-testid=inspect-row-30]'), /expired, pinned 18/);
    assert.match(await text(page, '[data-testid=inspect-future]'), /Segment 18 is stamped .* ahead of the clock \(2030-02-28T18:00:00Z\); it pins 2 expired segments \(2040 B\)/);
    assert.match(
      await text(page, '[data-testid=inspect-delete-records]'),
      /DeleteRecords to offset 24 \(the end of pinning segment 18\) would let the next retention check delete segments 18, 24, 30 \(3060 B\); the log start offset becomes 36/,
    );
    // The index files differ from the default index.interval.bytes, and the note says which fits.
    assert.match(await text(page, '[data-testid=import-notes]'), /index.interval.bytes between \d+ and \d+ .*set it in the config panel/);
    await screenshot(page, 'import-pinned-desktop');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForTimeout(150);
    await screenshot(page, 'import-pinned-mobile');
    // The panel alone, readable at 375 px.
    await page.locator('[data-testid=import-panel]').screenshot({ path: path.join(SCREENSHOTS, 'import-panel-mobile.png') });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px at 375 px`);
    await page.setViewportSize({ width: 1280, height: 800 });
    ({ url } = await linkedScenario(page));
    // The remedy runs in the explorer: the table follows.
    await page.locator('[data-testid=inspect-delete-go]').click();
    await rows(page, [36]);
    assert.match(await text(page, '[data-testid=inspect-row-36]'), /kept: empty active/);
  });
  // The link rebuilds the imported partition on a fresh page.
  await withPage(e2e, { path: url.slice(url.indexOf('/index.html')), reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    await rows(page, [18, 24, 30]);
    assert.match(await text(page, '[data-testid=scenario-title]'), /clicks-0 \(imported\)/);
    assert.match(await text(page, '[data-testid=inspect-row-24]'), /expired, pinned 18/);
    assert.equal(await lookup(page, '2027-03-02T00:00:00Z'), 18);
  });
});

test('the broker clock typed and files picked at once; one DeleteRecords offset in both panels', async () => {
  const dir = path.join(FIXTURES, 'kafka', 'pinned-retention', 'closed', 'clicks-0');
  await withPage(e2e, { path: '/index.html', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    await page.locator('[data-testid=import-rules]').selectOption('3.6');
    // Typed key by key, the field still focused, the folder picked straight away: no change
    // event has fired, and the import must still run at the typed clock, not this computer's.
    const clock = page.locator('[data-testid=import-clock]');
    await clock.click();
    await clock.pressSequentially('2027-03-11T00:00:00Z');
    assert.equal(await page.evaluate(() => {
      const root = document.querySelector('#app').shadowRoot;
      return root.activeElement?.dataset?.testid;
    }), 'import-clock', 'the clock field still has focus');
    await page.locator('[data-testid=import-folder]').setInputFiles(dir);
    await rows(page, [18, 24, 30]);
    assert.match(await text(page, '[data-testid=inspect-row-18]'), /in 2 y 355 d kept: stamped in the future/);
    assert.match(await text(page, '[data-testid=inspect-delete-records]'), /DeleteRecords to offset 24 /);
    // The Retention panel recommends the same offset once a check shows the pinned segment.
    await page.locator('[data-testid=run-retention]').click();
    await page.locator('[data-testid=verdict-18]').waitFor();
    assert.equal(await page.locator('[data-testid=delete-offset]').first().inputValue(), '24');
  });
});

// A broker's log directory picked whole: meta.properties (node 1), the KRaft metadata log that
// Kafka's own code wrote (scripts/kafka-metadata-log), and clicks-0. The page reads the partition
// under the configs the metadata log gives the topic and says where they came from; under the
// 4.1 preset it shows the WARN line a 4.1 broker logs for the pinning segment; and it shows the
// oldest record stamp. Every sentence is core's, as `logtime inspect` prints it.
test('a broker directory: configs from its metadata log, the 4.1 WARN line, the oldest record stamp', async () => {
  const dir = path.join(FIXTURES, 'kafka', 'metadata-log');
  await withPage(e2e, { path: '/index.html', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    await settings(page, '2027-03-11T00:00:00Z', '4.1');
    await page.locator('[data-testid=import-folder]').setInputFiles(dir);
    await rows(page, [18, 24, 30]);
    assert.equal(
      await text(page, '[data-testid=import-configs]'),
      "configs: retention.ms=7200000 (the metadata log); every other config is kafka's default",
    );
    assert.match(await text(page, '[data-testid=inspect] h3'), /retention\.ms 7200000, 2 h/);
    assert.match(
      await text(page, '[data-testid=inspect-kafka-41]'),
      /^A 4\.1 broker logs at WARN, on the logger LogFutureTimestampLogger \(KAFKA-18929\), at each retention check: LogSegment\(baseOffset=18, size=1020, lastModifiedTime=\d+, largestRecordTimestamp=1898532000000\) contains future timestamp\(s\), making it ineligible to be deleted$/,
    );
    assert.equal(await text(page, '[data-testid=inspect-oldest]'), 'oldest record stamp: 2027-03-01T18:00:00Z (age 9 d 6 h)');
    await page.locator('[data-testid=import-panel]').screenshot({ path: path.join(SCREENSHOTS, 'import-broker-desktop.png') });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForTimeout(150);
    await page.locator('[data-testid=import-panel]').screenshot({ path: path.join(SCREENSHOTS, 'import-broker-mobile.png') });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px at 375 px`);
    await page.setViewportSize({ width: 1280, height: 800 });
    // The partition folder alone under 4.0: Kafka's default retention.ms, no configs line, and
    // no WARN line (brokers before 4.1 log nothing at this check).
    await settings(page, '2027-03-11T00:00:00Z', '4.0');
    await page.locator('[data-testid=import-folder]').setInputFiles(path.join(dir, 'clicks-0'));
    await waitText(page.locator('[data-testid=inspect] h3'), /retention\.ms 604800000/);
    assert.equal(await page.locator('[data-testid=import-configs]').count(), 0);
    assert.equal(await page.locator('[data-testid=inspect-kafka-41]').count(), 0);
    assert.equal(await text(page, '[data-testid=inspect-oldest]'), 'oldest record stamp: 2027-03-01T18:00:00Z (age 9 d 6 h)');
  });
});

test('pasted kafka-dump-log output imports like the files', async () => {
  const dump = fs.readFileSync(path.join(FIXTURES, 'dump', 'lookup-out-of-order-live-3x-deep.txt'), 'utf8');
  await withPage(e2e, { path: '/index.html', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    await settings(page, '2025-11-04T10:00:10Z');
    await page.locator('.lt-paste summary').click();
    await page.locator('[data-testid=import-paste]').fill(dump);
    await page.locator('[data-testid=import-paste-go]').click();
    await rows(page, [0, 3]);
    assert.match(await text(page, '[data-testid=inspect-row-0]'), /^0 0–2 264 B 2025-11-04T10:00:04Z/);
    assert.equal(await lookup(page, '2025-11-04T10:00:03Z'), 1);
    assert.equal(await lookup(page, 'max-timestamp'), 3);
  });
});

test('malformed, damaged and compressed files: clear errors and notes, never a crash', async () => {
  await withPage(e2e, { path: '/index.html', reducedMotion: 'reduce' }, async (page) => {
    await ready(page);
    await settings(page, '2027-03-12T09:00:10Z');
    const files = page.locator('[data-testid=import-files]');
    // Not a segment file name and not text.
    await files.setInputFiles({ name: 'capture.bin', mimeType: 'application/octet-stream', buffer: Buffer.from([0x00, 0x01, 0xff, 0xfe, 0x0a]) });
    await page.locator('[data-testid=import-error]').waitFor();
    assert.match(await text(page, '[data-testid=import-error]'), /capture.bin: not kafka-dump-log output: line 1 is not text \(byte 3 of the line is not UTF-8\)/);
    // Text that is not a dump says which line.
    await files.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello\n') });
    await page.locator('[data-testid=import-error]', { hasText: 'notes.txt' }).waitFor();
    assert.match(await text(page, '[data-testid=import-error]'), /notes.txt: not kafka-dump-log output: line 1: expected a "Dumping FILE" line/);
    // An index without its .log.
    await files.setInputFiles(path.join(FIXTURES, 'kafka', 'pinned-retention', 'live', 'clicks-0', '00000000000000000018.index'));
    await page.locator('[data-testid=import-error]', { hasText: 'segment 18' }).waitFor();
    assert.match(await text(page, '[data-testid=import-error]'), /segment 18: index files without a .log file/);
    // A truncated tail is read the way Kafka's recovery reads it, and said where.
    await files.setInputFiles(path.join(FIXTURES, 'encoded', 'truncated-tail', '00000000000001843200.log'));
    await rows(page, [1843200]);
    assert.match(await text(page, '[data-testid=import-notes]'), /invalid batch at byte 1097: truncated .*Kafka's recovery keeps the first 1097 of 1168 bytes/);
    // Compressed batches: read at the batch level here, and the page says so.
    await files.setInputFiles(path.join(FIXTURES, 'encoded', 'v2-compressed', '00000000000001843200.log'));
    await page.locator('[data-testid=import-notes]', { hasText: 'Compressed batches are not expanded' }).waitFor();
    assert.match(await text(page, '[data-testid=import-notes]'), /gzip records not expanded: this build has no gzip codec/);
    await page.locator('[data-testid=inspect-row-1843200]', { hasText: '1843200–1843226' }).waitFor();
    await rows(page, [1843200]);
  });
});

test('a large segment shows its progress and can be cancelled', async () => {
  // A cancel before the worker has loaded its module aborts that fetch: that is the cancel
  // working, not a failure (the page must still report no error of its own).
  const aborted = /^request failed: \S*\/logtime-import(\.js|_bg\.wasm) \(net::ERR_ABORTED\)$/;
  await withPage(e2e, { path: '/index.html', reducedMotion: 'reduce', allowErrors: [aborted] }, async (page) => {
    await ready(page);
    const title = await text(page, '[data-testid=scenario-title]');
    // 256 MiB of a zero-filled (preallocated) segment, read slice by slice.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'logtime-import-'));
    const big = path.join(dir, '00000000000000000000.log');
    fs.closeSync(fs.openSync(big, 'w'));
    fs.truncateSync(big, 256 << 20);
    await page.locator('[data-testid=import-files]').setInputFiles(big);
    await page.locator('[data-testid=import-progress]').waitFor();
    assert.match(await text(page, '[data-testid=import-progress]'), /Reading (files|00000000000000000000.log): .* of /);
    await page.locator('[data-testid=import-cancel]').click();
    await page.locator('[data-testid=import-progress]').waitFor({ state: 'detached' });
    assert.equal(await text(page, '[data-testid=scenario-title]'), title);
    assert.equal(await page.locator('[data-testid=import-error]').count(), 0);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
