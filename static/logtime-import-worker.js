// Logtime's import worker: reads the files of a dropped partition (or pasted kafka-dump-log
// text) with the import module (import-worker/, built by Trunk as logtime-import*), off the
// page's thread. The page loads this only when the reader imports, and stops it to cancel.
//
// In:  {files: [{file, name, path, size, modified}], paste: string|undefined, rules, now}
// Out: {type: 'progress', done, total, file} ... then {type: 'done', scenario, notes, skipped,
//      segments, bytes} or
//      {type: 'error', message}.
importScripts('./logtime-import.js');

const CHUNK = 1 << 20;
const ready = wasm_bindgen({ module_or_path: './logtime-import_bg.wasm' });

function run({ files, paste, rules, now }) {
  if (paste !== undefined) return wasm_bindgen.paste(paste, rules, now);
  const meta = files.map(({ name, path, size, modified }) => ({ name, path, size, modified }));
  const job = new wasm_bindgen.ImportJob(JSON.stringify(meta), rules);
  const reader = new FileReaderSync();
  const reads = job.reads();
  let last = 0;
  for (let n = 0; n < reads.length; n++) {
    const { file, name } = files[reads[n]];
    job.begin(n);
    for (let at = 0; at < file.size; at += CHUNK) {
      const end = Math.min(file.size, at + CHUNK);
      const bytes = new Uint8Array(reader.readAsArrayBuffer(file.slice(at, end)));
      if (bytes.length !== end - at) throw `${name}: the file changed while it was read`;
      job.feed(bytes);
      const t = Date.now();
      if (t - last > 50 || end === file.size) {
        last = t;
        postMessage({ type: 'progress', done: job.done(), total: job.total(), file: name });
      }
    }
    job.end();
  }
  return job.finish(now);
}

onmessage = async (e) => {
  try {
    await ready;
    postMessage({ type: 'done', ...JSON.parse(run(e.data)) });
  } catch (err) {
    // Errors from the module are sentences; anything else (a file the browser cannot read) is
    // said as the browser says it.
    const message = typeof err === 'string' ? err : `the files could not be read: ${err && err.message ? err.message : err}`;
    postMessage({ type: 'error', message });
  }
};
