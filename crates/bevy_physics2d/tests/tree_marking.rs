//! Bevy's static-tree marking goes off while the physics moves most of the world's
//! `Transform`s and on again when it does not, a game's own setting wins, and hierarchies
//! under moving bodies still follow them whichever way it is set.

mod support;

use bevy_app::App;
use bevy_ecs::hierarchy::ChildOf;
use bevy_ecs::prelude::*;
use bevy_physics2d::prelude::*;
use bevy_physics2d::{MARKING_OFF_FACTOR, MARKING_OFF_MIN_WRITES, TreeMarking};
use bevy_transform::components::GlobalTransform;
use bevy_transform::systems::StaticTransformOptimizations;

/// Comfortably above the write count that may turn the marking off.
const MANY: usize = MARKING_OFF_MIN_WRITES + 44;

/// `count` balls falling freely on a grid 2 m apart, so every one moves every step.
fn falling_balls(app: &mut App, count: usize) -> Vec<Entity> {
    (0..count)
        .map(|i| {
            let (x, y) = ((i % 20) as f32 * 2.0, (i / 20) as f32 * 2.0 + 10.0);
            support::spawn_dynamic(app, Collider::circle(0.4), x, y)
        })
        .collect()
}

fn marking_on(app: &App) -> bool {
    app.world()
        .resource::<StaticTransformOptimizations>()
        .is_enabled()
}

fn set_marking(app: &mut App, on: bool) {
    *app.world_mut()
        .resource_mut::<StaticTransformOptimizations>() = if on {
        StaticTransformOptimizations::Enabled
    } else {
        StaticTransformOptimizations::Disabled
    };
}

/// Where `entity` is drawn: its propagated `GlobalTransform`.
fn shown_at(app: &App, entity: Entity) -> bevy_math::Vec3 {
    app.world()
        .get::<GlobalTransform>(entity)
        .unwrap()
        .translation()
}

/// `count` plain entities parented to one static entity far from the balls.
fn still_hierarchy(app: &mut App, count: usize) {
    let root = app
        .world_mut()
        .spawn(Transform::from_xyz(-100.0, 0.0, 0.0))
        .id();
    for i in 0..count {
        app.world_mut()
            .spawn((Transform::from_xyz(i as f32, 0.0, 0.0), ChildOf(root)));
    }
}

#[test]
fn many_moving_bodies_turn_the_marking_off_and_few_turn_it_back_on() {
    let mut app = support::app();
    let balls = falling_balls(&mut app, MANY);
    assert!(marking_on(&app), "Bevy's default");
    support::step(&mut app, 3);
    assert!(!marking_on(&app), "{MANY} moving bodies, no hierarchy");
    // Fewer than the minimum left moving: Bevy's default again.
    let keep = MARKING_OFF_MIN_WRITES / 2;
    for &ball in &balls[keep..] {
        app.world_mut().despawn(ball);
    }
    support::step(&mut app, 1);
    assert!(marking_on(&app), "{keep} moving bodies");
}

#[test]
fn a_larger_hierarchy_keeps_the_marking_on() {
    let mut app = support::app();
    falling_balls(&mut app, MANY);
    // Walking this hierarchy every frame would cost more than marking the moved balls.
    still_hierarchy(&mut app, MANY / MARKING_OFF_FACTOR + 1);
    support::step(&mut app, 3);
    assert!(marking_on(&app));
}

#[test]
fn a_game_that_sets_the_marking_keeps_its_choice() {
    let mut app = support::app();
    falling_balls(&mut app, MANY);
    support::step(&mut app, 3);
    assert!(!marking_on(&app));
    set_marking(&mut app, true);
    support::step(&mut app, 3);
    assert!(marking_on(&app), "the game turned it back on");
}

#[test]
fn tree_marking_leave_never_touches_it() {
    let mut app = support::app();
    app.insert_resource(TreeMarking::Leave);
    falling_balls(&mut app, MANY);
    support::step(&mut app, 3);
    assert!(marking_on(&app));
}

/// Children of moving bodies (sprites, say) follow them with the marking off, and across the
/// switch back on; a moved child of a still parent is propagated too.
#[test]
fn children_follow_their_bodies_whichever_way_the_marking_is() {
    let mut app = support::app();
    let balls = falling_balls(&mut app, MANY);
    let offset = Vec2::new(0.5, 0.25);
    let sprite = app
        .world_mut()
        .spawn((
            Transform::from_translation(offset.extend(0.0)),
            ChildOf(balls[0]),
        ))
        .id();
    let check = |app: &App, when: &str| {
        let body = app.world().get::<GlobalTransform>(balls[0]).unwrap();
        let child = app.world().get::<GlobalTransform>(sprite).unwrap();
        let expected = body.transform_point(offset.extend(0.0));
        // Single-precision products of poses of order 10 m: far below a millimetre.
        assert!(
            (child.translation() - expected).length() < 1e-4,
            "{when}: child at {:?}, its body's frame puts it at {expected:?}",
            child.translation()
        );
        let pose = app.world().get::<Transform>(balls[0]).unwrap();
        assert!((body.translation() - pose.translation).length() < 1e-5);
    };
    support::step(&mut app, 3);
    assert!(!marking_on(&app));
    // Propagation runs after the step, in the same update.
    check(&app, "marking off");
    let start = shown_at(&app, balls[0]);
    support::step(&mut app, 10);
    check(&app, "marking off, later");
    let now = shown_at(&app, balls[0]);
    assert!(start.y - now.y > 0.05, "the ball falls: {start} -> {now}");
    for &ball in &balls[1..] {
        app.world_mut().despawn(ball);
    }
    support::step(&mut app, 1);
    assert!(marking_on(&app));
    check(&app, "marking back on");
    support::step(&mut app, 10);
    check(&app, "marking on, later");
}
