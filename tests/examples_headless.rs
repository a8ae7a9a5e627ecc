//! Every small example, run headless through the same plugin as in its window, with a check of
//! what it is there to show. The example files are compiled into this test as modules, so an
//! example that stops compiling or stops working fails here.

#![allow(dead_code)]

#[path = "../examples/car.rs"]
mod car;
#[path = "../examples/casts.rs"]
mod casts;
#[path = "../examples/character.rs"]
mod character;
#[path = "../examples/cloth_and_rope.rs"]
mod cloth_and_rope;
#[path = "../examples/collision_events.rs"]
mod collision_events;
#[path = "../examples/falling_shapes.rs"]
mod falling_shapes;
#[path = "../examples/joints.rs"]
mod joints;
#[path = "../examples/kinematic_platforms.rs"]
mod kinematic_platforms;
#[path = "../examples/one_way_platform.rs"]
mod one_way_platform;
#[path = "../examples/piston_crank.rs"]
mod piston_crank;
#[path = "../examples/sensors.rs"]
mod sensors;
#[path = "../examples/system_ordering.rs"]
mod system_ordering;

use bevy::app::{PluginGroupBuilder, TaskPoolPlugin};
use bevy::asset::AssetPlugin;
use bevy::gizmos::GizmoPlugin;
use bevy::input::InputPlugin;
use bevy::mesh::MeshPlugin;
use bevy::prelude::*;
use bevy::time::{TimePlugin, TimeUpdateStrategy};
use bevy::transform::TransformPlugin;
use bevy_physics2d::physics_core::world::QueryFilter;
use bevy_physics2d::prelude::*;
use bevy_physics2d::{PhysicsDebugPlugin, PhysicsInterpolationPlugin, PhysicsSettings};
use std::time::Duration;

/// A window-less App running `example` at 60 Hz, one physics step per update, with input,
/// gizmos and the debug overlay's systems as in the window.
fn headless(example: impl Plugin) -> App {
    headless_with(example, PhysicsPlugins::default().build())
}

/// [`headless`] with the physics plugins an example chose (its collision hooks).
fn headless_with(example: impl Plugin, physics: PluginGroupBuilder) -> App {
    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin::default(),
        TimePlugin,
        TransformPlugin,
        InputPlugin,
        AssetPlugin::default(),
        // The gizmo plugin draws skinned-mesh bounds too, so it needs the mesh assets.
        MeshPlugin,
        GizmoPlugin,
        // Without interpolation, Transform is the pose of the last step, not a blend.
        physics.disable::<PhysicsInterpolationPlugin>(),
        PhysicsDebugPlugin::default(),
        example,
    ));
    app.insert_resource(Time::<Fixed>::from_hz(60.0));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        1.0 / 60.0,
    )));
    app.update();
    app
}

/// Runs updates until `steps` more physics steps have been taken.
fn step(app: &mut App, steps: u64) {
    let target = steps_taken(app) + steps;
    for _ in 0..10 * steps + 10 {
        if steps_taken(app) >= target {
            return;
        }
        app.update();
    }
    panic!("physics is not stepping");
}

fn steps_taken(app: &App) -> u64 {
    app.world().resource::<PhysicsWorld>().step_count()
}

/// Positions of the entities with component `C`.
fn positions<C: Component>(app: &mut App) -> Vec<Vec2> {
    let mut query = app.world_mut().query_filtered::<&Transform, With<C>>();
    query
        .iter(app.world())
        .map(|t| t.translation.truncate())
        .collect()
}

fn position_of<C: Component>(app: &mut App) -> Vec2 {
    let found = positions::<C>(app);
    assert_eq!(
        found.len(),
        1,
        "expected one {}",
        std::any::type_name::<C>()
    );
    found[0]
}

fn angle_of(transform: &Transform) -> f32 {
    transform.rotation.to_euler(EulerRot::XYZ).2
}

fn hold(app: &mut App, key: KeyCode, pressed: bool) {
    let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    if pressed {
        keys.press(key);
    } else {
        keys.release(key);
    }
}

