//! Scenes whose bodies come and go (the timeline of `Scene::groups`): Box2D's rain schedule,
//! and a core world and a plugin App that create and destroy exactly the groups the timeline
//! says, each re-created group starting again from its description.

use bevy::app::TaskPoolPlugin;
use bevy::prelude::*;
use bevy::time::{TimePlugin, TimeUpdateStrategy};
use bevy::transform::TransformPlugin;
use bevy_physics2d::prelude::*;
use bevy_physics2d::{PhysicsInterpolationPlugin, PhysicsSettings, PhysicsWorld};
use physics2d_demos::physics_core::prelude::*;
use physics2d_demos::physics_core::shape::Polygon;
use physics2d_demos::scenes::{
    RAGDOLL_BONES, RAGDOLL_JOINTS, RAIN_COLUMNS, RAIN_DROP_INTERVAL, RAIN_GROUP_SIZE, RAIN_ROWS,
};
use physics2d_demos::{
    BodyDesc, BodyGroup, GroupChange, JointDesc, Scene, ShapeDesc, TimedChange,
    apply_scene_changes, scene, spawn_scene,
};
use std::time::Duration;

/// Bodies in one rain group.
const GROUP_BODIES: usize = RAIN_GROUP_SIZE * RAGDOLL_BONES;

#[test]
fn rain_drops_a_column_every_eight_steps_and_replaces_the_oldest_once_all_are_in() {
    let rain = scene("rain").unwrap();
    assert_eq!(rain.groups.len(), RAIN_ROWS * RAIN_COLUMNS);
    assert_eq!(
        rain.bodies.len(),
        1 + RAIN_ROWS * RAIN_COLUMNS * GROUP_BODIES
    );
    let live = |steps: usize| {
        let present = rain.bodies_present_after(steps);
        present.iter().filter(|p| **p).count() - 1
    };
    // Before any step: nothing but the floors. Step 0 drops the first column, step 8 the next.
    assert_eq!(live(0), 0);
    assert_eq!(live(1), RAIN_ROWS * GROUP_BODIES);
    assert_eq!(live(RAIN_DROP_INTERVAL), RAIN_ROWS * GROUP_BODIES);
    assert_eq!(live(RAIN_DROP_INTERVAL + 1), 2 * RAIN_ROWS * GROUP_BODIES);
    let full = RAIN_ROWS * RAIN_COLUMNS * GROUP_BODIES;
    let all_in = RAIN_COLUMNS * RAIN_DROP_INTERVAL;
    assert_eq!(live(all_in), full);
    // From then on each drop destroys the oldest column before dropping it again.
    assert_eq!(live(all_in + 1), full);
    assert_eq!(live(1000), full);
    let at_first_replacement: Vec<GroupChange> = rain.changes_before(all_in).collect();
    assert_eq!(
        at_first_replacement[..2],
        [GroupChange::Destroy(0), GroupChange::Create(0)]
    );
    assert_eq!(at_first_replacement.len(), 2 * RAIN_ROWS);
    assert_eq!(rain.changes_before(all_in + 1).count(), 0);
}

#[test]
fn a_core_world_holds_the_rain_groups_dropped_so_far() {
    let rain = scene("rain").unwrap();
    let mut built = rain.build(WorldDef::default()).unwrap();
    assert_eq!(built.world.body_count(), 1);
    let steps = 2 * RAIN_DROP_INTERVAL + 1;
    for step in 0..steps {
        built.step_scene(&rain, step).unwrap();
    }
    let groups = 3 * RAIN_ROWS;
    assert_eq!(built.world.body_count(), 1 + groups * GROUP_BODIES);
    assert_eq!(
        built.world.joint_count(),
        groups * RAIN_GROUP_SIZE * RAGDOLL_JOINTS
    );
    // The first column has fallen for 17 steps, the last was dropped before the last step:
    // free fall, so the drop is g t^2 / 2 up to the step's integration.
    let first_pelvis = built.bodies[rain.groups[0].bodies.start];
    let start = rain.bodies[rain.groups[0].bodies.start].position;
    let fallen = start.y - built.world.body_position(first_pelvis).unwrap().y;
    let t = steps as f32 * rain.dt;
    assert!(
        (fallen - 5.0 * t * t).abs() < 0.05,
        "fell {fallen} m in {t} s"
    );
}

