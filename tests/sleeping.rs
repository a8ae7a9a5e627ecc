//! Islands at rest fall asleep, wake when touched, and cost (nearly) nothing while asleep.

use physics2d_demos::physics_core::prelude::*;
use physics2d_demos::scene;
use physics2d_demos::scenes::pyramid_boxes;

/// Steps `world` until every body sleeps, at most `max` steps: the index of the step after
/// which none was awake.
fn steps_until_asleep(world: &mut World, dt: f32, max: usize) -> Option<usize> {
    (0..max).find(|_| {
        world.step(dt).unwrap();
        world.awake_body_count() == 0
    })
}

#[test]
fn settled_pyramid_sleeps_and_a_dropped_ball_wakes_it() {
    let s = scene("pyramid").unwrap();
    let mut built = s.build(WorldDef::default()).unwrap();
    let slept_at =
        steps_until_asleep(&mut built.world, s.dt, 600).expect("the pyramid slept within 10 s");
    // It needs 0.5 s of rest after settling.
    assert!(slept_at >= 30, "asleep after only {slept_at} steps");
    let positions: Vec<Vec2> = built
        .bodies
        .iter()
        .map(|b| built.world.body_position(*b).unwrap())
        .collect();

    // A ball dropped on the top box wakes the pyramid's island.
    let top = *built.bodies.last().unwrap();
    let above = built.world.body_position(top).unwrap() + Vec2::new(0.0, 3.0);
    let ball = built.world.create_body(&BodyDef::dynamic(above)).unwrap();
    built
        .world
        .create_shape(
            ball,
            &ShapeDef::default(),
            Circle::new(Vec2::ZERO, 0.3).unwrap().into(),
        )
        .unwrap();
    let mut woken = 0;
    for _ in 0..60 {
        built.world.step(s.dt).unwrap();
        woken = woken.max(built.world.awake_body_count());
    }
    assert!(woken > 100, "only {woken} bodies woke when the ball landed");
    // Asleep, nothing moved.
    let moved = positions
        .iter()
        .zip(&built.bodies)
        .map(|(p, b)| p.distance(built.world.body_position(*b).unwrap()))
        .fold(0.0f32, f32::max);
    assert!(moved < 0.05, "a box moved {moved} m");
}

#[test]
fn a_hundred_sleeping_pyramids_cost_almost_nothing() {
    let mut s = scene("pyramid").unwrap();
    s.bodies.truncate(1);
    for k in 0..100 {
        let x = -95.0 + 2.0 * 0.5 * 6.0 * (k % 30) as f32;
        // Rows of pyramids on the one ground; each base 5 (15 boxes).
        let boxes = pyramid_boxes(5, Vec2::new(x, 0.0));
        if k < 30 {
            s.bodies.extend(boxes);
        } else {
            // Stack further rows on small static shelves so every pyramid rests on something.
            let shelf_y = 6.0 * (k / 30) as f32;
            let mut shelf = s.bodies[0].clone();
            shelf.position = Vec2::new(x + 0.0, shelf_y - 0.25);
            shelf.shapes = vec![physics2d_demos::ShapeDesc::new(
                Polygon::new_box(3.0, 0.25).unwrap(),
            )];
            s.bodies.push(shelf);
            s.bodies.extend(pyramid_boxes(5, Vec2::new(x, shelf_y)));
        }
    }
    let work = |w: &World| {
        let c = w.counters();
        c.bodies_solved + c.constraints_solved + c.manifolds_updated + c.proxies_queried
    };
    let mut awake = s
        .build(WorldDef {
            enable_sleep: false,
            ..Default::default()
        })
        .unwrap();
    let mut sleepy = s.build(WorldDef::default()).unwrap();
    for _ in 0..300 {
        awake.world.step(s.dt).unwrap();
        sleepy.world.step(s.dt).unwrap();
    }
    assert_eq!(
        sleepy.world.awake_body_count(),
        0,
        "some pyramids are still awake"
    );
    let (mut awake_work, mut asleep_work) = (0, 0);
    for _ in 0..10 {
        awake.world.step(s.dt).unwrap();
        sleepy.world.step(s.dt).unwrap();
        awake_work += work(&awake.world);
        asleep_work += work(&sleepy.world);
    }
    assert!(
        awake_work > 1000,
        "awake pyramids did {awake_work} units of work"
    );
    assert!(
        asleep_work * 20 <= awake_work,
        "asleep {asleep_work} vs awake {awake_work}: less than 20x cheaper"
    );
}