#[test]
fn falling_shapes_come_to_rest_on_the_ground() {
    let mut app = headless(falling_shapes::example);
    step(&mut app, 300);
    let mut query = app.world_mut().query::<(&RigidBody, &Transform)>();
    let heights: Vec<f32> = query
        .iter(app.world())
        .filter(|(b, _)| **b == RigidBody::Dynamic)
        .map(|(_, t)| t.translation.y)
        .collect();
    assert_eq!(heights.len(), 60);
    // No shape is thinner than 0.3 m either side of its centre, so a centre within 0.25 m of
    // the ground's top face means the shape sank into it (soft contacts give millimetres).
    let lowest = heights.iter().copied().fold(f32::INFINITY, f32::min);
    let highest = heights.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    assert!(
        lowest > falling_shapes::GROUND_TOP + 0.25,
        "lowest centre {lowest}"
    );
    // Started up to 11 m high; after 5 s all lie in a pile a few shapes deep.
    assert!(highest < 5.0, "highest centre {highest}");
}

fn showcase(app: &mut App, which: joints::Showcase) -> Transform {
    let mut query = app.world_mut().query::<(&joints::Showcase, &Transform)>();
    let found: Vec<Transform> = query
        .iter(app.world())
        .filter(|(s, _)| **s == which)
        .map(|(_, t)| *t)
        .collect();
    assert_eq!(found.len(), 1, "{which:?}");
    found[0]
}

#[test]
fn joints_hold_their_constraints() {
    use joints::*;
    let mut app = headless(joints::example);
    let (mut carriage_min, mut carriage_max) = (f32::INFINITY, f32::NEG_INFINITY);
    for _ in 0..300 {
        step(&mut app, 1);
        let carriage = showcase(&mut app, Showcase::Carriage).translation;
        carriage_min = carriage_min.min(carriage.x);
        carriage_max = carriage_max.max(carriage.x);
        // Prismatic: on its rail, level, within its limits (with the solver's slop).
        assert!(
            (carriage.y - RAIL_Y).abs() < 0.01,
            "carriage off its rail: {carriage}"
        );
        let chain_end = showcase(&mut app, Showcase::ChainEnd)
            .translation
            .truncate();
        // Revolute chain: the links cannot stretch apart (a centimetre per pin at most).
        let reach = (LINKS as f32 - 0.5) * LINK;
        assert!(
            chain_end.distance(CHAIN_ANCHOR) < reach + 0.01 * LINKS as f32,
            "chain stretched to {}",
            chain_end.distance(CHAIN_ANCHOR)
        );
        // Rope: never longer than its length.
        let ball = showcase(&mut app, Showcase::RopeBall)
            .translation
            .truncate();
        assert!(ball.distance(ROPE_ANCHOR) < ROPE_LENGTH + 0.01);
        // Weld: the two halves keep their relative angle (zero at the start).
        let (a, b) = (
            showcase(&mut app, Showcase::WeldedA),
            showcase(&mut app, Showcase::WeldedB),
        );
        assert!((angle_of(&a) - angle_of(&b)).abs() < 0.02, "weld twisted");
    }
    // The motor drove the carriage to both limits (it starts at x = -5) and the limits held.
    let (lower, upper) = (-5.0 + SLIDER_LIMITS.0, -5.0 + SLIDER_LIMITS.1);
    assert!(
        carriage_min < lower + 0.1 && carriage_min > lower - 0.02,
        "{carriage_min}"
    );
    assert!(
        carriage_max > upper - 0.1 && carriage_max < upper + 0.02,
        "{carriage_max}"
    );
    // Spring: 2 Hz with damping ratio 0.1 decays by e^(-0.1 * 2 pi * 2 * 5) ~ 0.2% in 5 s, so
    // of the 0.54 m it starts from rest, 1 mm of swing is left; the box hangs at rest length
    // plus the sag g / omega^2 (6.3 cm at g = 10) below the anchor, its centre 0.4 m lower.
    let g = -app.world().resource::<PhysicsSettings>().gravity.y;
    let spring_box = showcase(&mut app, Showcase::SpringBox).translation.y;
    let expected = 10.0 - 2.0 - g / (4.0 * std::f32::consts::PI).powi(2) - 0.4;
    assert!(
        (spring_box - expected).abs() < 0.01,
        "{spring_box} vs {expected}"
    );
}

#[test]
fn collision_events_reach_messages_and_observers() {
    let mut app = headless(collision_events::example);
    step(&mut app, 300);
    let tally = app.world().resource::<collision_events::Tally>();
    // Every ball lands on the wedge or the ground at least once.
    assert!(tally.starts >= collision_events::BALLS, "{tally:?}");
    assert!(tally.observed >= collision_events::BALLS, "{tally:?}");
}

