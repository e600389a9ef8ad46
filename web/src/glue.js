// The few things Logtime's wasm module asks of the browser in JS (a wasm-bindgen snippet,
// imported by the module's glue): the stopped-explorer guard, which must work when the wasm
// instance itself is dead; packing a scenario for a link with the browser's own
// CompressionStream; the clipboard; and an iframe's height for its host page.

const hosts = new Set();
let stopped = null;
let installed = false;

/** Registers an element that hosts an explorer, for the guard. */
export function guard(host) {
  hosts.add(host);
  if (stopped) drawStopped(host);
}

/** Forgets a host (its explorer was destroyed). */
export function unguard(host) {
  hosts.delete(host);
}

/**
 * Watches for the wasm instance dying. Out of memory is a trap (`RuntimeError: unreachable`),
 * not a panic, so Rust's panic hook never runs and every later call into the module fails: this
 * listener, plain JS, replaces every explorer on the page with a box that says so.
 */
export function installGuard() {
  if (installed) return;
  installed = true;
  addEventListener('error', (e) => onFailure(e.error));
  addEventListener('unhandledrejection', (e) => onFailure(e.reason));
}

/** Whether the instance has died (calls into it would fail). */
export function isStopped() {
  return stopped !== null;
}

function onFailure(err) {
  if (stopped || !(err instanceof WebAssembly.RuntimeError)) return;
  stopped = err;
  for (const host of hosts) drawStopped(host);
  dispatchEvent(new CustomEvent('logtime-stopped', { detail: { error: err } }));
}

function drawStopped(host) {
  const box = document.createElement('div');
  box.setAttribute('role', 'alert');
  box.dataset.testid = 'logtime-stopped';
  box.style.cssText =
    'box-sizing:border-box;margin:0;padding:0.75rem 1rem;border:2px solid #a1001c;border-radius:10px;' +
    'background:#fff1f2;color:#5c0011;font:15px/1.45 system-ui,sans-serif;color-scheme:light';
  const title = document.createElement('strong');
  title.textContent = 'The explorer stopped';
  const p = document.createElement('p');
  p.style.margin = '0.4rem 0 0.6rem';
  p.textContent =
    `Logtime ran out of memory or hit an internal error, and every explorer on this page stopped with it (${stopped}). ` +
    'Nothing you see in it would respond any more. Reloading the page starts it again.';
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Reload the page';
  button.style.cssText = 'font:inherit;padding:0.3rem 0.8rem;border-radius:6px;border:1px solid #a1001c;background:#fff;color:#5c0011;cursor:pointer';
  button.addEventListener('click', () => location.reload());
  box.append(title, p, button);
  (host.shadowRoot || host).replaceChildren(box);
}

function toBase64Url(bytes) {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Deflates (raw) and base64url-encodes text, for a scenario in a link. */
export async function pack(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return toBase64Url(new Uint8Array(await new Response(stream).arrayBuffer()));
}

/** Reverses `pack`; refuses more than `limit` bytes of output. Errors are sentences. */
export async function unpack(z, limit) {
  let bytes;
  try {
    const bin = atob(z.replace(/-/g, '+').replace(/_/g, '/'));
    bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  } catch {
    throw new Error('it is not base64url text');
  }
  // The input goes in 16 KiB at a time, each once the last is inflated: a stream fed whole
  // inflates each of its chunks (a megabyte or more) at once, a gigabyte for a deflate bomb
  // before the limit below can be checked. 16 KiB inflate to at most 16.5 MiB.
  const inflate = new DecompressionStream('deflate-raw');
  const writer = inflate.writable.getWriter();
  const reader = inflate.readable.getReader();
  (async () => {
    for (let i = 0; i < bytes.length; i += 16384) {
      await writer.ready;
      await writer.write(bytes.subarray(i, i + 16384));
    }
    await writer.close();
  })().catch(() => {
    // Cancelled by readText (over the limit) or not deflate: the reader reports it.
  });
  return readText(reader, limit, {
    tooLarge: `it unpacks to more than ${limit} bytes`,
    failed: 'it does not unpack',
    notText: 'it does not unpack to text',
  });
}

/**
 * Reads `reader` to its end as UTF-8 text of at most `limit` bytes; errors are the sentences
 * given: `tooLarge` past the limit, `failed` when a read fails, `notText` for bytes that are not
 * UTF-8. On an error the stream is cancelled and what was read is dropped: a stream left open
 * keeps filling the heap after the error (1 GB for a 1.4 MB link).
 */
async function readText(reader, limit, { tooLarge, failed, notText }) {
  const parts = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > limit) throw new Error(tooLarge);
      parts.push(value);
    }
  } catch (e) {
    parts.length = 0;
    reader.cancel().catch(() => {});
    throw new Error(e.message === tooLarge ? tooLarge : failed);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(await new Blob(parts).arrayBuffer());
  } catch {
    throw new Error(notText);
  }
}

