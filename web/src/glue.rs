//! The browser-side helpers in `glue.js` (a wasm-bindgen snippet): the stopped-instance guard,
//! packing a scenario for a link (the browser's `CompressionStream`, deflate-raw, then
//! base64url), the clipboard, an iframe's height, elements' sizes, and the files of an import
//! (a picker's or a drop's, folders walked) and its worker, the clock the replay measurement
//! reads, and where the files beside the wasm module are. Off the browser they do nothing.

use std::cell::Cell;

#[cfg(target_arch = "wasm32")]
mod js {
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen(module = "/src/glue.js")]
    extern "C" {
        #[wasm_bindgen(js_name = guard)]
        pub fn guard(host: &web_sys::Element);
        #[wasm_bindgen(js_name = unguard)]
        pub fn unguard(host: &web_sys::Element);
        #[wasm_bindgen(js_name = installGuard)]
        pub fn install_guard();
        #[wasm_bindgen(js_name = postHeight)]
        pub fn post_height();
        #[wasm_bindgen(js_name = pack)]
        pub fn pack(text: &str) -> js_sys::Promise;
        #[wasm_bindgen(js_name = unpack)]
        pub fn unpack(z: &str, limit: f64) -> js_sys::Promise;
        #[wasm_bindgen(js_name = copyText)]
        pub fn copy_text(text: &str) -> js_sys::Promise;
        #[wasm_bindgen(js_name = savePicture)]
        pub fn save_picture(svg: &str, name: &str, png: bool) -> js_sys::Promise;
        #[wasm_bindgen(js_name = copyPicture)]
        pub fn copy_picture(svg: &str) -> js_sys::Promise;
        #[wasm_bindgen(js_name = dragHasSvg)]
        pub fn drag_has_svg(event: &JsValue) -> bool;
        #[wasm_bindgen(js_name = droppedText)]
        pub fn dropped_text(event: &JsValue) -> js_sys::Promise;
        #[wasm_bindgen(js_name = fetchTextBounded)]
        pub fn fetch_text_bounded(
            url: &str,
            limit: f64,
            timeout_ms: f64,
            signal: &JsValue,
        ) -> js_sys::Promise;
        #[wasm_bindgen(js_name = watchSize)]
        pub fn watch_size(el: &web_sys::Element, changed: &js_sys::Function) -> JsValue;
        #[wasm_bindgen(js_name = playFrames)]
        pub fn play_frames(per_second: u32, most: u32, step: &js_sys::Function)
            -> js_sys::Function;
        #[wasm_bindgen(js_name = unwatchSize)]
        pub fn unwatch_size(observer: &JsValue);
        #[wasm_bindgen(js_name = filesOfInput)]
        pub fn files_of_input(input: &JsValue) -> js_sys::Array;
        #[wasm_bindgen(js_name = fileText)]
        pub fn file_text(picked: &JsValue, limit: f64) -> js_sys::Promise;
        #[wasm_bindgen(js_name = filesOfDrop)]
        pub fn files_of_drop(event: &JsValue) -> js_sys::Promise;
        #[wasm_bindgen(js_name = importStart)]
        pub fn import_start(
            files: &js_sys::Array,
            paste: Option<String>,
            rules: &str,
            now: f64,
            on_message: &js_sys::Function,
        ) -> JsValue;
        #[wasm_bindgen(js_name = importStop)]
        pub fn import_stop(worker: &JsValue);
        #[wasm_bindgen(js_name = download)]
        pub fn download(text: &str, name: &str);
        #[wasm_bindgen(js_name = textsOf)]
        pub fn texts_of(picked: &JsValue, limit: f64) -> js_sys::Promise;
        #[wasm_bindgen(js_name = progressGet)]
        pub fn progress_get(key: &str) -> Option<String>;
        #[wasm_bindgen(js_name = progressSet)]
        pub fn progress_set(key: &str, value: Option<String>) -> bool;
        #[wasm_bindgen(js_name = replayClock)]
        pub fn replay_clock(begin: bool, step_done: bool);
        #[wasm_bindgen(js_name = assetUrl)]
        pub fn asset_url(path: &str) -> String;
        #[wasm_bindgen(js_name = whenIdle)]
        pub fn when_idle(f: &JsValue);
    }
}