#[test]
fn sensor_sees_every_ball_enter_and_leave() {
    let mut app = headless(sensors::example);
    let mut most_inside = 0;
    for _ in 0..300 {
        step(&mut app, 1);
        most_inside = most_inside.max(app.world().resource::<sensors::Zone>().inside.len());
    }
    let zone = app.world().resource::<sensors::Zone>();
    // All balls fell through the zone to the ground below it.
    assert_eq!(zone.entered, sensors::BALLS);
    assert_eq!(zone.exited, sensors::BALLS);
    assert!(zone.inside.is_empty());
    assert!(most_inside >= 1);
    // Sensors do not push: every ball reached the ground (radius 0.3).
    let mut query = app.world_mut().query::<(&RigidBody, &Transform)>();
    let balls: Vec<f32> = query
        .iter(app.world())
        .filter(|(b, _)| **b == RigidBody::Dynamic)
        .map(|(_, t)| t.translation.y)
        .collect();
    assert_eq!(balls.len(), sensors::BALLS);
    for y in balls {
        assert!((y - 0.3).abs() < 0.02, "a ball at {y}");
    }
}

#[test]
fn casts_agree_with_point_queries() {
    let mut app = headless(casts::example);
    let (mut hits, mut misses) = (0, 0);
    // A little over one turn of the sweeping ray.
    for _ in 0..400 {
        step(&mut app, 1);
        let casts = app.world().resource::<casts::Casts>();
        let (direction, ray, ball) = (casts.ray_direction, casts.ray, casts.ball);
        // The ball cast from above the middle lands on the ground's top face.
        let ball = ball.expect("the ball cast hits the ground");
        assert!((ball.distance - (casts::CAST_HEIGHT - casts::CAST_RADIUS)).abs() < 0.01);
        // March along the ray with point queries: the first point inside a collider is the
        // ray's hit, found independently.
        let core = app.world().resource::<PhysicsWorld>().core();
        let first_inside = (0..6000).map(|i| i as f32 * 0.005).find(|t| {
            !core
                .query_point(casts::RAY_ORIGIN + *t * direction, &QueryFilter::default())
                .is_empty()
        });
        match (ray, first_inside) {
            (Some(hit), Some(t)) => {
                hits += 1;
                assert!(
                    (hit.distance - t).abs() < 0.01,
                    "ray {} march {t}",
                    hit.distance
                );
                assert!(
                    hit.point
                        .distance(casts::RAY_ORIGIN + hit.distance * direction)
                        < 1e-3
                );
            }
            (None, None) => misses += 1,
            (ray, march) => panic!("ray {ray:?} but march {march:?} along {direction}"),
        }
    }
    // Over a full turn the ray meets the ground, the scenery and open sky.
    assert!(hits > 100 && misses > 50, "{hits} hits, {misses} misses");
}

#[test]
fn one_way_platform_lets_the_player_up_and_holds_it() {
    use one_way_platform::*;
    let mut app = headless_with(one_way_platform::example, physics_plugins());
    step(&mut app, 30);
    let feet = |app: &mut App| position_of::<Player>(app).y - PLAYER_LENGTH / 2.0 - PLAYER_RADIUS;
    assert!(
        feet(&mut app).abs() < 0.02,
        "the player starts on the ground"
    );
    hold(&mut app, KeyCode::Space, true);
    step(&mut app, 3);
    hold(&mut app, KeyCode::Space, false);
    let mut highest = f32::NEG_INFINITY;
    for _ in 0..180 {
        step(&mut app, 1);
        highest = highest.max(feet(&mut app));
    }
    // Up through the platform (v^2 / 2g = 4.7 m), then down onto it.
    assert!(highest > PLATFORM_TOPS[0] + 1.0, "jumped to {highest}");
    let landed = feet(&mut app);
    assert!((landed - PLATFORM_TOPS[0]).abs() < 0.03, "feet at {landed}");
}

