//! Questions about a produced batch (`error`: the code the broker answers; `choose`: a config
//! value that accepts one batch and rejects another). A trainer does not type a batch: they
//! compose it in the explorer's Produce panel and press **Use this batch** (it is taken, not
//! sent), or pick a produce step already recorded ("the batch of step 4"). Core writes the
//! batch into the file, computes the answer, and names any problem at the question's field.

use std::rc::Rc;

use logtime_lesson::author::{AskKind, AuthorCommand, BatchSpec};
use logtime_lesson::CHOOSE_CONFIGS;
use logtime_model::Timestamp;
use yew::prelude::*;

use super::state::{AuthorAction, Draft};
use crate::components::{input_value, use_uid};

/// How many taken batches are kept at hand.
pub(super) const TAKEN_MAX: usize = 8;

/// What the Produce panel's **Use this batch** hands author mode: the batch composed, stamped
/// at broker time `now` as a send would stamp it, written by core (or why it cannot be).
pub fn take(spec: &crate::model::producer::BatchSpec, now: Timestamp) -> AuthorAction {
    let taken = spec
        .records(now)
        .and_then(|records| BatchSpec::of_records(&records, now, None).map_err(|e| e.to_string()));
    match taken {
        Ok(b) => AuthorAction::Take(b),
        Err(why) => AuthorAction::Say(why, true),
    }
}

/// Where a batch comes from: `t{k}` the k-th taken from the Produce panel, `s{n}` the batch of
/// produce step n.
fn sources(taken: &[BatchSpec], draft: &Draft) -> Vec<(String, String)> {
    let from_panel = taken.iter().enumerate().map(|(k, b)| {
        (
            format!("t{k}"),
            format!("batch {} (Produce panel): {}", k + 1, b.describe()),
        )
    });
    let from_steps = draft.steps.iter().filter(|s| s.kind == "produce").map(|s| {
        (
            format!("s{}", s.index),
            format!("the batch of step {}: {}", s.index, s.summary),
        )
    });
    from_panel.chain(from_steps).collect()
}

fn resolve(src: &str, taken: &[BatchSpec], draft: &Draft) -> Result<BatchSpec, String> {
    let n = |s: &str| s.parse::<usize>().ok();
    match (src.get(..1), src.get(1..).and_then(n)) {
        (Some("t"), Some(k)) => taken
            .get(k)
            .cloned()
            .ok_or_else(|| "batch: that batch is no longer at hand; take it again".into()),
        (Some("s"), Some(i)) => draft.batch_of_step(i),
        _ => Err("batch: pick a batch (compose one in the Produce panel and press Use this batch, or send one and pick its step)".into()),
    }
}

/// The batch question's props.
#[derive(Properties, PartialEq, Clone)]
pub(super) struct BatchQuestionProps {
    /// Where the question goes (1-based).
    pub at: usize,
    /// A `choose` question (else `error`).
    pub choose: bool,
    /// The draft (its recorded produce steps are batches to pick).
    pub draft: Draft,
    /// Batches taken from the Produce panel.
    pub taken: Rc<Vec<BatchSpec>>,
    /// Commands for core.
    pub on_command: Callback<AuthorCommand>,
    /// What the page says when a batch cannot be had.
    pub on_author: Callback<AuthorAction>,
}

/// One batch picked, with the label that names it in feedback (a choice's batches only: the
/// file does not name the one batch an error question sends).
fn batch_pick(
    (id, label_id): (&str, &str),
    what: &str,
    chosen: &str,
    options: &[(String, String)],
    on_pick: Callback<Event>,
    on_label: Option<(Callback<Event>, &str)>,
    testid: &str,
) -> Html {
    html! {
        <div class="lt-author-batch-pick">
            <label for={id.to_string()}>{ what.to_string() }</label>
            <select id={id.to_string()} onchange={on_pick} data-testid={format!("author-{testid}")}>
                { for options.iter().map(|(v, words)| html!{ <option value={v.clone()} selected={v == chosen}>{ words.clone() }</option> }) }
            </select>
            if let Some((onchange, example)) = on_label {
                <label for={label_id.to_string()}>{ "Its name in feedback (optional)" }</label>
                <input id={label_id.to_string()} {onchange} placeholder={example.to_string()} data-testid={format!("author-{testid}-label")} />
            }
        </div>
    }
}

fn bind(h: &UseStateHandle<Option<String>>) -> Callback<Event> {
    let h = h.clone();
    Callback::from(move |e: Event| h.set(Some(input_value(&e))))
}

