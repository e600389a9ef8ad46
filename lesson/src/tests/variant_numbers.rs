//! Variants: the same seed gives the same numbers, and answers are recomputed for each.

use super::*;

#[test]
fn variants_same_seed_same_numbers_and_recomputed_answers() {
    let l = parse(FUTURE_DRILL).unwrap();
    assert_eq!(l.variant_count(), 9);
    assert_eq!(
        l.instantiate(Pick::Seed(7)).unwrap(),
        l.instantiate(Pick::Seed(7)).unwrap()
    );
    let indexes: std::collections::BTreeSet<u64> = (0..12)
        .map(|s| l.instantiate(Pick::Seed(s)).unwrap().variant.index)
        .collect();
    assert!(
        indexes.len() >= 4,
        "seeds pick different variants: {indexes:?}"
    );
    // The variant with the future stamp in segment 10000: every answer moves with it.
    let k = (0..9)
        .find(|k| {
            l.instantiate(Pick::Index(*k))
                .unwrap()
                .variant
                .label()
                .contains("offset 10000")
        })
        .unwrap();
    let mut play = Play::new(l.instantiate(Pick::Index(k)).unwrap()).unwrap();
    for _ in 0..3 {
        play.advance(&mut |_| {}).unwrap().unwrap();
    }
    assert_eq!(
        play.solved().unwrap().as_ref().unwrap().answer,
        Answer::Segment(Offset(10000))
    );
    play.reveal(&mut |_| {}).unwrap();
    play.advance(&mut |_| {}).unwrap().unwrap();
    assert_eq!(
        play.solved().unwrap().as_ref().unwrap().answer,
        Answer::segments(vec![Offset(0)])
    );
}