#[test]
fn car_drives_over_the_hills_upright() {
    use car::*;
    let mut app = headless(car::example);
    step(&mut app, 30);
    let start = position_of::<Chassis>(&mut app);
    hold(&mut app, KeyCode::KeyD, true);
    for _ in 0..360 {
        step(&mut app, 1);
        let mut query = app
            .world_mut()
            .query_filtered::<&Transform, With<Chassis>>();
        let chassis = *query.single(app.world()).unwrap();
        let at = chassis.translation.truncate();
        assert!(
            angle_of(&chassis).abs() < 1.2,
            "the car tipped over at {at}"
        );
        assert!(
            at.y > terrain_height(at.x),
            "the car fell through the ground at {at}"
        );
    }
    let end = position_of::<Chassis>(&mut app);
    // 6 s at up to 10 m/s: well over 15 m even with the climbs.
    assert!(end.x - start.x > 15.0, "drove only {} m", end.x - start.x);
}

#[test]
fn piston_strokes_twice_the_crank_radius() {
    use piston_crank::*;
    let mut app = headless(piston_crank::example);
    let (mut low, mut high) = (f32::INFINITY, f32::NEG_INFINITY);
    for _ in 0..300 {
        step(&mut app, 1);
        let piston = position_of::<Piston>(&mut app);
        assert!(
            piston.x.abs() < 0.01,
            "the piston left its cylinder: {piston}"
        );
        (low, high) = (low.min(piston.y), high.max(piston.y));
    }
    // 2.5 turns: the slider-crank's stroke is exactly 2 r.
    let stroke = high - low;
    assert!(
        (stroke - 2.0 * CRANK_RADIUS).abs() < 0.05,
        "stroke {stroke}"
    );
}

#[test]
fn rope_and_cloth_stay_connected() {
    use cloth_and_rope::*;
    let mut app = headless(cloth_and_rope::example);
    step(&mut app, 300);
    let mut links: Vec<(usize, Vec2)> = {
        let mut query = app.world_mut().query::<(&RopeLink, &Transform)>();
        query
            .iter(app.world())
            .map(|(l, t)| (l.0, t.translation.truncate()))
            .collect()
    };
    links.sort_by_key(|(i, _)| *i);
    assert_eq!(links.len(), ROPE_LINKS);
    // Neighbouring link centres are at most a link apart; the first is half a link from the
    // top (a few millimetres of give per soft pin).
    assert!(links[0].1.distance(ROPE_TOP) < 0.5 * ROPE_LINK + 0.01);
    for pair in links.windows(2) {
        let gap = pair[0].1.distance(pair[1].1);
        assert!(
            gap < ROPE_LINK + 0.01,
            "links {} and {} are {gap} apart",
            pair[0].0,
            pair[1].0
        );
    }
    let cloth: Vec<(usize, usize, Vec2)> = {
        let mut query = app.world_mut().query::<(&ClothParticle, &Transform)>();
        query
            .iter(app.world())
            .map(|(p, t)| (p.0, p.1, t.translation.truncate()))
            .collect()
    };
    let at = |row, column| {
        cloth
            .iter()
            .find(|(r, c, _)| *r == row && *c == column)
            .map(|(_, _, p)| *p)
            .unwrap()
    };
    let last = CLOTH_SIZE - 1;
    let pin_right = CLOTH_TOP_LEFT + Vec2::X * last as f32 * CLOTH_SPACING;
    assert!(at(0, 0).distance(CLOTH_TOP_LEFT) < 0.01);
    assert!(at(0, last).distance(pin_right) < 0.01);
    // The side columns hang down from the pins, stretched by no more than the springs allow.
    let column_length = last as f32 * CLOTH_SPACING;
    for (bottom, pin) in [(at(last, 0), CLOTH_TOP_LEFT), (at(last, last), pin_right)] {
        assert!(
            bottom.distance(pin) < column_length + 0.1,
            "{bottom} from {pin}"
        );
        assert!(
            bottom.y < pin.y - 0.7 * column_length,
            "{bottom} does not hang"
        );
    }
}