/// A small scene with a timeline: a ground, and two groups of a box hanging on a pin from the
/// ground. Group 0 comes at step 0, goes at step 4 and comes back at step 6; group 1 comes at
/// step 2.
fn comings_and_goings() -> Scene {
    let ground = BodyDesc::fixed(
        Vec2::new(0.0, -1.0),
        ShapeDesc::new(Polygon::new_box(10.0, 1.0).unwrap()),
    );
    let hanging = |x: f32| {
        BodyDesc::dynamic(
            Vec2::new(x, 5.0),
            ShapeDesc::new(Polygon::new_box(0.25, 0.25).unwrap()),
        )
        .velocity(Vec2::new(3.0, 0.0))
    };
    let pin = |body: usize, x: f32| {
        JointDesc::at(
            0,
            body,
            Vec2::new(x, 6.0),
            JointKind::Revolute(RevoluteJoint::default()),
        )
    };
    let at = |step: usize, change: GroupChange| TimedChange { step, change };
    Scene {
        name: "comings_and_goings",
        gravity: Vec2::new(0.0, -10.0),
        dt: 1.0 / 60.0,
        steps: 10,
        bodies: vec![ground, hanging(-2.0), hanging(2.0)],
        joints: vec![pin(1, -2.0), pin(2, 2.0)],
        groups: vec![
            BodyGroup {
                bodies: 1..2,
                joints: 0..1,
            },
            BodyGroup {
                bodies: 2..3,
                joints: 1..2,
            },
        ],
        timeline: vec![
            at(0, GroupChange::Create(0)),
            at(2, GroupChange::Create(1)),
            at(4, GroupChange::Destroy(0)),
            at(6, GroupChange::Create(0)),
        ],
    }
}

/// (bodies, joints) the timeline of [`comings_and_goings`] has in the world during step `step`.
fn expected_counts(step: usize) -> (usize, usize) {
    let first = !(4..6).contains(&step);
    let second = step >= 2;
    let groups = usize::from(first) + usize::from(second);
    (1 + groups, groups)
}

#[test]
fn a_core_world_creates_and_destroys_the_groups_when_the_timeline_says() {
    let s = comings_and_goings();
    let mut built = s.build(WorldDef::default()).unwrap();
    for step in 0..8 {
        built.step_scene(&s, step).unwrap();
        let (bodies, joints) = expected_counts(step);
        assert_eq!(built.world.body_count(), bodies, "step {step}");
        assert_eq!(built.world.joint_count(), joints, "step {step}");
        assert_eq!(
            built.world.body_position(built.bodies[1]).is_ok(),
            !(4..6).contains(&step),
            "step {step}: the first group's id"
        );
    }
    // Group 0 came back at step 6 and took two steps from its description: it has swung far
    // less than group 1, which has swung for six.
    let swing = |body: usize| {
        let p = built.world.body_position(built.bodies[body]).unwrap();
        (p - s.bodies[body].position).length()
    };
    assert!(swing(1) < 0.5 * swing(2), "{} {}", swing(1), swing(2));
    assert!(swing(1) > 0.0);
}

#[test]
fn the_plugin_spawns_and_despawns_the_groups_when_the_timeline_says() {
    let s = comings_and_goings();
    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin::default(),
        TimePlugin,
        TransformPlugin,
        PhysicsPlugins::default()
            .build()
            .disable::<PhysicsInterpolationPlugin>(),
    ));
    let dt = Duration::from_secs_f32(s.dt);
    app.insert_resource(Time::<Fixed>::from_duration(dt));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(dt));
    app.insert_resource(PhysicsSettings {
        gravity: s.gravity,
        ..PhysicsSettings::default()
    });
    let mut spawned = spawn_scene(&mut app.world_mut().commands(), &s);
    app.world_mut().flush();
    app.update();
    for step in 0..8 {
        apply_scene_changes(&mut app.world_mut().commands(), &s, &mut spawned, step);
        app.world_mut().flush();
        let before = app.world().resource::<PhysicsWorld>().step_count();
        while app.world().resource::<PhysicsWorld>().step_count() == before {
            app.update();
        }
        let core = app.world().resource::<PhysicsWorld>().core();
        let (bodies, joints) = expected_counts(step);
        assert_eq!(core.body_count(), bodies, "step {step}");
        assert_eq!(core.joint_count(), joints, "step {step}");
        let rigid_bodies = app
            .world_mut()
            .query::<&RigidBody>()
            .iter(app.world())
            .count();
        assert_eq!(rigid_bodies, bodies, "step {step}: entities");
    }
}
