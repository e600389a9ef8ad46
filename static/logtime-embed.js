// <logtime-explorer>: embed compact, isolated Logtime explorers in any page.
//
//   <script type="module" src="logtime-embed.js"></script>
//   <logtime-explorer scenario="lookup-scan" panels="partition lookup log">
//     <p>Fallback shown while JavaScript is off or loading: <a href="index.html?scenario=lookup-scan">open the explorer</a>.</p>
//   </logtime-explorer>
//   <logtime-explorer src="scenarios/mine.json"></logtime-explorer>     scenario from a URL
//   <logtime-explorer>                                                  inline scenario JSON
//     <script type="application/json">{ "…": "…" }</script>
//   </logtime-explorer>
//
// Attributes (README "Embedding"; read and checked by the wasm module, web/src/options.rs):
// scenario | src (or a child JSON script), panels, menu, theme, mode, step, lookup, moment, page.
// Changing one updates that explorer; a bad value shows an error box naming the attribute in
// place of the explorer; removing the element destroys it.
//
// Each explorer renders in the element's shadow root with its own stylesheet: nothing of
// Logtime's CSS reaches the page and nothing of the page's reaches the explorer. Content inside
// the element is its fallback: shown while JS is off or loading, no longer rendered once the
// explorer mounts. The theme defaults to the page's declared `color-scheme` (auto when it
// declares none or both).
//
// The WebAssembly module is loaded once per page (on the first explorer), from next to this
// script (./logtime-web.js, as Trunk emits it with filehash = false), lessons included; a page
// can point elsewhere with <meta name="logtime-module" content="/path/to/logtime-web.js">. "Copy link to
// this moment" links to index.html next to the module unless the element has a `page`.

const TAG = 'logtime-explorer';
/** The attributes the element passes on (web/src/options.rs OPTION_NAMES, less `inline`). */
const OPTIONS = ['scenario', 'src', 'z', 'panels', 'menu', 'theme', 'mode', 'seed', 'step', 'lookup', 'moment', 'page'];

function moduleUrl() {
  const meta = document.querySelector('meta[name="logtime-module"]');
  return new URL(meta?.content || './logtime-web.js', meta ? document.baseURI : import.meta.url);
}

let loading = null;
/** Loads and initialises the wasm module once; resolves to its exports. */
export function loadLogtime() {
  if (!loading) {
    const js = moduleUrl();
    const wasm = new URL(js.pathname.replace(/\.js$/, '_bg.wasm'), js);
    loading = import(js.href).then(async (m) => {
      await m.default({ module_or_path: wasm });
      return m;
    });
  }
  return loading;
}

/** The page's declared colour scheme: the root's `color-scheme` property, else its
 *  <meta name="color-scheme">, else `normal` (none declared). */
function hostScheme() {
  const css = getComputedStyle(document.documentElement).colorScheme;
  if (css && css !== 'normal') return css;
  return document.querySelector('meta[name="color-scheme"]')?.content || 'normal';
}

/** A dead wasm instance throws WebAssembly.RuntimeError: hand it to the module's guard. */
function report(e) {
  if (e instanceof WebAssembly.RuntimeError) reportError(e);
  return e;
}

const explorers = new Set();

class LogtimeExplorer extends HTMLElement {
  static observedAttributes = OPTIONS;

  #explorer = null; // wasm `Explorer` handle
  #module = null;
  #generation = 0; // bumps on disconnect so a late load does not mount a removed element
  #scheme = null;