#[test]
fn pushing_a_sleeping_body_wakes_it_and_can_sleep_false_never_sleeps() {
    let (mut w, boxes) = boxes_on_the_ground(&[0.0]);
    let b = boxes[0];
    let restless = w
        .create_body(&BodyDef {
            can_sleep: false,
            ..BodyDef::dynamic(Vec2::new(3.0, 0.5))
        })
        .unwrap();
    w.create_shape(
        restless,
        &ShapeDef::default(),
        Polygon::new_box(0.5, 0.5).unwrap().into(),
    )
    .unwrap();
    for _ in 0..120 {
        w.step(1.0 / 60.0).unwrap();
    }
    assert!(!w.is_awake(b).unwrap());
    assert!(w.is_awake(restless).unwrap());
    w.apply_linear_impulse(b, Vec2::new(2.0, 0.0)).unwrap();
    assert!(w.is_awake(b).unwrap());
    w.step(1.0 / 60.0).unwrap();
    assert!(w.linear_velocity(b).unwrap().x > 1.0);
    // Putting it to sleep by hand stops it where it is.
    w.set_awake(b, false).unwrap();
    let p = w.body_position(b).unwrap();
    w.step(1.0 / 60.0).unwrap();
    assert_eq!(w.body_position(b).unwrap(), p);
}

/// A world with a static floor 200 m wide whose top is at y = 0; returns the floor's shape.
fn world_with_floor() -> (World, ShapeId) {
    let mut w = World::new(WorldDef::default()).unwrap();
    let ground = w
        .create_body(&BodyDef::fixed(Vec2::new(0.0, -0.5)))
        .unwrap();
    let floor = Polygon::new_box(100.0, 0.5).unwrap().into();
    let floor = w.create_shape(ground, &ShapeDef::default(), floor).unwrap();
    (w, floor)
}

/// A dynamic unit box centred at `p`, created awake or asleep.
fn unit_box(w: &mut World, p: Vec2, awake: bool) -> BodyId {
    let def = BodyDef {
        awake,
        ..BodyDef::dynamic(p)
    };
    let b = w.create_body(&def).unwrap();
    let shape = Polygon::new_box(0.5, 0.5).unwrap().into();
    w.create_shape(b, &ShapeDef::default(), shape).unwrap();
    b
}

/// A floor and awake unit boxes resting on it at `xs`.
fn boxes_on_the_ground(xs: &[f32]) -> (World, Vec<BodyId>) {
    let (mut w, _) = world_with_floor();
    let boxes = xs
        .iter()
        .map(|&x| unit_box(&mut w, Vec2::new(x, 0.5), true))
        .collect();
    (w, boxes)
}

#[test]
fn a_body_poked_every_step_keeps_its_island_awake_until_left_alone() {
    // Poking an awake body does not walk its island any more (its island is awake by
    // definition); it only restarts that body's sleep timer. The least rested body decides
    // for the island, so that alone must keep the whole pyramid awake.
    let s = scene("pyramid").unwrap();
    let mut built = s.build(WorldDef::default()).unwrap();
    let top = *built.bodies.last().unwrap();
    // The scene's first body is its static ground; the next is a bottom-row box.
    let bottom = built.bodies[1];
    assert_eq!(built.world.body_type(bottom).unwrap(), BodyType::Dynamic);
    for _ in 0..300 {
        built.world.set_awake(top, true).unwrap();
        built.world.step(s.dt).unwrap();
    }
    assert!(
        built.world.is_awake(bottom).unwrap(),
        "5 s in, well settled, but the top box was poked every step"
    );
    let slept_after = steps_until_asleep(&mut built.world, s.dt, 120);
    // time_to_sleep is 0.5 s, 30 steps at 60 Hz of a pyramid at rest: one step came after
    // the last poke in the loop above, and step k here is the (k + 2)-th, so k = 28 (29 if
    // the summed time steps fall a rounding short of 0.5 s).
    let slept_after = slept_after.expect("left alone, the settled pyramid sleeps");
    assert!(
        (28..=29).contains(&slept_after),
        "slept {slept_after} steps after the last poke"
    );
}