/// The longest scenario a link may unpack to (the scenario parser's own limits apply after).
pub const UNPACK_LIMIT: usize = 8 << 20;

/// Registers a host for the guard.
pub fn guard(host: &web_sys::Element) {
    #[cfg(target_arch = "wasm32")]
    js::guard(host);
    #[cfg(not(target_arch = "wasm32"))]
    let _ = host;
}

/// Forgets a host.
pub fn unguard(host: &web_sys::Element) {
    #[cfg(target_arch = "wasm32")]
    js::unguard(host);
    #[cfg(not(target_arch = "wasm32"))]
    let _ = host;
}

/// Installs the guard (once).
pub fn install_guard() {
    #[cfg(target_arch = "wasm32")]
    js::install_guard();
}

/// In an iframe, reports the page height to the host page.
pub fn post_height() {
    #[cfg(target_arch = "wasm32")]
    js::post_height();
}

#[cfg(target_arch = "wasm32")]
async fn text_of(p: js_sys::Promise) -> Result<String, String> {
    wasm_bindgen_futures::JsFuture::from(p)
        .await
        .map(|v| v.as_string().unwrap_or_default())
        .map_err(|e| {
            js_sys::Reflect::get(&e, &"message".into())
                .ok()
                .and_then(|m| m.as_string())
                .unwrap_or_else(|| "it could not be read".into())
        })
}

/// Packs a scenario's JSON for a link.
pub async fn pack(text: &str) -> Result<String, String> {
    #[cfg(target_arch = "wasm32")]
    return text_of(js::pack(text)).await;
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = text;
        Err("packing needs a browser".into())
    }
}

/// Unpacks a link's scenario; the error is a reason for people.
pub async fn unpack(z: &str) -> Result<String, String> {
    #[cfg(target_arch = "wasm32")]
    return text_of(js::unpack(z, UNPACK_LIMIT as f64)).await;
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = z;
        Err("unpacking needs a browser".into())
    }
}

/// How long a scenario's server may take to send it whole.
pub const FETCH_TIMEOUT_MS: u32 = 30_000;

/// Fetches `url` as text of at most [`MAX_SCENARIO_BYTES`] bytes within [`FETCH_TIMEOUT_MS`],
/// streamed so that a body over the limit is refused at the limit (never read whole into
/// memory); `signal` cancels it.
///
/// [`MAX_SCENARIO_BYTES`]: logtime_core::scenario::MAX_SCENARIO_BYTES
pub async fn fetch_text(
    url: &str,
    signal: Option<&web_sys::AbortSignal>,
) -> Result<String, crate::embed::FetchFailure> {
    #[cfg(target_arch = "wasm32")]
    {
        let signal = signal.map_or(wasm_bindgen::JsValue::UNDEFINED, |s| s.clone().into());
        let limit = logtime_core::scenario::MAX_SCENARIO_BYTES as f64;
        let p = js::fetch_text_bounded(url, limit, f64::from(FETCH_TIMEOUT_MS), &signal);
        text_of(p)
            .await
            .map_err(|why| crate::embed::FetchFailure::of_sentence(&why))
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = (url, signal);
        Err(crate::embed::FetchFailure::Network)
    }
}

/// Saves the picture `svg` as `name` (SVG, or a PNG the browser draws); a sentence saying how
/// it went.
pub async fn save_picture(svg: &str, name: &str, png: bool) -> String {
    #[cfg(target_arch = "wasm32")]
    return text_of(js::save_picture(svg, name, png))
        .await
        .unwrap_or_else(|e| e);
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = (svg, name, png);
        "saving needs a browser".into()
    }
}

/// Puts the picture `svg` on the clipboard; a sentence saying how it went (or that the browser
/// refused).
pub async fn copy_picture(svg: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    return text_of(js::copy_picture(svg)).await.unwrap_or_else(|e| e);
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = svg;
        "copying needs a browser".into()
    }
}