  connectedCallback() {
    explorers.add(this);
    if (!this.shadowRoot) {
      // Until the explorer mounts, the element's own content (its fallback) shows through a
      // slot; without any, a loading line does.
      const root = this.attachShadow({ mode: 'open' });
      const fallback = [...this.childNodes].some(
        (n) => (n.nodeType === 1 && !(n.localName === 'script' && n.type === 'application/json')) ||
          (n.nodeType === 3 && n.textContent.trim()),
      );
      root.innerHTML = fallback
        ? '<slot></slot>'
        : '<p role="status" style="margin:0;padding:1rem;font:15px/1.5 system-ui,sans-serif;opacity:0.75">Loading the Logtime explorer…</p>';
    }
    // Children (the inline JSON script) may not be parsed yet if this runs during parsing.
    if (document.readyState === 'loading') {
      document.addEventListener('DOMContentLoaded', () => this.#connect(), { once: true });
    } else {
      this.#connect();
    }
  }

  disconnectedCallback() {
    explorers.delete(this);
    this.#generation++;
    try {
      if (this.#explorer) {
        this.#explorer.destroy();
        this.#explorer.free();
      } else {
        this.#module?.unmount(this);
      }
    } catch (e) {
      report(e);
    }
    this.#explorer = null;
  }

  attributeChangedCallback(_name, oldValue, newValue) {
    if (oldValue === newValue || !this.#module) return;
    this.refresh();
  }

  /** Passes the current attributes on (after an attribute or the page's colour scheme changed). */
  refresh() {
    if (!this.#explorer) {
      this.#connect();
      return;
    }
    try {
      this.#explorer.update(this.#options());
    } catch (e) {
      // A bad value: the explorer now shows the error box naming it.
      if (report(e) instanceof WebAssembly.RuntimeError) return;
      console.warn(`<${TAG}>: ${e.message ?? e}`);
    }
  }

  /** The explorer's options from the attributes, the child JSON script and the page. */
  #options() {
    const o = {};
    for (const name of OPTIONS) if (this.hasAttribute(name)) o[name] = this.getAttribute(name);
    const script = this.querySelector(':scope > script[type="application/json"]');
    if (script && !('scenario' in o) && !('src' in o) && !('z' in o)) o.inline = script.textContent;
    if (!('page' in o)) o.page = new URL('index.html', moduleUrl()).href;
    this.#scheme = hostScheme();
    o.hostColorScheme = this.#scheme;
    return o;
  }

  /** Whether the page's colour scheme changed since the options were read. */
  schemeChanged() {
    return this.#scheme !== null && !this.hasAttribute('theme') && this.#scheme !== hostScheme();
  }

  async #connect() {
    if (this.#explorer || !this.isConnected) return;
    const generation = ++this.#generation;
    let m;
    try {
      m = await loadLogtime();
    } catch (e) {
      console.error(`<${TAG}>: could not load the Logtime WebAssembly module`, e);
      this.shadowRoot.innerHTML = '';
      const box = document.createElement('p');
      box.setAttribute('role', 'alert');
      box.dataset.testid = 'logtime-error';
      box.style.cssText = 'margin:0;padding:0.75rem 1rem;border:2px solid #a1001c;border-radius:10px;background:#fff1f2;color:#5c0011;font:14px/1.4 system-ui,sans-serif';
      box.textContent = `The Logtime explorer could not load: ${e.message ?? e}`;
      this.shadowRoot.append(box);
      return;
    }
    if (generation !== this.#generation || !this.isConnected || this.#explorer) return;
    this.#module = m;
    try {
      this.#explorer = m.mount(this, this.#options());
      this.dispatchEvent(new CustomEvent('logtime-ready', { bubbles: true }));
    } catch (e) {
      // A bad attribute: mount() has drawn an error box naming it; fixing it mounts again.
      if (report(e) instanceof WebAssembly.RuntimeError) return;
      console.warn(`<${TAG}>: ${e.message ?? e}`);
    }
  }
}

// The page may switch its colour scheme (a docs site's dark-mode toggle): explorers without a
// `theme` follow it.
let watching = false;
function watchScheme() {
  if (watching) return;
  watching = true;
  const check = () => {
    for (const el of explorers) if (el.schemeChanged()) el.refresh();
  };
  new MutationObserver(check).observe(document.documentElement, { attributes: true, subtree: false });
  new MutationObserver(check).observe(document.head, { childList: true, subtree: true, attributes: true });
}

if (!customElements.get(TAG)) {
  customElements.define(TAG, LogtimeExplorer);
  watchScheme();
}
