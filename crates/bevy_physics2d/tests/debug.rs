//! The debug overlay: no work while it is off, and hidden colliders left out.

mod support;

use bevy_app::prelude::*;
use bevy_physics2d::prelude::*;
use support::app;
use support::ground_20m;
use support::spawn_box;
use support::step;

#[test]
fn debug_overlay_does_no_work_while_disabled() {
    use bevy_gizmos::config::GizmoConfigStore;
    let mut app = app();
    app.add_plugins((
        bevy_asset::AssetPlugin::default(),
        bevy_mesh::MeshPlugin,
        bevy_gizmos::GizmoPlugin,
        PhysicsDebugPlugin::default(),
    ));
    ground_20m(&mut app);
    spawn_box(&mut app, 0.0, 2.0);
    step(&mut app, 2);
    let drawn = app
        .world()
        .resource::<bevy_physics2d::PhysicsDebugStats>()
        .primitives;
    assert!(drawn >= 2, "two shapes drawn when enabled: {drawn}");
    app.world_mut()
        .resource_mut::<GizmoConfigStore>()
        .config_mut::<PhysicsGizmos>()
        .0
        .enabled = false;
    step(&mut app, 2);
    assert_eq!(
        app.world()
            .resource::<bevy_physics2d::PhysicsDebugStats>()
            .primitives,
        0
    );
    // Parts switch separately: boxes add one primitive per shape.
    {
        let mut store = app.world_mut().resource_mut::<GizmoConfigStore>();
        let (config, parts) = store.config_mut::<PhysicsGizmos>();
        config.enabled = true;
        parts.aabbs = true;
    }
    step(&mut app, 1);
    let with_boxes = app
        .world()
        .resource::<bevy_physics2d::PhysicsDebugStats>()
        .primitives;
    assert!(with_boxes >= drawn + 2, "{with_boxes} vs {drawn}");
}

#[test]
fn a_hidden_collider_is_left_out_of_the_overlay() {
    let mut app = app();
    app.add_plugins((
        bevy_asset::AssetPlugin::default(),
        bevy_mesh::MeshPlugin,
        bevy_gizmos::GizmoPlugin,
        PhysicsDebugPlugin::default(),
    ));
    ground_20m(&mut app);
    let boxed = spawn_box(&mut app, 0.0, 2.0);
    step(&mut app, 2);
    let primitives = |app: &App| {
        app.world()
            .resource::<bevy_physics2d::PhysicsDebugStats>()
            .primitives
    };
    let drawn = primitives(&app);
    app.world_mut()
        .entity_mut(boxed)
        .insert(DebugRender::hidden());
    step(&mut app, 1);
    assert_eq!(primitives(&app), drawn - 1, "the box is no longer drawn");
    // A colour of its own draws it again.
    app.world_mut()
        .entity_mut(boxed)
        .insert(DebugRender::collider(bevy_color::Color::WHITE));
    step(&mut app, 1);
    assert_eq!(primitives(&app), drawn);
}
