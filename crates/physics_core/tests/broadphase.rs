//! The broadphase: resting bodies do not touch it.

mod support;

use physics_core::prelude::*;
use support::{DT, ground, unit_box};

#[test]
fn resting_bodies_do_not_touch_the_broadphase() {
    // Sleep off: awake resting bodies must already leave the trees alone.
    let mut w = World::new(WorldDef {
        enable_sleep: false,
        ..Default::default()
    })
    .unwrap();
    ground(&mut w);
    for i in 0..5 {
        unit_box(&mut w, Vec2::new(0.0, 0.5 + i as f32));
    }
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    for _ in 0..30 {
        w.step(DT).unwrap();
        assert_eq!(
            w.counters().proxies_queried,
            0,
            "a resting box re-queried the trees"
        );
        assert_eq!(w.counters().manifolds_updated, 5);
    }
}