/// Whether a drag carries an SVG file.
pub fn drag_has_svg(e: &web_sys::DragEvent) -> bool {
    #[cfg(target_arch = "wasm32")]
    return js::drag_has_svg(e.as_ref());
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = e;
        false
    }
}

/// The text of the SVG file a drop carries, once read.
pub fn dropped_text(e: &web_sys::DragEvent) -> impl std::future::Future<Output = Option<String>> {
    #[cfg(target_arch = "wasm32")]
    let p = Some(js::dropped_text(e.as_ref()));
    #[cfg(not(target_arch = "wasm32"))]
    let p: Option<()> = {
        let _ = e;
        None
    };
    async move {
        #[cfg(target_arch = "wasm32")]
        if let Some(p) = p {
            return wasm_bindgen_futures::JsFuture::from(p)
                .await
                .ok()
                .and_then(|v| v.as_string());
        }
        let _ = p;
        None
    }
}

/// Copies text to the clipboard; whether it could.
pub async fn copy_text(text: &str) -> bool {
    #[cfg(target_arch = "wasm32")]
    return wasm_bindgen_futures::JsFuture::from(js::copy_text(text))
        .await
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = text;
        false
    }
}

/// Watches an element's CSS size (see [`watch_size`]); stops when dropped.
pub struct SizeWatch {
    #[cfg(target_arch = "wasm32")]
    observer: wasm_bindgen::JsValue,
    #[cfg(target_arch = "wasm32")]
    _changed: wasm_bindgen::closure::Closure<dyn FnMut(f64, f64)>,
}

impl Drop for SizeWatch {
    fn drop(&mut self) {
        #[cfg(target_arch = "wasm32")]
        js::unwatch_size(&self.observer);
    }
}

/// Calls `changed(width, height)` with `el`'s CSS content size now (on the next frame) and
/// whenever it changes, from a ResizeObserver: reading a cached size never forces the layout
/// that `clientWidth` does after a DOM update.
pub fn watch_size(el: &web_sys::Element, changed: impl FnMut(f64, f64) + 'static) -> SizeWatch {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::JsCast;
        let changed = wasm_bindgen::closure::Closure::<dyn FnMut(f64, f64)>::new(changed);
        let observer = js::watch_size(el, changed.as_ref().unchecked_ref());
        SizeWatch {
            observer,
            _changed: changed,
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = (el, changed);
        SizeWatch {}
    }
}

/// Playback running at animation frames (see [`play_frames`]); stops when dropped.
pub struct FrameLoop {
    #[cfg(target_arch = "wasm32")]
    stop: js_sys::Function,
    #[cfg(target_arch = "wasm32")]
    _step: wasm_bindgen::closure::Closure<dyn FnMut(u32)>,
}

impl Drop for FrameLoop {
    fn drop(&mut self) {
        #[cfg(target_arch = "wasm32")]
        let _ = self.stop.call0(&wasm_bindgen::JsValue::NULL);
    }
}

/// Calls `step(n)` at the start of each animation frame with the `n` steps due at
/// `per_second` steps a second (at most `most`), so a frame holds its steps' work and one render.
pub fn play_frames(per_second: u32, most: u32, step: impl FnMut(u32) + 'static) -> FrameLoop {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::JsCast;
        let step = wasm_bindgen::closure::Closure::<dyn FnMut(u32)>::new(step);
        let stop = js::play_frames(per_second, most, step.as_ref().unchecked_ref());
        FrameLoop { stop, _step: step }
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = (per_second, most, step);
        FrameLoop {}
    }
}

/// Files picked or dropped for an import: each a JS object `{file, name, path, size, modified}`.
#[derive(Clone, Debug, Default)]
pub struct Files(pub Vec<wasm_bindgen::JsValue>);

impl Files {
    /// How many.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The one file picked or dropped when it is a `.json` file (a scenario or lesson file,
    /// which the page opens rather than imports): its name and the file.
    pub fn json_file(&self) -> Option<(String, wasm_bindgen::JsValue)> {
        let [one] = &self.0[..] else { return None };
        let name = js_sys::Reflect::get(one, &"name".into())
            .ok()
            .and_then(|n| n.as_string())?;
        name.to_ascii_lowercase()
            .ends_with(".json")
            .then(|| (name, one.clone()))
    }
}

