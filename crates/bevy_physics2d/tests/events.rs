//! Who hears about which pairs: `CollisionEventsEnabled` gates collision messages as well as
//! observers (as in Avian), kinematic bodies meet static sensors, and a kinematic collider
//! that asks for collision events meets static and kinematic colliders; each touch gives
//! exactly one start and one end, and sensors report what enters and leaves.

mod support;

use bevy_app::prelude::*;
use bevy_ecs::message::MessageCursor;
use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_physics2d::PhysicsBody;
use bevy_physics2d::prelude::*;
use support::app;
use support::ground_20m;
use support::read;
use support::spawn_box;
use support::step;

/// Reads collision messages across calls (a fresh cursor would read again what the last
/// two updates sent).
#[derive(Default)]
struct Listener {
    starts: MessageCursor<CollisionStart>,
    ends: MessageCursor<CollisionEnd>,
}

impl Listener {
    /// Collision messages, both kinds, sent during `steps` steps.
    fn during(&mut self, app: &mut App, steps: u64) -> (Vec<CollisionStart>, Vec<CollisionEnd>) {
        let (mut s, mut e) = (Vec::new(), Vec::new());
        for _ in 0..steps {
            step(app, 1);
            s.extend(read(app, &mut self.starts));
            e.extend(read(app, &mut self.ends));
        }
        (s, e)
    }
}

/// Collision messages sent during `steps` steps of a new listener.
fn collision_messages(app: &mut App, steps: u64) -> (Vec<CollisionStart>, Vec<CollisionEnd>) {
    Listener::default().during(app, steps)
}

fn ground(app: &mut App) -> Entity {
    app.world_mut()
        .spawn((
            RigidBody::Static,
            Collider::rectangle(20.0, 1.0),
            Transform::from_xyz(0.0, -0.5, 0.0),
        ))
        .id()
}

fn ball(app: &mut App) -> Entity {
    app.world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.5),
            Transform::from_xyz(0.0, 2.0, 0.0),
        ))
        .id()
}

#[test]
fn collision_messages_come_only_for_pairs_that_asked() {
    // Neither collider asked: the ball lands in silence.
    let mut app = app();
    ground(&mut app);
    ball(&mut app);
    let (starts, _) = collision_messages(&mut app, 120);
    assert!(starts.is_empty(), "{starts:?}");

    // Either one asking is enough, and the message names the pair once.
    for marked_ground in [false, true] {
        let mut app = support::app();
        let g = ground(&mut app);
        let b = ball(&mut app);
        let marked = if marked_ground { g } else { b };
        app.world_mut()
            .entity_mut(marked)
            .insert(CollisionEventsEnabled);
        let (starts, _) = collision_messages(&mut app, 120);
        assert_eq!(starts.len(), 1, "{starts:?}");
        let pair = [starts[0].collider1, starts[0].collider2];
        assert!(pair.contains(&g) && pair.contains(&b));
    }
}

/// A static sensor zone at the origin and a kinematic box moving through it from x = -5 at
/// 3 m/s.
fn kinematic_crossing(app: &mut App, zone: impl Bundle) -> (Entity, Entity) {
    app.world_mut().resource_mut::<PhysicsSettings>().gravity = Vec2::ZERO;
    let zone = app
        .world_mut()
        .spawn((
            RigidBody::Static,
            Collider::rectangle(1.0, 1.0),
            Transform::default(),
            zone,
        ))
        .id();
    let mover = app
        .world_mut()
        .spawn((
            RigidBody::Kinematic,
            Collider::rectangle(0.5, 0.5),
            Transform::from_xyz(-5.0, 0.0, 0.0),
            LinearVelocity(Vec2::new(3.0, 0.0)),
        ))
        .id();
    (zone, mover)
}

#[test]
fn a_kinematic_body_crossing_a_static_sensor_enters_it_exactly_once() {
    let mut app = app();
    let (sensor, mover) = kinematic_crossing(&mut app, Sensor);
    let (mut entered, mut exited) = (
        MessageCursor::<SensorEntered>::default(),
        MessageCursor::<SensorExited>::default(),
    );
    let (mut e, mut x) = (Vec::new(), Vec::new());
    for _ in 0..240 {
        step(&mut app, 1);
        e.extend(read(&mut app, &mut entered));
        x.extend(read(&mut app, &mut exited));
    }
    assert_eq!(
        e,
        vec![SensorEntered {
            sensor,
            visitor: mover
        }]
    );
    assert_eq!(
        x,
        vec![SensorExited {
            sensor,
            visitor: mover
        }]
    );
}