#[test]
fn kinematic_platform_carries_its_passengers() {
    use kinematic_platforms::*;
    let mut app = headless(kinematic_platforms::example);
    let slider_start = position_of::<Slider>(&mut app);
    let passengers_start = positions::<Passenger>(&mut app);
    // One second: the platform moves 2 m and has not yet turned round.
    step(&mut app, 60);
    let slider = position_of::<Slider>(&mut app);
    let moved = slider.x - slider_start.x;
    // Kinematic motion is exact: 60 steps of 1/60 s at 2 m/s.
    assert!(
        (moved - PLATFORM_SPEED).abs() < 1e-3,
        "platform moved {moved}"
    );
    assert_eq!(slider.y, slider_start.y, "nothing pushes a kinematic body");
    // Friction brings the boxes to the platform's speed within about 0.3 s, so they lag by
    // at most half of that second's worth of travel.
    let passengers = positions::<Passenger>(&mut app);
    assert_eq!(passengers.len(), 3);
    for (before, after) in passengers_start.iter().zip(&passengers) {
        let ride = after.x - before.x;
        assert!(
            ride > moved - 0.5 && ride < moved + 0.05,
            "box rode {ride} of {moved}"
        );
        assert!(
            (after.y - (PLATFORM_TOP + 0.3)).abs() < 0.02,
            "box left the platform"
        );
    }
}

#[test]
fn systems_ordered_around_the_step_see_this_steps_results() {
    use system_ordering::*;
    let mut app = headless(system_ordering::example);
    let starts = positions::<Ball>(&mut app);
    step(&mut app, 120);
    let heights = &app.world().resource::<Heights>().0;
    assert_eq!(heights.len(), 4);
    for list in heights {
        // Recorded once per step, after Writeback.
        assert_eq!(list.len(), 120);
    }
    // After Writeback, the first record already shows the first step's fall.
    let mut first: Vec<f32> = heights.iter().map(|l| l[0]).collect();
    let mut start_heights: Vec<f32> = starts.iter().map(|p| p.y).collect();
    first.sort_by(f32::total_cmp);
    start_heights.sort_by(f32::total_cmp);
    for (y, start) in first.iter().zip(&start_heights) {
        assert!(y < start, "recorded {y}, spawned at {start}");
    }
    // The wind, set before Prepare each step, pushed every ball to the right.
    let ends = positions::<Ball>(&mut app);
    let mean = |ps: &[Vec2]| ps.iter().map(|p| p.x).sum::<f32>() / ps.len() as f32;
    assert!(
        mean(&ends) > mean(&starts) + 0.5,
        "{} -> {}",
        mean(&starts),
        mean(&ends)
    );
}

#[test]
fn character_walks_the_level_pushes_the_light_crate_and_jumps_onto_the_one_way_platform() {
    use character::*;
    let feet = |app: &mut App| {
        position_of::<Player>(app) - Vec2::new(0.0, PLAYER_RADIUS + PLAYER_LENGTH / 2.0)
    };
    let grounded = |app: &mut App| {
        let mut q = app
            .world_mut()
            .query_filtered::<&CharacterState, With<Player>>();
        q.single(app.world()).unwrap().grounded
    };
    // Right: over the 0.3 m step, up the 35 degree ramp, onto the plateau.
    let mut app = headless(character::example);
    step(&mut app, 10);
    assert!(feet(&mut app).y.abs() < 0.02 && grounded(&mut app));
    hold(&mut app, KeyCode::KeyD, true);
    step(&mut app, 96);
    hold(&mut app, KeyCode::KeyD, false);
    step(&mut app, 10);
    let at = feet(&mut app);
    assert!(at.x > 8.5 && (at.y - PLATEAU_TOP).abs() < 0.02, "{at}");
    assert!(grounded(&mut app));

    // Left: the light crate is pushed along, the heavy one stops both.
    let mut app = headless(character::example);
    step(&mut app, 10);
    hold(&mut app, KeyCode::KeyA, true);
    step(&mut app, 240);
    let light = position_of::<LightCrate>(&mut app);
    let heavy = position_of::<HeavyCrate>(&mut app);
    assert!(light.x < -6.0, "light crate at {light}");
    assert!((heavy.x + 9.0).abs() < 1e-3, "heavy crate at {heavy}");
    assert!(feet(&mut app).x > -8.5, "{}", feet(&mut app));

    // Up: through the one-way platform above the start, and standing on it.
    let mut app = headless(character::example);
    step(&mut app, 10);
    hold(&mut app, KeyCode::Space, true);
    step(&mut app, 2);
    hold(&mut app, KeyCode::Space, false);
    step(&mut app, 120);
    let at = feet(&mut app);
    assert!((at.y - ONE_WAY_TOP).abs() < 0.02, "{at}");
    assert!(grounded(&mut app));
}