/// The text of a picked or dropped file, at most [`MAX_SCENARIO_BYTES`] bytes; the error is a
/// reason for people.
///
/// [`MAX_SCENARIO_BYTES`]: logtime_core::scenario::MAX_SCENARIO_BYTES
pub async fn file_text(picked: &wasm_bindgen::JsValue) -> Result<String, String> {
    #[cfg(target_arch = "wasm32")]
    return text_of(js::file_text(
        picked,
        logtime_core::scenario::MAX_SCENARIO_BYTES as f64,
    ))
    .await;
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = picked;
        Err("reading a file needs a browser".into())
    }
}

/// An import running in the import worker; dropping it stops the worker (a cancel).
pub struct Worker {
    #[cfg(target_arch = "wasm32")]
    worker: wasm_bindgen::JsValue,
    #[cfg(target_arch = "wasm32")]
    _on_message: wasm_bindgen::closure::Closure<dyn FnMut(wasm_bindgen::JsValue)>,
}

impl Drop for Worker {
    fn drop(&mut self) {
        #[cfg(target_arch = "wasm32")]
        js::import_stop(&self.worker);
    }
}

/// What the import worker says.
#[derive(Clone, Debug, PartialEq)]
pub enum WorkerMessage {
    /// `(bytes read, bytes in all, file being read)`.
    Progress(u64, u64, String),
    /// The imported partition.
    Done(crate::model::import::Done),
    /// Why the import failed.
    Error(String),
}

/// Starts an import in the worker: `files`, or `paste` (dump text), under the `rules` preset at
/// broker time `now`; `on_message` hears from it until the returned handle is dropped.
pub fn import_start(
    files: &Files,
    paste: Option<String>,
    rules: &str,
    now: i64,
    on_message: impl FnMut(WorkerMessage) + 'static,
) -> Worker {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::JsCast;
        let mut on_message = on_message;
        let cb = wasm_bindgen::closure::Closure::<dyn FnMut(wasm_bindgen::JsValue)>::new(
            move |m: wasm_bindgen::JsValue| {
                let get = |k: &str| js_sys::Reflect::get(&m, &k.into()).unwrap_or_default();
                let text = |k: &str| get(k).as_string().unwrap_or_default();
                let num = |k: &str| get(k).as_f64().unwrap_or(0.0) as u64;
                on_message(match text("type").as_str() {
                    "progress" => WorkerMessage::Progress(num("done"), num("total"), text("file")),
                    "done" => {
                        let list = |k: &str| {
                            js_sys::Array::from(&get(k))
                                .iter()
                                .filter_map(|v| v.as_string())
                                .collect()
                        };
                        WorkerMessage::Done(crate::model::import::Done {
                            scenario: text("scenario"),
                            notes: list("notes"),
                            skipped: list("skipped"),
                            segments: num("segments") as usize,
                            bytes: num("bytes"),
                            configs: Some(text("configs")).filter(|c| !c.is_empty()),
                        })
                    }
                    _ => WorkerMessage::Error(text("message")),
                });
            },
        );
        let list: js_sys::Array = files.0.iter().collect();
        let worker = js::import_start(&list, paste, rules, now as f64, cb.as_ref().unchecked_ref());
        Worker {
            worker,
            _on_message: cb,
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = (files, paste, rules, now, on_message);
        Worker {}
    }
}

/// The files of an `<input type=file>`.
pub fn files_of_input(input: &wasm_bindgen::JsValue) -> Files {
    #[cfg(target_arch = "wasm32")]
    return Files(js::files_of_input(input).to_vec());
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = input;
        Files::default()
    }
}

/// The files of a drop event, folders walked: the entries are taken now (they are gone once the
/// event handler returns), the walk finishes when the future does.
pub fn files_of_drop(event: &wasm_bindgen::JsValue) -> impl std::future::Future<Output = Files> {
    #[cfg(target_arch = "wasm32")]
    let walk = wasm_bindgen_futures::JsFuture::from(js::files_of_drop(event));
    #[cfg(not(target_arch = "wasm32"))]
    let _ = event;
    async move {
        #[cfg(target_arch = "wasm32")]
        return match walk.await {
            Ok(v) => Files(js_sys::Array::from(&v).to_vec()),
            Err(_) => Files::default(),
        };
        #[cfg(not(target_arch = "wasm32"))]
        Files::default()
    }
}

