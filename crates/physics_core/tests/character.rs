//! The character controller over the mover: slopes up to the limit and not past it, steps up
//! to the step height and not higher, no wall crossed at any speed, moving platforms ridden,
//! one-way platforms, light bodies pushed and heavy ones not, ground followed downhill.

use physics_core::position::to_vec2;
use physics_core::prelude::*;
use physics_core::world::{CharacterExceptions, CharacterMove, CharacterSettings};

const DT: f32 = 1.0 / 60.0;
const GRAVITY: f32 = -9.81;
/// The capsule's half height to its core ends, its radius, and so its feet below its centre.
const HALF_CORE: f32 = 0.5;
const RADIUS: f32 = 0.3;
const FEET: f32 = HALF_CORE + RADIUS;

/// A capsule character on a kinematic body, moved once per step the way a game would:
/// gravity integrated by the game, the controller's translation applied as the body's
/// velocity for the step, touched bodies pushed, the clipped velocity kept.
struct Rig {
    world: World,
    body: BodyId,
    shape: ShapeId,
    mover: Shape,
    velocity: Vec2,
    settings: CharacterSettings,
    one_way: Vec<ShapeId>,
    max_push_mass: f32,
    last: Option<CharacterMove>,
}

impl Rig {
    fn new(mut world: World, feet: Vec2) -> Rig {
        let body = world
            .create_body(&BodyDef::kinematic(feet + Vec2::new(0.0, FEET)))
            .unwrap();
        let mover: Shape = Capsule::new(
            Vec2::new(0.0, -HALF_CORE),
            Vec2::new(0.0, HALF_CORE),
            RADIUS,
        )
        .unwrap()
        .into();
        let shape = world
            .create_shape(body, &ShapeDef::default(), mover)
            .unwrap();
        Rig {
            world,
            body,
            shape,
            mover,
            velocity: Vec2::ZERO,
            settings: CharacterSettings::default(),
            one_way: Vec::new(),
            max_push_mass: 50.0,
            last: None,
        }
    }

    /// One step walking at `walk` m/s across (plus whatever vertical speed it has).
    fn step(&mut self, walk: f32) {
        self.velocity.x = walk;
        self.velocity.y += GRAVITY * DT;
        let xf = self.world.body_transform(self.body).unwrap();
        let one_way = self.one_way.clone();
        let moved = self
            .world
            .move_character(
                &self.mover,
                xf,
                self.velocity,
                DT,
                &self.settings,
                &CharacterExceptions {
                    own: &[self.shape],
                    one_way: &|s| one_way.contains(&s),
                },
            )
            .unwrap();
        self.world
            .set_linear_velocity(self.body, moved.translation / DT)
            .unwrap();
        self.world
            .push_touched_bodies(&moved, &self.settings, self.max_push_mass);
        self.velocity = moved.velocity;
        self.last = Some(moved);
        self.world.step(DT).unwrap();
    }

    fn feet(&self) -> Vec2 {
        to_vec2(self.world.body_position(self.body).unwrap()) - Vec2::new(0.0, FEET)
    }

    fn grounded(&self) -> bool {
        self.last.as_ref().is_some_and(|m| m.ground.is_some())
    }
}

fn world() -> World {
    World::new(WorldDef::default()).unwrap()
}

/// A static box from `min` to `max`.
fn static_box(world: &mut World, min: Vec2, max: Vec2) -> ShapeId {
    let body = world
        .create_body(&BodyDef::fixed(0.5 * (min + max)))
        .unwrap();
    let h = 0.5 * (max - min);
    world
        .create_shape(
            body,
            &ShapeDef::default(),
            Polygon::new_box(h.x, h.y).unwrap().into(),
        )
        .unwrap()
}

/// Flat ground with its top at y = 0 from x = -20 to 0, a slope of `degrees` rising from
/// x = 0 to a height of 3 m, and a flat top beyond.
fn slope_world(degrees: f32) -> World {
    let mut world = world();
    static_box(&mut world, Vec2::new(-20.0, -1.0), Vec2::new(0.0, 0.0));
    let run = 3.0 / degrees.to_radians().tan();
    let ground = world.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
    let wedge = Polygon::from_points(
        &[
            Vec2::new(0.0, -1.0),
            Vec2::new(run, -1.0),
            Vec2::new(run, 3.0),
            Vec2::new(0.0, 0.0),
        ],
        0.0,
    )
    .unwrap();
    world
        .create_shape(ground, &ShapeDef::default(), wedge.into())
        .unwrap();
    static_box(&mut world, Vec2::new(run, 2.0), Vec2::new(run + 20.0, 3.0));
    world
}

