//! The class page (`class.html`): a trainer pastes, drops or picks (a folder too) learners'
//! results codes; each is unpacked in the browser and re-scored by core's `rescore`, replaying
//! its moves through the lesson, and the class table shows learner × question, each question's
//! share right first time and its most common wrong answers with core's label, flags, and a CSV
//! export. Nothing leaves the browser. The same wasm module as the explorer, mounted by
//! [`mount_class`](crate::mount_class).

use logtime_lesson::{self as lesson, class_table, rescore, Flag, Graded, Lesson, Results};
use std::rc::Rc;
use yew::prelude::*;

use crate::glue;
use crate::lessons::send::CODE_PREFIX;

/// The most bytes of one results file read.
const MAX_FILE_BYTES: usize = 1 << 20;

/// The class page's props: the built-in lesson named by `?lesson=`, if any.
#[derive(Properties, PartialEq, Clone)]
pub struct ClassProps {
    /// A built-in lesson's name (`future-drill`).
    pub lesson: Option<String>,
    /// A results code after the page's `#` (a learner's "Open in a class page"): added at once,
    /// and naming the lesson when `lesson` does not.
    pub code: Option<String>,
}

/// The name of the built-in lesson whose title `code`'s results carry.
async fn lesson_of_code(code: &str) -> Option<String> {
    let z = code.trim().strip_prefix(CODE_PREFIX)?;
    let r = Results::from_json(&glue::unpack(z).await.ok()?).ok()?;
    crate::builtins::all()
        .find(|b| b.is_lesson() && b.title == r.lesson)
        .map(|b| b.name.to_string())
}

/// One results code (or JSON) from `from`, unpacked and re-scored against `l`.
async fn grade_one(l: &Lesson, from: &str, text: &str) -> Graded {
    let t = text.trim();
    let json = if t.starts_with('{') {
        Ok(t.to_string())
    } else if let Some(z) = t.strip_prefix(CODE_PREFIX) {
        glue::unpack(z)
            .await
            .map_err(|e| format!("the results code does not unpack: {e}"))
    } else {
        Err(format!("a results code starts with {CODE_PREFIX}"))
    };
    match json.and_then(|j| Results::from_json(&j).map_err(|e| e.to_string())) {
        Ok(r) => rescore(l, &r),
        Err(e) => Graded::unreadable(from, e),
    }
}

/// Every code in `texts` (one a line, or one JSON document a text).
fn codes(texts: Vec<(String, String)>) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (from, text) in texts {
        if text.trim_start().starts_with('{') {
            out.push((from, text));
        } else {
            out.extend(
                text.lines()
                    .filter(|l| !l.trim().is_empty())
                    .map(|l| (from.clone(), l.to_string())),
            );
        }
    }
    out
}

fn table(t: &lesson::ClassTable) -> Html {
    html! {
        <>
        <h2>{ format!("{}: {} learner{}", t.lesson, t.rows.len(), if t.rows.len() == 1 { "" } else { "s" }) }</h2>
        <div class="class-scroll" tabindex="0" role="region" aria-label="Class table (scrolls sideways)">
        <table class="class-table" data-testid="class-table">
            <caption>{ "Learners by question" }</caption>
            <thead><tr>
                <th scope="col">{ "Learner" }</th><th scope="col">{ "Score" }</th>
                { for t.titles.iter().map(|q| html!{ <th scope="col">{ q.clone() }</th> }) }
                <th scope="col">{ "Flags" }</th>
            </tr></thead>
            <tbody>
                { for t.rows.iter().map(|g| html!{
                    <tr data-testid="class-row" class={classes!((!g.flags.is_empty()).then_some("flagged"))}>
                        <th scope="row">{ if g.learner.is_empty() { "(no name)".to_string() } else { g.learner.clone() } }</th>
                        <td data-testid="class-score">{ format!("{}/{}", g.score.0, g.score.1) }</td>
                        { for (0..t.titles.len()).map(|k| html!{ <td>{ g.items.get(k).map_or(String::new(), |i| i.cell()) }</td> }) }
                        <td data-testid="class-flags">{ g.flags.iter().map(Flag::describe).collect::<Vec<_>>().join("; ") }</td>
                    </tr>
                }) }
            </tbody>
            <tfoot><tr data-testid="class-first-try">
                <th scope="row">{ "Right first time" }</th><td></td>
                { for t.first_try.iter().map(|(a, b)| html!{ <td>{ format!("{a}/{b}") }</td> }) }
                <td></td>
            </tr></tfoot>
        </table>
        </div>
        </>
    }
}