/**
 * Fetches `url` as UTF-8 text, reading at most `limit` bytes and giving up after `timeoutMs`
 * (a server that never answers, an endless or gzip-bomb body). `signal` (optional) is a Cancel.
 * Rejects with a sentence: `took longer than N s`, `is larger than N bytes`, `was cancelled`,
 * `HTTP 404`, `is not UTF-8 text`, or `could not be fetched`. The body is streamed, so a body
 * over the limit is refused at the limit, not after it is read whole.
 */
export async function fetchTextBounded(url, limit, timeoutMs, signal) {
  const ctl = new AbortController();
  let why = null;
  const timer = setTimeout(() => { why = `took longer than ${Math.round(timeoutMs / 1000)} s`; ctl.abort(); }, timeoutMs);
  const onCancel = () => { why = 'was cancelled'; ctl.abort(); };
  if (signal) signal.addEventListener('abort', onCancel, { once: true });
  try {
    let resp;
    try {
      resp = await fetch(url, { signal: ctl.signal });
    } catch {
      throw new Error(why ?? 'could not be fetched');
    }
    if (!resp.ok) throw new Error(`HTTP ${resp.status}`);
    const declared = Number(resp.headers.get('content-length'));
    if (declared > limit) {
      ctl.abort();
      throw new Error(`is larger than ${limit} bytes (${declared})`);
    }
    try {
      return await readText(resp.body.getReader(), limit, {
        tooLarge: `is larger than ${limit} bytes`,
        failed: 'could not be read',
        notText: 'is not UTF-8 text',
      });
    } catch (e) {
      ctl.abort();
      throw new Error(why ?? e.message);
    }
  } finally {
    clearTimeout(timer);
    if (signal) signal.removeEventListener('abort', onCancel);
  }
}

