//! A static body's hierarchy that did not move costs Bevy's transform propagation nothing:
//! the plugin leaves its `Transform`s untouched, so Bevy's static-scene optimisation (in its
//! `multi_threaded` propagation, which this package's tests build, as Bevy's default
//! features do) never marks its tree dirty and skips its children. Rain's ground holds
//! 2,505 child colliders while ragdolls are created, dropped and destroyed around it.

use bevy::app::{App, PluginGroup};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy::transform::TransformSystems;
use bevy::transform::components::TransformTreeChanged;
use bevy_physics2d::PhysicsInterpolationPlugin;
use bevy_physics2d::prelude::*;
use physics2d_demos::{apply_scene_changes, scene, spawn_scene};
use std::time::Duration;

/// Frames in which propagation found the watched tree dirty, and child `GlobalTransform`s
/// it wrote, counted after propagation.
#[derive(Resource, Default)]
struct Watch {
    root: Option<Entity>,
    dirty_frames: usize,
    children_written: usize,
    frames: usize,
}

fn watch(
    mut watch: ResMut<Watch>,
    trees: Query<Ref<TransformTreeChanged>>,
    children: Query<&Children>,
    globals: Query<Ref<GlobalTransform>>,
) {
    let Some(root) = watch.root else { return };
    watch.frames += 1;
    if trees.get(root).is_ok_and(|tree| tree.is_changed()) {
        watch.dirty_frames += 1;
    }
    let written = children
        .get(root)
        .map(|c| {
            c.iter()
                .filter(|e| globals.get(*e).is_ok_and(|g| g.is_changed()))
                .count()
        })
        .unwrap_or(0);
    watch.children_written += written;
}

#[test]
fn rains_ground_is_never_propagated_again_while_ragdolls_fall() {
    let scene = scene("rain").unwrap();
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        bevy::transform::TransformPlugin,
        PhysicsPlugins::default()
            .build()
            .disable::<PhysicsInterpolationPlugin>(),
    ));
    let dt = Duration::from_secs_f32(scene.dt);
    app.insert_resource(Time::<Fixed>::from_duration(dt))
        .insert_resource(TimeUpdateStrategy::ManualDuration(dt))
        .insert_resource(physics2d_demos::scene_settings(&scene))
        .init_resource::<Watch>()
        .add_systems(PostUpdate, watch.after(TransformSystems::Propagate));
    let mut spawned = spawn_scene(&mut app.world_mut().commands(), &scene);
    apply_scene_changes(&mut app.world_mut().commands(), &scene, &mut spawned, 0);
    app.world_mut().flush();
    // The ground: the body with the most child colliders.
    let ground = spawned
        .bodies
        .iter()
        .copied()
        .filter(|e| *e != Entity::PLACEHOLDER)
        .max_by_key(|e| app.world().get::<Children>(*e).map_or(0, |c| c.len()))
        .unwrap();
    let child_count = app.world().get::<Children>(ground).unwrap().len();
    assert_eq!(child_count, 2505);
    for step in 0..120 {
        // The first frames build the world and propagate the ground once; watched after.
        if step == 3 {
            app.world_mut().resource_mut::<Watch>().root = Some(ground);
        }
        app.update();
        apply_scene_changes(
            &mut app.world_mut().commands(),
            &scene,
            &mut spawned,
            step + 1,
        );
        app.world_mut().flush();
    }
    let bodies = app.world().resource::<PhysicsWorld>().core().body_count();
    assert!(bodies > 100, "the ragdolls were created: {bodies} bodies");
    let watch = app.world().resource::<Watch>();
    assert_eq!(watch.frames, 117);
    assert_eq!(watch.dirty_frames, 0, "the ground's tree was marked dirty");
    assert_eq!(
        watch.children_written, 0,
        "the ground's children were propagated"
    );
}
