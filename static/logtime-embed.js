// <logtime-explorer>: embed Logtime explorers in any page.
//
//   <script type="module" src="logtime-embed.js"></script>
//   <logtime-explorer scenario="lookup-scan"></logtime-explorer>        built-in scenario
//   <logtime-explorer src="scenarios/mine.json"></logtime-explorer>     scenario from a URL
//   <logtime-explorer>                                                  inline scenario JSON
//     <script type="application/json">{ "…": "…" }</script>
//   </logtime-explorer>
//
// The WebAssembly module is loaded once per page (on the first explorer); each element gets
// its own, independent app (`mount` from the wasm module). Changing `scenario`/`src` updates
// that explorer; removing the element destroys it. Bad values show an error box naming the
// attribute in place of the explorer.
//
// The explorer's stylesheets (static/style.css, static/app.css next to the module) are linked
// into the page's <head> unless already there.
//
// The module is looked up next to this script (./logtime-web.js, as Trunk emits it with
// filehash = false); a page can point elsewhere with
//   <meta name="logtime-module" content="/path/to/logtime-web.js">

const TAG = 'logtime-explorer';

function moduleUrl() {
  const meta = document.querySelector('meta[name="logtime-module"]');
  return new URL(meta?.content || './logtime-web.js', meta ? document.baseURI : import.meta.url);
}

/** Stylesheets the explorer needs, relative to the module; linked once unless already present. */
const STYLESHEETS = ['static/style.css', 'static/app.css'];

function ensureStyles() {
  const base = moduleUrl();
  for (const rel of STYLESHEETS) {
    const href = new URL(rel, base).href;
    const present = [...document.querySelectorAll('link[rel="stylesheet"]')].some((l) => l.href === href);
    if (present) continue;
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    link.dataset.logtime = '';
    document.head.append(link);
  }
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

function showError(host, title, detail) {
  const box = document.createElement('div');
  box.className = 'logtime-error';
  box.setAttribute('role', 'alert');
  box.dataset.testid = 'logtime-error';
  box.style.cssText =
    'box-sizing:border-box;margin:0.5rem 0;padding:0.75rem 1rem;border:2px solid #b00020;' +
    'border-radius:6px;background:#fff4f4;color:#5c0011;font:14px/1.4 system-ui,sans-serif';
  const strong = document.createElement('strong');
  strong.textContent = title;
  const pre = document.createElement('pre');
  pre.style.cssText = 'white-space:pre-wrap;word-break:break-word;margin:0.5rem 0 0';
  pre.textContent = detail;
  box.append(strong, pre);
  host.replaceChildren(box);
}

class LogtimeExplorer extends HTMLElement {
  static observedAttributes = ['scenario', 'src'];

  #explorer = null; // wasm `Explorer` handle
  #host = null; // light-DOM child the app renders into (keeps the JSON <script> child intact)
  #generation = 0; // bumps on disconnect so a late load does not mount a removed element

  connectedCallback() {
    ensureStyles();
    // Children (the inline JSON script) may not be parsed yet if this runs during parsing.
    if (document.readyState === 'loading') {
      document.addEventListener('DOMContentLoaded', () => this.#connect(), { once: true });
    } else {
      this.#connect();
    }
  }

  disconnectedCallback() {
    this.#generation++;
    if (this.#explorer) {
      try {
        this.#explorer.destroy();
        this.#explorer.free();
      } catch (e) {
        console.warn(`<${TAG}>: destroy failed`, e);
      }
      this.#explorer = null;
    }
  }

  attributeChangedCallback(_name, oldValue, newValue) {
    if (oldValue === newValue || !this.#explorer) return;
    try {
      this.#explorer.update(this.#options());
    } catch (e) {
      console.error(`<${TAG}>: ${e}`);
    }
  }

  /** The explorer's options: { scenario?, src?, inline? } from attributes / child script. */
  #options() {
    const o = {};
    if (this.hasAttribute('scenario')) o.scenario = this.getAttribute('scenario');
    if (this.hasAttribute('src')) o.src = this.getAttribute('src');
    const script = this.querySelector(':scope > script[type="application/json"]');
    if (script) o.inline = script.textContent;
    return o;
  }

  async #connect() {
    if (this.#explorer || !this.isConnected) return;
    const generation = ++this.#generation;
    if (!this.#host || this.#host.parentNode !== this) {
      this.#host = document.createElement('div');
      this.#host.className = 'logtime-host';
      this.append(this.#host);
    }
    if (!this.#host.hasChildNodes()) {
      const p = document.createElement('p');
      p.className = 'logtime-loading';
      p.setAttribute('role', 'status');
      p.textContent = 'Loading the Logtime explorer…';
      this.#host.append(p);
    }
    let m;
    try {
      m = await loadLogtime();
    } catch (e) {
      console.error(`<${TAG}>: could not load the Logtime WebAssembly module`, e);
      showError(this.#host, 'Logtime explorer could not load', String(e));
      return;
    }
    if (generation !== this.#generation || !this.isConnected || this.#explorer) return;
    try {
      this.#explorer = m.mount(this.#host, this.#options());
      this.dispatchEvent(new CustomEvent('logtime-ready', { bubbles: true }));
    } catch (e) {
      // mount() has already drawn an error box naming the bad attribute in the host.
      console.error(`<${TAG}>: ${e}`);
    }
  }
}

if (!customElements.get(TAG)) customElements.define(TAG, LogtimeExplorer);