#[test]
fn a_kinematic_collider_that_asks_meets_static_ones_and_passes_through() {
    let mut app = app();
    let (wall, mover) = kinematic_crossing(&mut app, ());
    app.world_mut()
        .entity_mut(mover)
        .insert(CollisionEventsEnabled);
    let (starts, ends) = collision_messages(&mut app, 240);
    let pair = |a: Entity, b: Entity| (a == wall && b == mover) || (a == mover && b == wall);
    assert_eq!(starts.len(), 1, "{starts:?}");
    assert!(pair(starts[0].collider1, starts[0].collider2));
    assert_eq!(ends.len(), 1, "{ends:?}");
    // Nothing was solved: the kinematic box kept its course through the wall (x = -5 + 3 * 4 s).
    let id = app.world().get::<PhysicsBody>(mover).unwrap().id();
    let physics = app.world().resource::<PhysicsWorld>();
    let x = physics.to_game(physics.core().body_position(id).unwrap()).x;
    assert!((x - 7.0).abs() < 1e-3, "x = {x}");

    // Without the marker the two never pair.
    let mut app = support::app();
    kinematic_crossing(&mut app, ());
    let (starts, _) = collision_messages(&mut app, 240);
    assert!(starts.is_empty());
    assert_eq!(
        app.world()
            .resource::<PhysicsWorld>()
            .core()
            .contact_count(),
        0
    );
}

#[derive(Resource, Default)]
struct Heard(usize);

#[test]
fn ten_no_op_change_notifications_on_a_resting_box_send_nothing_and_keep_its_impulses() {
    let mut app = app();
    let g = ground(&mut app);
    let parent = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(1.0, 1.0),
            CollisionLayers::default(),
            ColliderDensity(1.0),
            CollisionEventsEnabled,
            Transform::from_xyz(0.0, 0.5, 0.0),
        ))
        .id();
    // A second collider on a child entity, placed by its own Transform.
    let part = app
        .world_mut()
        .spawn((
            Collider::rectangle(0.5, 0.5),
            CollisionEventsEnabled,
            Transform::from_xyz(0.0, 0.75, 0.0),
            ChildOf(parent),
        ))
        .id();
    app.init_resource::<Heard>();
    for e in [parent, part] {
        app.world_mut()
            .entity_mut(e)
            .observe(|_: On<CollisionStart>, mut heard: ResMut<Heard>| heard.0 += 1);
        app.world_mut()
            .entity_mut(e)
            .observe(|_: On<CollisionEnd>, mut heard: ResMut<Heard>| heard.0 += 1);
    }
    let mut listener = Listener::default();
    let (starts, _) = listener.during(&mut app, 120);
    assert_eq!(starts.len(), 1, "the box lands once");
    let impulses = |app: &App| {
        let physics = app.world().resource::<PhysicsWorld>();
        let data = physics
            .contact_pair(parent, g)
            .expect("the box rests on the ground");
        data.manifold
            .points()
            .iter()
            .map(|p| (p.normal_impulse, p.tangent_impulse))
            .collect::<Vec<_>>()
    };
    let before = impulses(&app);
    let heard_before = app.world().resource::<Heard>().0;
    for _ in 0..10 {
        let mut entity = app.world_mut().entity_mut(parent);
        entity.get_mut::<Collider>().unwrap().set_changed();
        entity.get_mut::<CollisionLayers>().unwrap().set_changed();
        entity.get_mut::<ColliderDensity>().unwrap().set_changed();
        let mut child = app.world_mut().entity_mut(part);
        child.get_mut::<Collider>().unwrap().set_changed();
        child.get_mut::<Transform>().unwrap().set_changed();
        let (starts, ends) = listener.during(&mut app, 1);
        assert!(starts.is_empty() && ends.is_empty(), "{starts:?} {ends:?}");
    }
    assert_eq!(
        app.world().resource::<Heard>().0,
        heard_before,
        "an observer heard something"
    );
    // At rest the impulses stay what they were, to rounding; a rebuilt contact would start
    // from zero and need steps to carry the box again.
    let after = impulses(&app);
    assert_eq!(before.len(), after.len());
    for ((n0, t0), (n1, t1)) in before.iter().zip(&after) {
        assert!(
            (n0 - n1).abs() <= 1e-5 * n0.abs().max(1e-3),
            "normal {n0} -> {n1}"
        );
        assert!((t0 - t1).abs() <= 1e-5, "tangent {t0} -> {t1}");
    }
}

#[test]
fn a_real_change_keeps_the_contacts_that_still_touch() {
    let mut app = app();
    let g = ground(&mut app);
    let b = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::rectangle(1.0, 1.0),
            CollisionEventsEnabled,
            Transform::from_xyz(0.0, 0.5, 0.0),
        ))
        .id();
    let mut listener = Listener::default();
    listener.during(&mut app, 60);
    // Wider and a different filter that still meets the ground: the same contact.
    *app.world_mut().get_mut::<Collider>(b).unwrap() = Collider::rectangle(3.0, 1.0);
    app.world_mut()
        .entity_mut(b)
        .insert((CollisionLayers::new(2, u64::MAX), ColliderDensity(2.0)));
    let (starts, ends) = listener.during(&mut app, 30);
    assert!(starts.is_empty() && ends.is_empty(), "{starts:?} {ends:?}");
    let physics = app.world().resource::<PhysicsWorld>();
    let id = physics.body(b).unwrap();
    assert!((physics.core().body_mass_data(id).unwrap().mass - 6.0).abs() < 1e-4);
    assert!(physics.contact_pair(b, g).is_some());
    // A filter that leaves the ground out ends the contact, once.
    *app.world_mut().get_mut::<CollisionLayers>(b).unwrap() = CollisionLayers::new(2, 2);
    let (starts, ends) = listener.during(&mut app, 5);
    assert!(starts.is_empty());
    assert_eq!(ends.len(), 1);
}