/// The batch (or, for `choose`, the config and the two batches) a question is about, and the
/// button that adds it.
#[function_component(BatchQuestion)]
pub(super) fn batch_question(p: &BatchQuestionProps) -> Html {
    let config = use_state(|| CHOOSE_CONFIGS[0].to_string());
    // `None`: the default pick (the newest batch taken; for `choose`, the two newest).
    let first = use_state(|| None::<String>);
    let second = use_state(|| None::<String>);
    let labels = [use_state(|| None::<String>), use_state(|| None::<String>)];
    let ids = [
        use_uid("lt-au-cfg"),
        use_uid("lt-au-b1"),
        use_uid("lt-au-l1"),
        use_uid("lt-au-b2"),
        use_uid("lt-au-l2"),
    ];
    let options = sources(&p.taken, &p.draft);
    if options.is_empty() {
        return html! {
            <p class="lt-author-pointing" role="status" data-testid="author-batch-needed">
                { "Compose the batch in the Produce panel and press “Use this batch” (it is not sent), or send it and pick its recorded step." }
            </p>
        };
    }
    let newest = |back: usize| {
        let n = p.taken.len();
        if n > back {
            format!("t{}", n - 1 - back)
        } else {
            options
                .get(back.min(options.len() - 1))
                .map(|o| o.0.clone())
                .unwrap_or_default()
        }
    };
    let (a, b) = if p.choose {
        (
            (*first).clone().unwrap_or_else(|| newest(1)),
            (*second).clone().unwrap_or_else(|| newest(0)),
        )
    } else {
        ((*first).clone().unwrap_or_else(|| newest(0)), String::new())
    };
    let on_config = {
        let config = config.clone();
        Callback::from(move |e: Event| config.set(input_value(&e)))
    };
    let on_add = {
        let (at, choose, draft, taken) = (p.at, p.choose, p.draft.clone(), p.taken.clone());
        let (on, on_author, config) =
            (p.on_command.clone(), p.on_author.clone(), (*config).clone());
        let names: Vec<Option<String>> = labels.iter().map(|l| (**l).clone()).collect();
        let (a, b) = (a.clone(), b.clone());
        Callback::from(move |_: MouseEvent| {
            let pick = |src: &str, k: usize| {
                resolve(src, &taken, &draft).map(|mut x| {
                    x.label = names[k].clone().filter(|l| choose && !l.trim().is_empty());
                    x
                })
            };
            let ask = if choose {
                pick(&a, 0).and_then(|accept| {
                    pick(&b, 1).map(|reject| AskKind::Choose {
                        config: config.clone(),
                        accept,
                        reject,
                    })
                })
            } else {
                pick(&a, 0).map(AskKind::ErrorProduce)
            };
            match ask {
                Ok(ask) => on.emit(AuthorCommand::AddQuestion {
                    at,
                    ask,
                    pointing: None,
                    text: String::new(),
                }),
                Err(why) => on_author.emit(AuthorAction::Say(why, true)),
            }
        })
    };
    let label = |k: usize, example| Some((bind(&labels[k]), example));
    html! {
        <div class="lt-author-batch" role="group" aria-label="The batch asked about" data-testid="author-batch-question">
            if p.choose {
                <div class="lt-author-batch-pick">
                    <label for={ids[0].clone()}>{ "Config the learner sets" }</label>
                    <select id={ids[0].clone()} onchange={on_config} data-testid="author-choose-config">
                        { for CHOOSE_CONFIGS.iter().map(|c| html!{ <option value={*c} selected={*c == config.as_str()}>{ *c }</option> }) }
                    </select>
                </div>
                { batch_pick((&ids[1], &ids[2]), "Batch it must accept", &a, &options, bind(&first), label(0, "e.g. the on-time batch"), "batch-accept") }
                { batch_pick((&ids[3], &ids[4]), "Batch it must reject", &b, &options, bind(&second), label(1, "e.g. the 2-hours-ahead batch"), "batch-reject") }
            } else {
                { batch_pick((&ids[1], &ids[2]), "Batch sent", &a, &options, bind(&first), None, "batch") }
            }
            <button type="button" class="lt-btn lt-btn-small" onclick={on_add} data-testid="author-add-question">
                { format!("Add question as step {}", p.at) }
            </button>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::producer::{BatchSpec as Composed, When};
    use logtime_lesson::author::{Authoring, Start};
    use yew::Reducible;

    const T: Timestamp = Timestamp(1_804_842_000_000);

    fn started() -> Rc<super::super::AuthorState> {
        let (a, _) = Authoring::new(Start::Empty {
            kafka: "4.0".into(),
            configs: Vec::new(),
            start: T,
        })
        .unwrap();
        let s = Rc::new(super::super::AuthorState::default());
        s.reduce(AuthorAction::Started(Ok(Box::new(a)), 0, None))
    }

    #[test]
    fn a_batch_composed_in_the_producer_is_taken_in_cores_words() {
        let ahead = Composed {
            when: When::Offset(60_000),
            ..Composed::default()
        };
        let s = started().reduce(take(&ahead, T));
        assert_eq!(s.taken.len(), 1);
        assert_eq!(s.taken[0].records[0].timestamp, "now+1m");
        assert_eq!(
            s.said,
            Some(("Batch 1 taken: 1 record stamped now+1m.".into(), false))
        );
        // Taken, not recorded.
        assert!(s.draft.as_ref().unwrap().steps.is_empty());
        // Only a few stay at hand.
        let s = (0..TAKEN_MAX + 2).fold(s, |s, _| s.reduce(take(&ahead, T)));
        assert_eq!(s.taken.len(), TAKEN_MAX);
        let d = s.draft.clone().unwrap();
        assert_eq!(sources(&s.taken, &d).len(), TAKEN_MAX);
        assert!(resolve("t0", &s.taken, &d).is_ok());
        assert!(resolve("t99", &s.taken, &d)
            .unwrap_err()
            .starts_with("batch: "));
        assert!(resolve("s1", &s.taken, &d)
            .unwrap_err()
            .starts_with("step: "));
    }

    #[test]
    fn batch_kinds_are_not_made_by_pointing() {
        for (i, (key, _, _)) in super::super::tools::KINDS.iter().enumerate() {
            if matches!(*key, "choose" | "error-produce") {
                assert_eq!(
                    super::super::tools::ask_of(i, Some((0, T.0))),
                    None,
                    "{key}"
                );
            }
        }
    }
}