#[test]
fn waking_does_not_cross_a_disabled_joint() {
    // A disabled joint links no island when bodies fall asleep, so it must not carry waking
    // either: only an enabled one does.
    let (mut w, boxes) = boxes_on_the_ground(&[-2.0, 2.0]);
    let (a, b) = (boxes[0], boxes[1]);
    // A rigid rod between the centres, at the length they rest apart.
    let rod = JointKind::Distance(DistanceJoint::rigid(4.0));
    let joint = w
        .create_joint(&JointDef::new(a, b, Vec2::ZERO, Vec2::ZERO, rod))
        .unwrap();
    w.set_joint_enabled(joint, false).unwrap();
    for _ in 0..120 {
        w.step(1.0 / 60.0).unwrap();
    }
    assert_eq!(w.awake_body_count(), 0, "both boxes rest and sleep");
    w.set_awake(a, true).unwrap();
    assert!(w.is_awake(a).unwrap());
    assert!(!w.is_awake(b).unwrap(), "woken through a disabled joint");
    assert_eq!(w.awake_body_count(), 1);

    w.set_awake(a, false).unwrap();
    w.set_joint_enabled(joint, true).unwrap();
    assert_eq!(
        w.awake_body_count(),
        2,
        "enabling the joint wakes both ends"
    );
    for _ in 0..120 {
        w.step(1.0 / 60.0).unwrap();
    }
    assert_eq!(w.awake_body_count(), 0, "at rest together, asleep together");
    w.set_awake(b, true).unwrap();
    assert_eq!(w.awake_body_count(), 2, "an enabled joint carries waking");
}

#[test]
fn a_joint_from_an_awake_body_wakes_the_sleeping_one_and_two_sleepers_stay_asleep() {
    // Waking relies on an awake body's island holding no sleeping body, so a joint that links
    // an awake body to a sleeping one must wake the sleeper's island at once.
    let (mut w, boxes) = boxes_on_the_ground(&[-4.0, -2.0, 2.0, 4.0]);
    for _ in 0..120 {
        w.step(1.0 / 60.0).unwrap();
    }
    assert_eq!(w.awake_body_count(), 0, "all four rest and sleep");
    let rod = |w: &mut World, a: BodyId, b: BodyId| {
        let kind = JointKind::Distance(DistanceJoint::rigid(2.0));
        w.create_joint(&JointDef::new(a, b, Vec2::ZERO, Vec2::ZERO, kind))
            .unwrap()
    };
    rod(&mut w, boxes[0], boxes[1]);
    assert_eq!(w.awake_body_count(), 0, "two sleepers joined stay asleep");
    w.set_awake(boxes[2], true).unwrap();
    rod(&mut w, boxes[2], boxes[3]);
    assert!(w.is_awake(boxes[3]).unwrap(), "joined to an awake body");
    assert_eq!(w.awake_body_count(), 2);
}

#[test]
fn removing_the_ground_shape_wakes_what_slept_on_it_even_if_built_asleep() {
    // Bodies built asleep never had a touching contact, so they are not the ground's island;
    // their contacts with the destroyed shape still name them, and they must fall.
    let (mut w, floor) = world_with_floor();
    let sleepers: Vec<BodyId> = [-2.0, 2.0]
        .iter()
        .map(|&x| unit_box(&mut w, Vec2::new(x, 0.5), false))
        .collect();
    for _ in 0..10 {
        w.step(1.0 / 60.0).unwrap();
    }
    assert_eq!(w.awake_body_count(), 0, "built asleep, they stay asleep");
    w.destroy_shape(floor).unwrap();
    for &b in &sleepers {
        assert!(w.is_awake(b).unwrap(), "the floor under it went");
    }
    for _ in 0..30 {
        w.step(1.0 / 60.0).unwrap();
    }
    for &b in &sleepers {
        assert!(w.body_position(b).unwrap().y < 0.0, "it fell");
    }
}