#[test]
fn walks_up_a_40_degree_slope_and_not_a_60_degree_one() {
    let mut gentle = Rig::new(slope_world(40.0), Vec2::new(-3.0, 0.0));
    for _ in 0..300 {
        gentle.step(4.0);
    }
    // Up the 3.6 m of slope and onto the top, standing on it.
    assert!(
        gentle.feet().y > 2.99 && gentle.feet().y < 3.02,
        "{}",
        gentle.feet()
    );
    assert!(gentle.grounded());

    let mut steep = Rig::new(slope_world(60.0), Vec2::new(-3.0, 0.0));
    for _ in 0..300 {
        steep.step(4.0);
    }
    // Held at the foot: the capsule's round bottom touches the slope a little above its foot.
    let feet = steep.feet();
    assert!(feet.y < 0.2, "climbed the 60 degree slope: {feet}");
    assert!(feet.x < 0.1, "{feet}");
    assert!(
        steep.velocity.x.abs() < 1e-3,
        "speed built up against the slope"
    );
}

#[test]
fn walks_down_a_slope_grounded_at_every_step() {
    // From the top of the 40 degree slope down to the flat, running at 6 m/s: snapping
    // keeps the feet on the slope instead of flying off its top edge in hops.
    let mut rig = Rig::new(slope_world(40.0), Vec2::new(8.0, 3.0));
    for _ in 0..10 {
        rig.step(0.0);
    }
    let mut airborne = 0;
    for _ in 0..180 {
        rig.step(-6.0);
        airborne += usize::from(!rig.grounded());
    }
    assert!(
        rig.feet().y.abs() < 0.02 && rig.feet().x < -5.0,
        "{}",
        rig.feet()
    );
    assert_eq!(airborne, 0);
}

/// Ground with its top at y = 0 and a 5 m long step of `height` starting at x = 0.
fn step_world(height: f32) -> World {
    let mut world = world();
    static_box(&mut world, Vec2::new(-20.0, -1.0), Vec2::new(20.0, 0.0));
    static_box(&mut world, Vec2::new(0.0, 0.0), Vec2::new(5.0, height));
    world
}

#[test]
fn climbs_0_3_m_steps_and_not_0_6_m_ones() {
    let mut low = Rig::new(step_world(0.3), Vec2::new(-2.0, 0.0));
    for _ in 0..90 {
        low.step(3.0);
    }
    assert!(low.feet().x > 1.5, "{}", low.feet());
    assert!((low.feet().y - 0.3).abs() < 0.02, "{}", low.feet());
    assert!(low.grounded());

    let mut high = Rig::new(step_world(0.6), Vec2::new(-2.0, 0.0));
    for _ in 0..90 {
        high.step(3.0);
    }
    assert!(high.feet().x < 0.0 - RADIUS + 0.01, "{}", high.feet());
    assert!(high.feet().y.abs() < 0.02, "{}", high.feet());
}

#[test]
fn never_ends_inside_a_wall_at_20_m_per_s() {
    // A 10 cm wall at x = 5 and a floor: run into it at 20 m/s, then dive into the corner
    // from the air at 20 m/s down and across. The capsule's right side never passes the
    // wall's face (0.1 m of wall is six steps' motion at 20 m/s: no tunnelling either).
    let mut world = world();
    static_box(&mut world, Vec2::new(-20.0, -1.0), Vec2::new(20.0, 0.0));
    static_box(&mut world, Vec2::new(5.0, 0.0), Vec2::new(5.1, 10.0));
    let mut rig = Rig::new(world, Vec2::new(-2.0, 0.0));
    let mut deepest = f32::MIN;
    for i in 0..240 {
        if i == 120 {
            // Teleport up and dive.
            let p = to_vec2(rig.world.body_position(rig.body).unwrap());
            rig.world
                .set_transform(rig.body, Vec2::new(0.0, p.y + 6.0), Rot::IDENTITY)
                .unwrap();
            rig.velocity = Vec2::new(20.0, -20.0);
        }
        rig.step(20.0);
        let p = to_vec2(rig.world.body_position(rig.body).unwrap());
        deepest = deepest.max(p.x + RADIUS - 5.0);
        assert!(p.y - FEET > -0.005, "through the floor: {p}");
    }
    assert!(deepest < 0.005, "{deepest} m into the wall");
    assert!(deepest > -0.02, "never reached the wall: {deepest}");
}

#[test]
fn rides_a_moving_platform_without_sliding() {
    let mut world = world();
    static_box(&mut world, Vec2::new(-50.0, -1.0), Vec2::new(50.0, 0.0));
    let platform = world
        .create_body(&BodyDef::kinematic(Vec2::new(0.0, 2.0)))
        .unwrap();
    world
        .create_shape(
            platform,
            &ShapeDef::default(),
            Polygon::new_box(2.0, 0.25).unwrap().into(),
        )
        .unwrap();
    let mut rig = Rig::new(world, Vec2::new(0.5, 2.25));
    for _ in 0..30 {
        rig.step(0.0);
    }
    let offset = |rig: &Rig| rig.feet() - to_vec2(rig.world.body_position(platform).unwrap());
    let start = offset(&rig);
    let mut worst: f32 = 0.0;
    for i in 0..480 {
        // Back and forth and up and down, changing every second.
        let phase = (i / 60) % 4;
        let v = [
            Vec2::new(3.0, 0.0),
            Vec2::new(0.0, 1.5),
            Vec2::new(-3.0, 0.0),
            Vec2::new(0.0, -1.5),
        ][phase];
        rig.world.set_linear_velocity(platform, v).unwrap();
        rig.step(0.0);
        worst = worst.max((offset(&rig) - start).length());
        assert!(rig.grounded(), "lost the platform at step {i}");
    }
    // Carried exactly: a centimetre covers the one-step lag of a change of direction.
    assert!(worst < 0.01, "slid {worst} m on the platform");
}