#[derive(Resource, Default)]
struct Observed(Vec<(bool, Entity, Entity)>);

#[test]
fn each_touch_gives_exactly_one_start_and_one_end() {
    let mut app = app();
    app.init_resource::<Observed>();
    let ground = ground_20m(&mut app);
    let body = spawn_box(&mut app, 0.0, 2.0);
    app.world_mut()
        .entity_mut(body)
        .insert(CollisionEventsEnabled);
    app.world_mut().entity_mut(body).observe(
        |on: On<CollisionStart>, mut seen: ResMut<Observed>| {
            seen.0.push((true, on.collider1, on.collider2));
        },
    );
    app.world_mut()
        .entity_mut(body)
        .observe(|on: On<CollisionEnd>, mut seen: ResMut<Observed>| {
            seen.0.push((false, on.collider1, on.collider2));
        });
    let (mut starts, mut ends) = (
        MessageCursor::<CollisionStart>::default(),
        MessageCursor::<CollisionEnd>::default(),
    );
    let (mut n_start, mut n_end) = (0, 0);
    let mut count = |app: &mut App, n: u64, ns: &mut usize, ne: &mut usize| {
        for _ in 0..n {
            step(app, 1);
            *ns += read(app, &mut starts).len();
            *ne += read(app, &mut ends).len();
        }
    };
    // Fall and rest for two seconds: one start, no end (resting contacts do not flicker).
    count(&mut app, 120, &mut n_start, &mut n_end);
    assert_eq!((n_start, n_end), (1, 0));
    // Throw it up: one end.
    app.world_mut().get_mut::<LinearVelocity>(body).unwrap().0 = bevy_math::Vec2::new(0.0, 8.0);
    count(&mut app, 20, &mut n_start, &mut n_end);
    assert_eq!((n_start, n_end), (1, 1));
    // It falls back: a second start.
    count(&mut app, 120, &mut n_start, &mut n_end);
    assert_eq!((n_start, n_end), (2, 1));
    let seen = &app.world().resource::<Observed>().0;
    assert_eq!(
        seen,
        &vec![
            (true, body, ground),
            (false, body, ground),
            (true, body, ground)
        ],
        "observers on the body see it as collider1"
    );
}

#[test]
fn sensors_report_entering_and_leaving() {
    let mut app = app();
    app.world_mut().resource_mut::<PhysicsSettings>().gravity = bevy_math::Vec2::ZERO;
    let sensor = app
        .world_mut()
        .spawn((
            RigidBody::Static,
            Collider::rectangle(2.0, 2.0),
            Sensor,
            Transform::default(),
        ))
        .id();
    let body = spawn_box(&mut app, -4.0, 0.0);
    app.world_mut().get_mut::<LinearVelocity>(body).unwrap().0 = bevy_math::Vec2::new(4.0, 0.0);
    let (mut entered, mut exited) = (
        MessageCursor::<SensorEntered>::default(),
        MessageCursor::<SensorExited>::default(),
    );
    let (mut e, mut x) = (Vec::new(), Vec::new());
    for _ in 0..120 {
        step(&mut app, 1);
        e.extend(read(&mut app, &mut entered));
        x.extend(read(&mut app, &mut exited));
    }
    assert_eq!(
        e,
        vec![SensorEntered {
            sensor,
            visitor: body
        }]
    );
    assert_eq!(
        x,
        vec![SensorExited {
            sensor,
            visitor: body
        }]
    );
    // The sensor pushed nothing: the box kept its speed.
    assert_eq!(app.world().get::<LinearVelocity>(body).unwrap().0.x, 4.0);
}

#[test]
fn a_fast_impact_is_a_collision_hit() {
    let mut app = app();
    let floor = ground(&mut app);
    let ball = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.25),
            CollisionEventsEnabled,
            Transform::from_xyz(0.0, 5.25, 0.0),
        ))
        .id();
    let mut cursor = MessageCursor::<CollisionHit>::default();
    let mut hits = Vec::new();
    for _ in 0..90 {
        step(&mut app, 1);
        hits.extend(read(&mut app, &mut cursor));
    }
    assert_eq!(hits.len(), 1, "{hits:?}");
    let hit = hits[0];
    let pair = [hit.collider1, hit.collider2];
    assert!(pair.contains(&ball) && pair.contains(&floor));
    // Falling 5 m: sqrt(2 g h) = 10 m/s, within a step's gravity (1/6 m/s).
    assert!((hit.speed - 10.0).abs() < 0.3, "speed {}", hit.speed);
    assert!(hit.point.y.abs() < 0.05);
}