#[test]
fn poking_one_body_of_a_large_awake_pile_walks_no_island() {
    // A force, velocity or teleport wakes the body's island; an awake island needs no walk.
    // When each poke walked the island, 1000 pokes of one box in a pile of 2,025 cost more
    // than a whole step of the pile (which visits every body and contact several times).
    let side = 45;
    let (mut w, _) = world_with_floor();
    let boxes: Vec<BodyId> = (0..side * side)
        .map(|i| {
            let p = Vec2::new((i % side) as f32, (i / side) as f32 + 0.5);
            unit_box(&mut w, p, true)
        })
        .collect();
    for _ in 0..5 {
        w.step(1.0 / 60.0).unwrap();
    }
    assert!(
        w.touching_contact_count() > 3 * side * side / 2,
        "one pile: the boxes touch their neighbours"
    );
    // Counted, not timed: the pokes walk no island at all (each body of the pile is awake),
    // where a walk per poke would visit the whole pile a thousand times.
    let before = w.island_flood_visits();
    for k in 0..1000 {
        w.apply_force(boxes[k % boxes.len()], Vec2::new(0.0, 1.0))
            .unwrap();
    }
    assert_eq!(
        w.island_flood_visits(),
        before,
        "1000 pokes of an awake pile walked its island"
    );
    // Asleep, the first poke wakes the pile with one walk over it (each body once, plus a
    // look along each of its contacts), and the pokes after it walk nothing.
    w.set_awake(boxes[0], false).unwrap();
    assert_eq!(
        w.awake_body_count(),
        0,
        "the pile fell asleep as one island"
    );
    let before = w.island_flood_visits();
    w.apply_force(boxes[7], Vec2::new(0.0, 1.0)).unwrap();
    let walked = w.island_flood_visits() - before;
    let n = boxes.len() as u64;
    assert!(
        walked >= n && walked < 8 * n,
        "waking {n} boxes visited {walked}"
    );
    let before = w.island_flood_visits();
    for k in 0..1000 {
        w.apply_force(boxes[k % boxes.len()], Vec2::new(0.0, 1.0))
            .unwrap();
    }
    assert_eq!(w.island_flood_visits(), before);
}

/// Regression: a body fell asleep half pushed out of an overlap. The soft step moves a body
/// by its contacts' push and then relaxes the push out of its velocity, so the sleep test,
/// which read the velocity alone, saw a body being pushed out as resting and put it to sleep
/// after `time_to_sleep`, however deep it still was. A ball of radius 1.5 m sunk 1 m into
/// the floor and pushed out at 0.5 m/s needs 2 s, four times `time_to_sleep`: it fell asleep
/// 0.75 m deep and stayed there. It must now rise to rest on the floor (within 1 mm: the soft
/// contact's sag is a few hundredths of a millimetre) and only then sleep.
#[test]
fn regression_a_body_fell_asleep_half_pushed_out_of_an_overlap() {
    let (mut w, _) = world_with_floor();
    w.set_def(WorldDef {
        max_contact_push_speed: 0.5,
        ..*w.def()
    })
    .unwrap();
    let ball = w
        .create_body(&BodyDef::dynamic(Vec2::new(0.0, 0.5)))
        .unwrap();
    let shape = Circle::new(Vec2::ZERO, 1.5).unwrap().into();
    w.create_shape(ball, &ShapeDef::default(), shape).unwrap();
    let dt = 1.0 / 60.0;
    let slept_at = steps_until_asleep(&mut w, dt, 600).expect("the ball slept within 10 s");
    let y = w.body_position(ball).unwrap().y;
    assert!((y - 1.5).abs() < 1e-3, "asleep at y = {y}, its rest is 1.5");
    // The push takes 2 s (120 steps) and rest another 0.5 s.
    assert!(slept_at >= 150, "asleep after only {slept_at} steps");
}
