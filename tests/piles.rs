//! A ball pile: 400 balls poured into a box 10 m wide must not sink into each other
//! further than Box2D v3's or avian2d's balls do.

use physics2d_demos::physics_core::prelude::*;
use physics2d_demos::scenes::{PILE_BALL_RADIUS, PILE_DROPS, ball_pile_drop};

/// Box2D v3's figure for the same pile, measured the same way: the deepest overlap of two
/// balls, or of a ball and the box, after 10 s (60 Hz, 4 substeps, sleeping off), averaged
/// over the 32 drops of `ball_pile_drop`. From `cargo run --release -p bench_compare --
/// --fidelity --scene ball_pile` (BENCHMARKS.md, fidelity table), 2026-11-24; in the same run
/// physics_core's figure was 0.0587 and rapier2d's 0.0575.
const BOX2D_DEEPEST_OVERLAP: f32 = 0.0564;

/// avian2d 0.7's figure for the same pile, measured the same way, the lowest of the other
/// engines (BENCHMARKS.md, fidelity table, 2026-12-06). Its contacts are stiffer: 45 Hz,
/// and 90 Hz against static bodies.
const AVIAN_DEEPEST_OVERLAP: f32 = 0.0303;

/// The deepest overlap of every drop, computed once for the tests that share it.
fn drop_figures() -> &'static [f32] {
    static FIGURES: std::sync::OnceLock<Vec<f32>> = std::sync::OnceLock::new();
    FIGURES.get_or_init(|| (0..PILE_DROPS).map(deepest_overlap).collect())
}

/// The mean of the drops' figures, and three standard errors of the difference of two
/// 32-drop means (taken from our own drops' spread, the other engine's being alike).
fn mean_and_margin(figures: &[f32]) -> (f32, f32) {
    let n = figures.len() as f32;
    let mean = figures.iter().sum::<f32>() / n;
    let variance = figures.iter().map(|f| (f - mean).powi(2)).sum::<f32>() / (n - 1.0);
    (mean, 3.0 * (2.0 * variance / n).sqrt())
}

/// The deepest overlap in one drop's pile after its 10 s.
fn deepest_overlap(drop: usize) -> f32 {
    let s = ball_pile_drop(drop);
    let mut built = s
        .build(WorldDef {
            enable_sleep: false,
            ..WorldDef::default()
        })
        .unwrap();
    for _ in 0..s.steps {
        built.world.step(s.dt).unwrap();
    }
    let balls: Vec<Vec2> = built.bodies[1..]
        .iter()
        .map(|b| built.world.body_position(*b).unwrap())
        .collect();
    assert!(balls.iter().all(|p| p.is_finite()), "drop {drop}: NaN");
    let r = PILE_BALL_RADIUS;
    let mut deepest = 0.0f32;
    for (i, a) in balls.iter().enumerate() {
        for b in &balls[i + 1..] {
            deepest = deepest.max(2.0 * r - a.distance(*b));
        }
        // The floor's top is y = 0, the walls' inner faces x = -5 and 5.
        deepest = deepest.max(r - a.y).max(r - (5.0 - a.x.abs()));
    }
    deepest
}

/// The pile's mean deepest overlap is at most Box2D's. A pile settles chaotically: with
/// Box2D's contacts the two engines agree to float noise until the first collisions part
/// them (`bench_compare --diff ball_pile`), and then each drop's figure scatters by 6 to 9 mm
/// in both (3.7 mm in ours at the default 45 Hz). So the bound is Box2D's mean plus three
/// standard errors of the difference of two 32-drop means (taken from our own drops'
/// spread, Box2D's being alike), which a same-algorithm engine exceeds by chance once in a
/// thousand. Softer contacts (20 Hz) sink the pile to 11 cm.
#[test]
fn a_ball_pile_sinks_no_deeper_than_box2ds() {
    let figures = drop_figures();
    let (mean, margin) = mean_and_margin(figures);
    let bound = BOX2D_DEEPEST_OVERLAP + margin;
    assert!(
        mean <= bound,
        "deepest overlap {mean} m on average over {} drops ({figures:?}); Box2D's \
         {BOX2D_DEEPEST_OVERLAP} m allows up to {bound} m",
        figures.len()
    );
    // The spread is what two chaotic piles show, not a broken run.
    let spread = margin / 3.0 * (figures.len() as f32 / 2.0).sqrt();
    println!("mean {mean} m, spread {spread} m, margin {margin} m");
    assert!(spread < 0.02, "drops scatter by {spread} m");
}

/// Regression: the pile sank twice as deep as avian's (5.85 cm against 3.03 cm), because
/// contact stiffness was capped at Box2D v3's eighth of the substep rate, 30 Hz at 60 Hz
/// with 4 substeps. A soft contact rests at a depth that goes as 1 / hertz^2, so the
/// default is now 45 Hz under a cap of three sixteenths of the substep rate (2.5 cm). The
/// mean must be at most avian's figure, with the same margin as above.
#[test]
fn regression_a_ball_pile_sank_twice_as_deep_as_avians_under_contacts_capped_at_30_hz() {
    let (mean, margin) = mean_and_margin(drop_figures());
    let bound = AVIAN_DEEPEST_OVERLAP + margin;
    assert!(
        mean <= bound,
        "deepest overlap {mean} m on average; avian's {AVIAN_DEEPEST_OVERLAP} m allows up to \
         {bound} m"
    );
}
