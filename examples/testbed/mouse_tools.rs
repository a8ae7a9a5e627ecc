//! The mouse: drag a dynamic body with a mouse joint (left), spawn a box or a ball (right),
//! zoom about the cursor (wheel), pan (middle drag).

use crate::panels::PointerOverPanel;
use bevy::input::mouse::{AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_physics2d::physics_core::body::BodyType;
use bevy_physics2d::physics_core::world::QueryFilter;
use bevy_physics2d::prelude::*;
use physics2d_demos::SceneEntity;

/// The joint of the body being dragged.
#[derive(Component)]
pub struct MouseGrab;

/// The cursor in world coordinates, when it is over the window.
fn cursor_world(window: &Window, camera: (&Camera, &GlobalTransform)) -> Option<Vec2> {
    let cursor = window.cursor_position()?;
    camera.0.viewport_to_world_2d(camera.1, cursor).ok()
}

/// Left button: grab the dynamic body under the cursor, pull it while the button is held,
/// let go on release. The joint's pull is capped at a thousand times the body's weight per
/// unit gravity, enough to lift it briskly without flinging the stack it sits in.
pub fn drag_bodies(
    mut commands: Commands,
    buttons: Res<ButtonInput<MouseButton>>,
    over_panel: Res<PointerOverPanel>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform)>,
    physics: Res<PhysicsWorld>,
    mut grabs: Query<(Entity, &mut Joint), With<MouseGrab>>,
) {
    // Let go first: the button may be released outside the window.
    if buttons.just_released(MouseButton::Left) {
        for (entity, _) in &grabs {
            commands.entity(entity).despawn();
        }
        return;
    }
    let Some(point) = cursor_world(&window, *camera) else {
        return;
    };
    if buttons.pressed(MouseButton::Left) {
        for (_, mut joint) in &mut grabs {
            joint.set_target(point).expect("grabs are mouse joints");
        }
    }
    if !buttons.just_pressed(MouseButton::Left) || over_panel.0 || !grabs.is_empty() {
        return;
    }
    let Some((entity, mass)) = dynamic_body_at(&physics, point) else {
        return;
    };
    commands.spawn((
        SceneEntity,
        MouseGrab,
        Joint::mouse(entity, point).with_max_force(1000.0 * mass),
    ));
}

/// The dynamic body with a collider containing `point`, and its mass.
pub fn dynamic_body_at(physics: &PhysicsWorld, point: Vec2) -> Option<(Entity, f32)> {
    let core = physics.core();
    let body = core
        .query_point(point, &QueryFilter::default())
        .into_iter()
        .filter_map(|shape| core.shape_body(shape).ok())
        .find(|&body| core.body_type(body) == Ok(BodyType::Dynamic))?;
    Some((
        physics.body_entity(body)?,
        core.body_mass_data(body).ok()?.mass,
    ))
}

/// Right click: a box, then a ball, and so on, dropped at the cursor.
pub fn spawn_at_cursor(
    mut commands: Commands,
    buttons: Res<ButtonInput<MouseButton>>,
    over_panel: Res<PointerOverPanel>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform)>,
    mut count: Local<u32>,
) {
    if !buttons.just_pressed(MouseButton::Right) || over_panel.0 {
        return;
    }
    let Some(point) = cursor_world(&window, *camera) else {
        return;
    };
    *count += 1;
    let collider = if *count % 2 == 1 {
        Collider::rectangle(1.0, 1.0)
    } else {
        Collider::circle(0.5)
    };
    commands.spawn((
        SceneEntity,
        RigidBody::Dynamic,
        collider,
        Transform::from_translation(point.extend(0.0)),
    ));
}

/// Wheel: zoom about the cursor, so the point under it stays put. Middle drag: pan.
pub fn zoom_and_pan(
    scroll: Res<AccumulatedMouseScroll>,
    buttons: Res<ButtonInput<MouseButton>>,
    mut last_cursor: Local<Option<Vec2>>,
    over_panel: Res<PointerOverPanel>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform, &mut Transform, &mut Projection)>,
) {
    let (camera, global, mut transform, mut projection) = camera.into_inner();
    let Projection::Orthographic(ortho) = projection.as_mut() else {
        return;
    };
    // Pan by how far the cursor moved on screen, so the scene stays under it (raw mouse
    // motion would ignore pointer acceleration). Screen y grows downwards, world y upwards.
    let cursor = window.cursor_position();
    if buttons.pressed(MouseButton::Middle)
        && let (Some(now), Some(before)) = (cursor, *last_cursor)
    {
        let delta = (now - before) * ortho.scale;
        transform.translation += Vec3::new(-delta.x, delta.y, 0.0);
    }
    *last_cursor = cursor;
    let notches = match scroll.unit {
        MouseScrollUnit::Line => scroll.delta.y,
        MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
    };
    if notches == 0.0 || over_panel.0 {
        return;
    }
    let before = cursor_world(&window, (camera, global));
    let old_scale = ortho.scale;
    ortho.scale = (old_scale * 1.15f32.powf(-notches)).clamp(0.0005, 20.0);
    let factor = ortho.scale / old_scale;
    if let Some(before) = before {
        let centre = zoom_about(transform.translation.truncate(), before, factor);
        transform.translation = centre.extend(transform.translation.z);
    }
}

/// The camera centre after zooming by `factor` (new scale / old scale) about the world point
/// `cursor`, which stays under the cursor: its offset from the centre scales with the zoom.
pub fn zoom_about(centre: Vec2, cursor: Vec2, factor: f32) -> Vec2 {
    cursor + (centre - cursor) * factor
}