fn common_wrong(t: &lesson::ClassTable) -> Html {
    html! {
        <section aria-label="Most common wrong answers" data-testid="class-wrong">
            <h2>{ "Most common wrong answers" }</h2>
            <ol>
            { for t.titles.iter().zip(&t.common_wrong).map(|(q, w)| html!{
                <li><strong>{ q.clone() }</strong>
                    if w.is_empty() { <span class="muted">{ " — none" }</span> }
                    else { <ul>{ for w.iter().map(|(a, c, n)| html!{
                        <li>{ format!("{n}× {a}") }{ c.map_or(String::new(), |c| format!(" — {}", c.label())) }</li>
                    }) }</ul> }
                </li>
            }) }
            </ol>
        </section>
    }
}

/// A built-in lesson and its name, or why it could not be loaded.
type Loaded = Result<(Rc<Lesson>, String), String>;

/// The assignment link of the built-in lesson `name` with fingerprint `fp`: the explorer page
/// beside this one, which asks each learner's name and gives them the variant it picks.
fn assignment_link(name: &str, fp: &str) -> String {
    let here = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    let dir = here
        .split(['?', '#'])
        .next()
        .unwrap_or_default()
        .rsplit_once('/')
        .map_or(String::new(), |(d, _)| format!("{d}/"));
    format!("{dir}index.html?scenario={name}&assign={fp}")
}

/// "Make an assignment link": the link, to copy and send to the class.
#[derive(Properties, PartialEq, Clone)]
struct AssignLinkProps {
    link: AttrValue,
}

#[function_component(AssignLink)]
fn assign_link(p: &AssignLinkProps) -> Html {
    let copied = use_state(|| None::<bool>);
    let copy = {
        let (link, copied) = (p.link.to_string(), copied.clone());
        Callback::from(move |_: MouseEvent| {
            let (link, copied) = (link.clone(), copied.clone());
            wasm_bindgen_futures::spawn_local(async move {
                copied.set(Some(glue::copy_text(&link).await));
            });
        })
    };
    html! {
        <details class="class-assign" data-testid="class-assign">
            <summary>{ "Make an assignment link" }</summary>
            <p class="muted">{ "Send this link to the class: each learner types their name and gets their own variant of this lesson (the name picks it). Their results carry the variant, and this page replays it." }</p>
            <label for="assign-link">{ "Assignment link" }</label>
            <textarea id="assign-link" readonly=true rows="3" value={p.link.clone()} data-testid="assign-link" />
            <div class="row">
                <button type="button" onclick={copy} data-testid="assign-copy">{ "Copy the link" }</button>
            </div>
            if let Some(ok) = *copied {
                <p class="muted" role="status">{ if ok { "Copied to the clipboard." } else { "Copying failed: select the link and copy it." } }</p>
            }
        </details>
    }
}

/// The built-in lesson `name`, fetched and parsed (an error in words when it cannot be).
#[hook]
fn use_lesson(name: Option<String>, code: Option<String>) -> UseStateHandle<Option<Loaded>> {
    let lesson = use_state(|| None::<Loaded>);
    {
        let lesson = lesson.clone();
        use_effect_with((name, code), move |(name, code)| {
            let (name, code) = (name.clone(), code.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let name = match (name, code) {
                    (Some(n), _) => Some(n),
                    (None, Some(c)) => lesson_of_code(&c).await,
                    (None, None) => None,
                };
                let Some(name) = name else {
                    lesson.set(Some(Err("no lesson: open this page as class.html?lesson=NAME (a built-in lesson, like future-drill)".into())));
                    return;
                };
                let Some(b) = crate::builtins::find(&name).filter(|b| b.is_lesson()) else {
                    lesson.set(Some(Err(format!("{name:?} is not a built-in lesson"))));
                    return;
                };
                let r = match glue::fetch_text(&b.url(), None).await {
                    Ok(t) => lesson::parse(&t)
                        .map(|l| (Rc::new(l), name.clone()))
                        .map_err(|e| e.to_string()),
                    Err(_) => Err(format!("the lesson {name:?} could not be loaded")),
                };
                lesson.set(Some(r));
            });
        });
    }
    lesson
}

/// The table, the common wrong answers and the CSV of `rows` re-scored against `l`.
fn results_view(l: &Lesson, rows: &UseStateHandle<Vec<Graded>>) -> Html {
    if rows.is_empty() {
        return html! {};
    }
    let t = class_table(l, (**rows).clone());
    let csv = t.to_csv();
    let export = {
        let csv = csv.clone();
        Callback::from(move |_: MouseEvent| glue::download(&csv, "class-results.csv"))
    };
    let clear = {
        let rows = rows.clone();
        Callback::from(move |_: MouseEvent| rows.set(Vec::new()))
    };
    html! {
        <>
            { table(&t) }
            { common_wrong(&t) }
            <div class="row">
                <button type="button" onclick={export} data-testid="class-export">{ "Export CSV" }</button>
                <button type="button" onclick={clear} data-testid="class-clear">{ "Clear" }</button>
            </div>
            <details><summary>{ "CSV" }</summary><pre data-testid="class-csv">{ csv }</pre></details>
        </>
    }
}

