//! The solver reuses last step's contact list and colours only while nothing they depend on
//! changed. Debug builds (these tests) also recompute the reused set and panic if it differs,
//! so every step of every test checks the reuse is exact; these tests check it happens when
//! it should and stops when it must.

use physics_core::prelude::*;

const DT: f32 = 1.0 / 60.0;

/// A ground and a stack of `height` unit boxes, sleeping off so the stack stays solved.
fn stack(height: usize) -> (World, Vec<BodyId>) {
    let mut world = World::new(WorldDef {
        enable_sleep: false,
        ..WorldDef::default()
    })
    .unwrap();
    let ground = world
        .create_body(&BodyDef::fixed(Vec2::new(0.0, -1.0)))
        .unwrap();
    world
        .create_shape(
            ground,
            &ShapeDef::default(),
            Polygon::new_box(20.0, 1.0).unwrap().into(),
        )
        .unwrap();
    let boxes = (0..height)
        .map(|i| {
            let b = world
                .create_body(&BodyDef::dynamic(Vec2::new(0.0, 0.5 + i as f32)))
                .unwrap();
            world
                .create_shape(
                    b,
                    &ShapeDef::default(),
                    Polygon::new_box(0.5, 0.5).unwrap().into(),
                )
                .unwrap();
            b
        })
        .collect();
    (world, boxes)
}

fn step(world: &mut World) -> bool {
    world.step(DT).unwrap();
    world.counters().solve_set_reused
}

/// Also the regression test of a bug this found: the narrowphase took the moving body of a
/// contact with static ground for the one that might wake, so it revisited every ground
/// contact in its serial pass each step (and here, rebuilt the set each step).
#[test]
fn a_resting_stack_reuses_its_solve_set() {
    let (mut world, _) = stack(5);
    let reused: Vec<bool> = (0..120).map(|_| step(&mut world)).collect();
    // The first step builds the set; contacts begin touching over the first steps.
    assert!(!reused[0]);
    // At rest, every contact keeps touching: from the second second on, every step reuses.
    assert!(
        reused[60..].iter().all(|&r| r),
        "a resting stack rebuilt its solve set: {reused:?}"
    );
    assert_eq!(world.counters().constraints_solved, 5);
}

#[test]
fn a_new_touch_or_body_rebuilds_the_solve_set() {
    let (mut world, _) = stack(3);
    for _ in 0..60 {
        step(&mut world);
    }
    assert!(step(&mut world));
    // A new moving body changes the solver's bodies: rebuilt once, then reused in flight.
    let ball = world
        .create_body(&BodyDef::dynamic(Vec2::new(0.0, 6.0)))
        .unwrap();
    let shape = world
        .create_shape(
            ball,
            &ShapeDef::default(),
            Circle::new(Vec2::ZERO, 0.25).unwrap().into(),
        )
        .unwrap();
    assert!(!step(&mut world), "a new body must rebuild the set");
    assert!(step(&mut world), "falling, the ball touches nothing new");
    // The step the ball starts touching the stack rebuilds; the set then has one more.
    let mut landed = false;
    for _ in 0..120 {
        let reused = step(&mut world);
        let began = world
            .begin_contact_events()
            .iter()
            .any(|e| e.shape_a == shape || e.shape_b == shape);
        if began {
            assert!(!reused, "a contact began touching, yet the set was reused");
            landed = true;
            break;
        }
    }
    assert!(landed, "the ball never reached the stack");
    assert_eq!(world.counters().constraints_solved, 4);
}

#[test]
fn a_restitution_change_rebuilds_the_solve_set() {
    let (mut world, boxes) = stack(2);
    for _ in 0..60 {
        step(&mut world);
    }
    assert!(step(&mut world));
    let top = world.body_shapes(boxes[1]).unwrap()[0];
    world.set_shape_material(top, 0.6, 0.5).unwrap();
    // Whether any solved contact bounces decides whether the restitution stages run.
    assert!(!step(&mut world));
    assert!(step(&mut world));
}

#[test]
fn destroying_a_body_rebuilds_the_solve_set() {
    let (mut world, boxes) = stack(4);
    for _ in 0..60 {
        step(&mut world);
    }
    assert!(step(&mut world));
    world.destroy_body(boxes[3]).unwrap();
    assert!(!step(&mut world));
    assert_eq!(world.counters().constraints_solved, 3);
}
