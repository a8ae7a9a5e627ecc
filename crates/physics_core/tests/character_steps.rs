//! Steps swept against the character controller: every step up to the step height is climbed
//! losing at most one frame of walking, and every step above it stops the character flat
//! against the riser with no creep up the corner, for capsules of radius 0.2 to 0.5 m.
//!
//! Regression: `step_corner_counted_as_ground_stalls_the_walk`. A corner below the capsule's
//! round bottom leans up enough to pass as an edge to stand on, so the walk was solved against
//! the corner's nearly level normal instead of trying the step: a 0.25 m step under a 0.3 m
//! capsule cost 0.35 m of walking, six frames under half speed.

use physics_core::position::to_vec2;
use physics_core::prelude::*;
use physics_core::world::{CharacterExceptions, CharacterSettings};

const DT: f32 = 1.0 / 60.0;
const GRAVITY: f32 = -9.81;
/// Half the capsule's core, end to end.
const HALF_CORE: f32 = 0.5;
/// Walking speed (m/s).
const WALK: f32 = 5.0;
/// Frames walked: the step starts 2 m ahead, so the walk ends 3 m past its start.
const FRAMES: usize = 60;
/// Where the feet start: 2 m before the step.
const START_X: f32 = -2.0;

/// Ground with its top at y = 0 and a 5 m long step of `height` from x = 0.
fn step_world(height: f32) -> World {
    let mut world = World::new(WorldDef::default()).unwrap();
    for (min, max) in [
        (Vec2::new(-20.0, -1.0), Vec2::new(20.0, 0.0)),
        (Vec2::new(0.0, 0.0), Vec2::new(5.0, height)),
    ] {
        let body = world
            .create_body(&BodyDef::fixed(0.5 * (min + max)))
            .unwrap();
        let h = 0.5 * (max - min);
        let shape = Polygon::new_box(h.x, h.y).unwrap().into();
        world
            .create_shape(body, &ShapeDef::default(), shape)
            .unwrap();
    }
    world
}

/// What a walk into a step did.
struct Walk {
    /// Feet at the end.
    feet: Vec2,
    /// Highest the feet got.
    highest: f32,
    /// Whether the controller reported a step-up.
    stepped_up: bool,
}

/// A capsule of `radius` walks at [`WALK`] for [`FRAMES`] frames into a step of `height`,
/// moved the way a game moves it: gravity integrated by the game, the translation applied
/// as the kinematic body's velocity, the clipped velocity kept.
fn walk_into_step(radius: f32, height: f32, settings: &CharacterSettings) -> Walk {
    let mut world = step_world(height);
    let centre_above_feet = HALF_CORE + radius;
    let body = world
        .create_body(&BodyDef::kinematic(Vec2::new(START_X, centre_above_feet)))
        .unwrap();
    let mover: Shape = Capsule::new(
        Vec2::new(0.0, -HALF_CORE),
        Vec2::new(0.0, HALF_CORE),
        radius,
    )
    .unwrap()
    .into();
    let shape = world
        .create_shape(body, &ShapeDef::default(), mover)
        .unwrap();
    let mut velocity = Vec2::ZERO;
    let mut highest = 0.0f32;
    let mut stepped_up = false;
    for _ in 0..FRAMES {
        velocity.x = WALK;
        velocity.y += GRAVITY * DT;
        let xf = world.body_transform(body).unwrap();
        let moved = world
            .move_character(
                &mover,
                xf,
                velocity,
                DT,
                settings,
                &CharacterExceptions {
                    own: &[shape],
                    one_way: &|_| false,
                },
            )
            .unwrap();
        world
            .set_linear_velocity(body, moved.translation / DT)
            .unwrap();
        velocity = moved.velocity;
        stepped_up |= moved.stepped_up;
        world.step(DT).unwrap();
        let feet = to_vec2(world.body_position(body).unwrap()).y - centre_above_feet;
        highest = highest.max(feet);
    }
    let centre = to_vec2(world.body_position(body).unwrap());
    Walk {
        feet: centre - Vec2::new(0.0, centre_above_feet),
        highest,
        stepped_up,
    }
}

/// Step heights from 0.05 m to twice the step height, every 0.05 m, skipping the ones within
/// a centimetre of the step height (which side of it they fall on is the slop's call).
fn swept_heights(step_height: f32) -> impl Iterator<Item = f32> {
    (1..=((2.0 * step_height / 0.05).round() as usize))
        .map(|i| i as f32 * 0.05)
        .filter(move |h| (h - step_height).abs() > 0.01)
}

#[test]
fn step_corner_counted_as_ground_stalls_the_walk() {
    let settings = CharacterSettings::default();
    // One frame of walking: what a step may cost.
    let one_frame = WALK * DT;
    let free_walk = WALK * DT * FRAMES as f32;
    let mut failures = Vec::new();
    for radius in [0.2, 0.3, 0.4, 0.5] {
        for height in swept_heights(settings.step_height) {
            let walk = walk_into_step(radius, height, &settings);
            let lost = START_X + free_walk - walk.feet.x;
            if height < settings.step_height {
                // Climbed: on the step's top (the contact slop is 5 mm), having lost at most
                // one frame of walking.
                if lost > one_frame || (walk.feet.y - height).abs() > 0.01 {
                    failures.push(format!(
                        "r {radius} step {height:.2}: lost {lost:.3} m, feet {:.3}",
                        walk.feet
                    ));
                }
            } else {
                // Stopped: flat against the riser (no further than the first touch of the
                // capsule with the corner), the feet never lifted off the ground by more
                // than the contact slop.
                let first_touch = if height < radius {
                    -(radius * radius - (radius - height) * (radius - height)).sqrt()
                } else {
                    -radius
                };
                if walk.feet.x > first_touch + 0.01 || walk.highest > 0.01 || walk.stepped_up {
                    failures.push(format!(
                        "r {radius} step {height:.2}: feet {:.3}, highest {:.3}, stepped {}",
                        walk.feet, walk.highest, walk.stepped_up
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