/// Offers `text` as a download named `name`.
pub fn download(text: &str, name: &str) {
    #[cfg(target_arch = "wasm32")]
    js::download(text, name);
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (text, name);
}

/// A lesson's stored progress, by key (`None` off the browser, or when storage is off).
pub fn progress_get(key: &str) -> Option<String> {
    #[cfg(target_arch = "wasm32")]
    return js::progress_get(key);
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = key;
        None
    }
}

/// Stores a lesson's progress (`None` forgets it).
pub fn progress_set(key: &str, value: Option<String>) {
    #[cfg(target_arch = "wasm32")]
    let _ = js::progress_set(key, value);
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (key, value);
}

/// Runs `f`, one scenario step in core or a slice of one, and adds the time it took to the
/// page's `__logtimeReplayMs` (what `tests/e2e/measure.mjs` compares with the native replay of
/// the same scenario: the core's work, without the explorer's yields and renders around it);
/// `step_done` says from `f`'s result whether the step has finished (its slices add up to one
/// step's time).
pub fn timed_step<T>(f: impl FnOnce() -> T, step_done: impl FnOnce(&T) -> bool) -> T {
    if UNTIMED.with(Cell::get) {
        return f();
    }
    #[cfg(target_arch = "wasm32")]
    js::replay_clock(true, false);
    let out = f();
    #[cfg(target_arch = "wasm32")]
    js::replay_clock(false, step_done(&out));
    #[cfg(not(target_arch = "wasm32"))]
    let _ = step_done;
    out
}

thread_local! {
    /// Steps run now are not the page's replay ([`untimed`]).
    static UNTIMED: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with [`timed_step`] not timing the steps it runs (the warm-up's scratch replay is
/// not the replay the measurement compares with native).
pub fn untimed<T>(f: impl FnOnce() -> T) -> T {
    let was = UNTIMED.with(|u| u.replace(true));
    let out = f();
    UNTIMED.with(|u| u.set(was));
    out
}

/// Calls `f` once at the browser's next long idle moment, one in which no frame is due
/// (`requestIdleCallback`, never forced by a timeout; `glue.js` says why), or after a short
/// timeout where there is no `requestIdleCallback`; off the browser, never.
pub fn when_idle(f: impl FnOnce() + 'static) {
    #[cfg(target_arch = "wasm32")]
    js::when_idle(&wasm_bindgen::closure::Closure::once_into_js(f));
    #[cfg(not(target_arch = "wasm32"))]
    drop(f);
}

/// The URL of `path` (relative to `dist/`) beside the wasm module; off the browser, `path`.
pub fn asset_url(path: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    return js::asset_url(path);
    #[cfg(not(target_arch = "wasm32"))]
    path.to_string()
}

/// The texts of picked files (`files_of_input`, `files_of_drop`): `(name, text or why not)`.
pub async fn texts_of(picked: Files, limit: usize) -> Vec<(String, Result<String, String>)> {
    #[cfg(target_arch = "wasm32")]
    {
        use js_sys::Reflect;
        let picked: js_sys::Array = picked.0.into_iter().collect();
        let Ok(arr) =
            wasm_bindgen_futures::JsFuture::from(js::texts_of(&picked, limit as f64)).await
        else {
            return Vec::new();
        };
        let get = |o: &wasm_bindgen::JsValue, k: &str| {
            Reflect::get(o, &k.into()).ok().and_then(|v| v.as_string())
        };
        js_sys::Array::from(&arr)
            .iter()
            .map(|o| {
                let name = get(&o, "name").unwrap_or_default();
                match get(&o, "text") {
                    Some(t) => (name, Ok(t)),
                    None => (name, Err(get(&o, "error").unwrap_or_default())),
                }
            })
            .collect()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = (picked, limit);
        Vec::new()
    }
}