/// Reads every file picked or dropped and adds its text (or why it is unreadable) as results.
fn from_files(files: glue::Files, add: Callback<Vec<(String, String)>>) {
    wasm_bindgen_futures::spawn_local(async move {
        let texts = glue::texts_of(files, MAX_FILE_BYTES).await;
        add.emit(
            texts
                .into_iter()
                .map(|(name, t)| {
                    (
                        name.clone(),
                        t.unwrap_or_else(|e| format!("unreadable {name}: {e}")),
                    )
                })
                .collect(),
        );
    });
}

/// The callbacks of the file and folder pickers and of a drop on the input section: each adds
/// the files' texts.
fn file_callbacks(add: &Callback<Vec<(String, String)>>) -> (Callback<Event>, Callback<DragEvent>) {
    let on_pick = {
        let add = add.clone();
        Callback::from(move |e: Event| {
            if let Some(t) = e.target() {
                from_files(glue::files_of_input(&t.into()), add.clone());
            }
        })
    };
    let on_drop = {
        let add = add.clone();
        Callback::from(move |e: DragEvent| {
            let walk = glue::files_of_drop(&e.clone().into());
            let add = add.clone();
            wasm_bindgen_futures::spawn_local(async move {
                from_files(walk.await, add);
            });
        })
    };
    (on_pick, on_drop)
}

/// Keeps what is typed or pasted in the codes box.
fn paste_input(paste: &UseStateHandle<String>) -> Callback<InputEvent> {
    let paste = paste.clone();
    Callback::from(move |e: InputEvent| {
        use wasm_bindgen::JsCast;
        if let Some(t) = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
        {
            paste.set(t.value());
        }
    })
}

/// The class page.
#[function_component(ClassPage)]
pub fn class_page(p: &ClassProps) -> Html {
    let lesson = use_lesson(p.lesson.clone(), p.code.clone());
    let rows = use_state(Vec::<Graded>::new);
    let paste = use_state(String::new);
    let add = {
        let (lesson, rows) = (lesson.clone(), rows.clone());
        Callback::from(move |texts: Vec<(String, String)>| {
            let Some(Ok((l, _))) = (*lesson).clone() else {
                return;
            };
            let rows = rows.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let mut all = (*rows).clone();
                for (from, code) in codes(texts) {
                    all.push(grade_one(&l, &from, &code).await);
                }
                rows.set(all);
            });
        })
    };
    {
        let (add, code) = (add.clone(), p.code.clone());
        let ready = matches!(&*lesson, Some(Ok(_)));
        use_effect_with(ready, move |ready| {
            if let (true, Some(c)) = (*ready, code) {
                add.emit(vec![("link".into(), c)]);
            }
        });
    }
    let on_paste_input = paste_input(&paste);
    let on_add_paste = {
        let (paste, add) = (paste.clone(), add.clone());
        Callback::from(move |_: MouseEvent| {
            add.emit(vec![("pasted".into(), (*paste).clone())]);
            paste.set(String::new());
        })
    };
    let (on_pick, on_drop) = file_callbacks(&add);
    let on_drag_over = Callback::from(|e: DragEvent| e.prevent_default());
    let body = match &*lesson {
        None => html! { <p role="status">{ "Loading the lesson…" }</p> },
        Some(Err(e)) => {
            html! { <p class="error" role="alert" data-testid="class-error">{ e.clone() }</p> }
        }
        Some(Ok((l, name))) => {
            html! {
                <>
                <p class="muted">{ format!("Lesson fingerprint {}. Each result is re-scored here by replaying its answers through the lesson; nothing leaves this browser.", l.fingerprint()) }</p>
                <AssignLink link={AttrValue::from(assignment_link(name, l.fingerprint()))} />
                <section class="class-input" aria-label="Add results" ondrop={on_drop} ondragover={on_drag_over} data-testid="class-drop">
                    <label for="class-paste">{ "Paste results codes, one a line" }</label>
                    <textarea id="class-paste" rows="4" value={(*paste).clone()} oninput={on_paste_input} data-testid="class-paste" />
                    <div class="row">
                        <button type="button" onclick={on_add_paste} data-testid="class-add">{ "Add" }</button>
                        <label class="file">{ "Pick files " }<input type="file" multiple=true onchange={on_pick.clone()} data-testid="class-files" /></label>
                        <label class="file">{ "Pick a folder " }<input type="file" webkitdirectory=true onchange={on_pick} data-testid="class-folder" /></label>
                    </div>
                    <p class="muted">{ "Or drop files or a folder here." }</p>
                </section>
                { results_view(l, &rows) }
                </>
            }
        }
    };
    html! {
        <div class="class-page">
            <h1>{ "Class results" }</h1>
            { body }
        </div>
    }
}