#[test]
fn a_one_way_platform_is_jumped_through_from_below_and_stood_on() {
    let mut world = world();
    static_box(&mut world, Vec2::new(-20.0, -1.0), Vec2::new(20.0, 0.0));
    let one_way = static_box(&mut world, Vec2::new(-2.0, 2.0), Vec2::new(2.0, 2.2));
    let mut rig = Rig::new(world, Vec2::new(0.0, 0.0));
    rig.one_way.push(one_way);
    rig.step(0.0);
    // Jump at 9 m/s: apex 4.1 m, clear of the platform's top at 2.2 m.
    rig.velocity.y = 9.0;
    let mut highest: f32 = 0.0;
    for _ in 0..180 {
        rig.step(0.0);
        highest = highest.max(rig.feet().y);
    }
    assert!(highest > 3.5, "stopped under the platform: {highest}");
    assert!((rig.feet().y - 2.2).abs() < 0.02, "{}", rig.feet());
    assert!(rig.grounded());

    // The same platform as a solid box stops the head.
    let mut world = self::world();
    static_box(&mut world, Vec2::new(-20.0, -1.0), Vec2::new(20.0, 0.0));
    static_box(&mut world, Vec2::new(-2.0, 2.0), Vec2::new(2.0, 2.2));
    let mut solid = Rig::new(world, Vec2::new(0.0, 0.0));
    solid.step(0.0);
    solid.velocity.y = 9.0;
    let mut highest: f32 = 0.0;
    for _ in 0..180 {
        solid.step(0.0);
        highest = highest.max(solid.feet().y);
    }
    assert!(highest < 2.0 - 2.0 * FEET + 0.01, "{highest}");
}

#[test]
fn pushes_a_light_crate_and_is_stopped_by_a_heavy_one() {
    let run = |density: f32| {
        let mut world = world();
        static_box(&mut world, Vec2::new(-20.0, -1.0), Vec2::new(40.0, 0.0));
        let crate_ = world
            .create_body(&BodyDef::dynamic(Vec2::new(2.0, 0.5)))
            .unwrap();
        let def = ShapeDef {
            density,
            ..Default::default()
        };
        world
            .create_shape(crate_, &def, Polygon::new_box(0.5, 0.5).unwrap().into())
            .unwrap();
        let mut rig = Rig::new(world, Vec2::new(0.0, 0.0));
        for _ in 0..180 {
            rig.step(3.0);
        }
        let crate_x = to_vec2(rig.world.body_position(crate_).unwrap()).x;
        (rig.feet().x, crate_x)
    };
    // One kilogram, under the 50 kg limit: walked along at about walking speed for the
    // 2.5 s after reaching it (friction 0.6 drags it back each step: at least 5 m).
    let (feet, crate_x) = run(1.0);
    assert!(crate_x > 7.0, "light crate at {crate_x}");
    assert!(
        crate_x - feet > 0.5 + RADIUS - 0.01,
        "walked into the crate: {feet} {crate_x}"
    );
    // 500 kg: a wall.
    let (feet, crate_x) = run(500.0);
    assert!(
        (crate_x - 2.0).abs() < 1e-3,
        "heavy crate moved to {crate_x}"
    );
    assert!(feet < 1.5 - RADIUS + 0.01, "{feet}");
}

#[test]
fn bad_character_input_is_an_error() {
    let rig = Rig::new(world(), Vec2::ZERO);
    let xf = rig.world.body_transform(rig.body).unwrap();
    let square: Shape = Polygon::new_box(0.5, 0.5).unwrap().into();
    let none = CharacterExceptions {
        own: &[],
        one_way: &|_| false,
    };
    let settings = CharacterSettings::default();
    let w = &rig.world;
    assert!(
        w.move_character(&square, xf, Vec2::X, DT, &settings, &none)
            .is_err()
    );
    assert!(
        w.move_character(&rig.mover, xf, Vec2::NAN, DT, &settings, &none)
            .is_err()
    );
    assert!(
        w.move_character(&rig.mover, xf, Vec2::X, 0.0, &settings, &none)
            .is_err()
    );
    let tilted = CharacterSettings {
        up: Vec2::new(1.0, 1.0),
        ..settings
    };
    assert!(
        w.move_character(&rig.mover, xf, Vec2::X, DT, &tilted, &none)
            .is_err()
    );
}