/** A PNG of an SVG document, drawn by the browser to a canvas at twice its size. */
async function pngOf(svg) {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth * 2;
    canvas.height = img.naturalHeight * 2;
    const ctx = canvas.getContext('2d');
    ctx.scale(2, 2);
    ctx.drawImage(img, 0, 0);
    return await new Promise((ok, fail) =>
      canvas.toBlob((b) => (b ? ok(b) : fail(new Error('the canvas made no PNG'))), 'image/png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}

/**
 * Saves a picture of the moment as `name` (a download): the SVG itself, or a PNG of it. Resolves
 * to a sentence for the status line.
 */
export async function savePicture(svg, name, png) {
  try {
    const blob = png ? await pngOf(svg) : new Blob([svg], { type: 'image/svg+xml' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = name;
    a.style.display = 'none';
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 60000);
    return `Saved ${name}.`;
  } catch (e) {
    return `The picture could not be saved: ${e && e.message ? e.message : e}.`;
  }
}

/**
 * Puts a picture of the moment on the clipboard: a PNG where the browser takes images, else the
 * SVG's text. Resolves to a sentence for the status line, saying so when the clipboard refused.
 */
export async function copyPicture(svg) {
  try {
    if (window.ClipboardItem && navigator.clipboard && navigator.clipboard.write) {
      await navigator.clipboard.write([new ClipboardItem({ 'image/png': pngOf(svg) })]);
      return 'Copied the picture (PNG).';
    }
  } catch {
    // refused, or images not taken: try the SVG as text below
  }
  try {
    await navigator.clipboard.writeText(svg);
    return 'Copied the picture as SVG text.';
  } catch {
    return 'The browser refused the clipboard: use Save picture instead.';
  }
}

/** Whether a drag carries an SVG file (its type is known before the drop, its name is not). */
export function dragHasSvg(event) {
  const items = event.dataTransfer ? Array.from(event.dataTransfer.items || []) : [];
  return items.some((i) => i.kind === 'file' && i.type === 'image/svg+xml');
}

/** The text of the first SVG file dropped (at most 4 MiB), or null. */
export async function droppedText(event) {
  const files = event.dataTransfer ? Array.from(event.dataTransfer.files || []) : [];
  const f = files.find((f) => f.type === 'image/svg+xml' || f.name.endsWith('.svg'));
  if (!f || f.size > 4 * 1024 * 1024) return null;
  return await f.text();
}

/** Copies text to the clipboard; resolves to whether it could. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * In an iframe, tells the host page the document's height whenever it changes
 * (`{type: 'logtime:height', height}`), so a one-line listener can size the iframe.
 */
export function postHeight() {
  if (window.parent === window) return;
  let last = -1;
  const send = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height !== last) {
      last = height;
      window.parent.postMessage({ type: 'logtime:height', height }, '*');
    }
  };
  new ResizeObserver(send).observe(document.documentElement);
  send();
}

/**
 * Calls `changed(width, height)` with an element's CSS content size now and whenever it changes
 * (a ResizeObserver), so drawing never reads `clientWidth`, which forces a layout after every
 * DOM update. Returns the observer, for `unwatchSize`.
 */
export function watchSize(el, changed) {
  const observer = new ResizeObserver((entries) => {
    const r = entries[entries.length - 1].contentRect;
    changed(r.width, r.height);
  });
  observer.observe(el);
  return observer;
}

/**
 * Playback: calls `step(n)` at the start of animation frames with the `n` steps due at
 * `perSecond` steps a second, at most `most` in one frame (a page that cannot keep up plays
 * slower rather than in bursts). The steps' work and their one render land in the frame they
 * belong to. Returns the function that stops it.
 */
export function playFrames(perSecond, most, step) {
  let due = 0;
  let last = null;
  let id = requestAnimationFrame(function frame(t) {
    if (last !== null) due = Math.min(due + ((t - last) * perSecond) / 1000, most);
    last = t;
    const n = Math.floor(due);
    due -= n;
    id = requestAnimationFrame(frame);
    if (n > 0) step(n);
  });
  return () => cancelAnimationFrame(id);
}

/** Stops a `watchSize`. */
export function unwatchSize(observer) {
  observer.disconnect();
}

// Importing a partition: the files of a picker or a drop (folders walked), and the worker that
// reads them.

function picked(file, path) {
  return { file, name: file.name, path: path || file.webkitRelativePath || file.name, size: file.size, modified: file.lastModified };
}

/**
 * The text of a picked or dropped file (a scenario or lesson file), at most `limit` bytes of
 * UTF-8; errors are sentences.
 */
export function fileText(picked, limit) {
  return readText(picked.file.stream().getReader(), limit, {
    tooLarge: `it is larger than ${limit} bytes`,
    failed: 'it could not be read',
    notText: 'it is not UTF-8 text',
  });
}

/** The files an `<input type=file>` holds (a folder picker gives their paths in it). */
export function filesOfInput(input) {
  return Array.from(input.files || [], (f) => picked(f));
}

function entries(dir) {
  const reader = dir.createReader();
  return new Promise((resolve, reject) => {
    const all = [];
    const next = () => reader.readEntries((batch) => {
      if (batch.length === 0) resolve(all);
      else { all.push(...batch); next(); }
    }, reject);
    next();
  });
}

async function walk(entry, out) {
  if (entry.isFile) {
    const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
    out.push(picked(file, entry.fullPath.replace(/^\//, '')));
  } else if (entry.isDirectory) {
    for (const e of await entries(entry)) await walk(e, out);
  }
}

/**
 * The files of a drop, folders walked (their entries must be taken while the event runs, so
 * this is called from the handler and the walk finishes later).
 */
export function filesOfDrop(event) {
  event.preventDefault();
  const dt = event.dataTransfer;
  if (!dt) return Promise.resolve([]);
  const items = Array.from(dt.items || []).filter((i) => i.kind === 'file');
  const roots = items.map((i) => (i.webkitGetAsEntry ? i.webkitGetAsEntry() : null));
  if (roots.length === 0 || roots.some((e) => !e)) return Promise.resolve(Array.from(dt.files || [], (f) => picked(f)));
  return (async () => {
    const out = [];
    for (const e of roots) await walk(e, out);
    return out;
  })();
}

/**
 * Starts reading `files` (or `paste`, kafka-dump-log text) in the import worker, which sits next
 * to the module in dist/ (this snippet is dist/snippets/CRATE/src/glue.js). `onMessage` gets
 * its {type: 'progress' | 'done' | 'error'} messages. Returns the worker: stopping it cancels.
 */
export function importStart(files, paste, rules, now, onMessage) {
  let worker;
  try {
    worker = new Worker(new URL('../../../logtime-import-worker.js', import.meta.url));
  } catch (e) {
    setTimeout(() => onMessage({ type: 'error', message: `the import could not start: ${e.message}` }));
    return null;
  }
  worker.onmessage = (e) => {
    // Done or failed: free the worker's memory (a large import's can be large).
    if (e.data.type !== 'progress') worker.terminate();
    onMessage(e.data);
  };
  worker.onerror = (e) => {
    e.preventDefault();
    onMessage({ type: 'error', message: `the import stopped: ${e.message || 'its worker could not be loaded'}` });
  };
  worker.postMessage({ files, paste: paste ?? undefined, rules, now });
  return worker;
}

/**
 * The URL of `path` in dist/, resolved against this module's own URL (this snippet is
 * dist/snippets/CRATE/src/glue.js), so files beside the wasm are found wherever Logtime is
 * served: a sub-path, an iframe, or a page on another site that loads the embed script.
 */
export function assetUrl(path) {
  return new URL(`../../../${path}`, import.meta.url).href;
}

/**
 * Stops an import's worker. Its handlers go first: an error already queued (a cancel while the
 * worker still loads its module aborts that fetch) would otherwise reach the explorer's
 * callback after the explorer has dropped it.
 */
export function importStop(worker) {
  if (!worker) return;
  worker.onmessage = null;
  worker.onerror = null;
  worker.terminate();
}

/** Offers text as a file download. */
export function download(text, name) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A lesson's stored progress (localStorage; null when absent or storage is off). */
export function progressGet(key) {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Stores (or, with null, forgets) a lesson's progress; false when storage is off. */
export function progressSet(key, value) {
  try {
    if (value === null || value === undefined) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

/**
 * The idle time a call of `whenIdle` waits for (ms). The browser hands out idle periods of up to
 * 50 ms while no frame is due, and only what is left of the frame (under 16.7 ms) while one is:
 * while a play draws every frame.
 */
const LONG_IDLE_MS = 30;

/**
 * Calls `f` once at the browser's next long idle moment: one in which no frame is due
 * (`requestIdleCallback` with `LONG_IDLE_MS` left), or after a short timeout where there is no
 * `requestIdleCallback`. No timeout forces it: the one caller is the warm-up, whose pieces
 * take up to 50 ms on 2 cores, and once a play draws every frame (the page is never idle long), one
 * forced in would drop frames of the very play it was there to smooth, whose own steps compile
 * the same code by then anyway. While a play runs, each frame's short idle period costs one
 * callback that only asks again.
 */
export function whenIdle(f) {
  if (typeof requestIdleCallback !== 'function') {
    setTimeout(f, 50);
    return;
  }
  const wait = (deadline) => {
    if (deadline.timeRemaining() >= LONG_IDLE_MS) f();
    else requestIdleCallback(wait);
  };
  requestIdleCallback(wait);
}

let replayStepStart = 0;
let replayStepMs = 0;

/**
 * Times the scenario steps the explorer runs in core (the measurement of the wasm-versus-native
 * replay): `true` before a step or a slice of one, `false` after it, which adds its time to
 * `globalThis.__logtimeReplayMs` (the sum over every explorer on the page) and, once the step
 * is done (`stepDone`) and while `globalThis.__logtimeReplaySteps` is an array, appends the
 * step's time (its slices added up) there.
 */
export function replayClock(begin, stepDone) {
  const now = performance.now();
  if (begin) {
    replayStepStart = now;
    return;
  }
  const ms = now - replayStepStart;
  globalThis.__logtimeReplayMs = (globalThis.__logtimeReplayMs || 0) + ms;
  replayStepMs += ms;
  if (!stepDone) return;
  if (Array.isArray(globalThis.__logtimeReplaySteps)) globalThis.__logtimeReplaySteps.push(replayStepMs);
  replayStepMs = 0;
}

/**
 * The text of each picked file (`filesOfInput`, `filesOfDrop`), for the class page: `{name,
 * text}`, or `{name, error}` for a file over `limit` bytes or one that cannot be read.
 */
export async function textsOf(picked, limit) {
  const out = [];
  for (const p of picked) {
    if (p.size > limit) { out.push({ name: p.path, error: `it is larger than ${limit} bytes` }); continue; }
    try { out.push({ name: p.path, text: await p.file.text() }); } catch { out.push({ name: p.path, error: 'it cannot be read' }); }
  }
  return out;
}
