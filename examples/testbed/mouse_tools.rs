//! The mouse: drag a dynamic body with a mouse joint (left), spawn a box or a ball (right),
//! zoom about the cursor (wheel), pan (middle drag).

use crate::panels::PointerOverPanel;
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll, MouseScrollUnit};
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
    let Some(point) = cursor_world(&window, *camera) else {
        return;
    };
    if buttons.just_released(MouseButton::Left) {
        for (entity, _) in &grabs {
            commands.entity(entity).despawn();
        }
        return;
    }
    if buttons.pressed(MouseButton::Left) {
        for (_, mut joint) in &mut grabs {
            joint.set_target(point);
        }
    }
    if !buttons.just_pressed(MouseButton::Left) || over_panel.0 {
        return;
    }
    let core = physics.core();
    let grabbed = core
        .query_point(point, &QueryFilter::default())
        .into_iter()
        .filter_map(|shape| core.shape_body(shape).ok())
        .find(|&body| core.body_type(body) == Ok(BodyType::Dynamic));
    let Some(body) = grabbed else {
        return;
    };
    let (Some(entity), Ok(mass)) = (physics.body_entity(body), core.body_mass_data(body)) else {
        return;
    };
    commands.spawn((
        SceneEntity,
        MouseGrab,
        Joint::mouse(entity, point).with_max_force(1000.0 * mass.mass),
    ));
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
    motion: Res<AccumulatedMouseMotion>,
    buttons: Res<ButtonInput<MouseButton>>,
    over_panel: Res<PointerOverPanel>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform, &mut Transform, &mut Projection)>,
) {
    let (camera, global, mut transform, mut projection) = camera.into_inner();
    let Projection::Orthographic(ortho) = projection.as_mut() else {
        return;
    };
    if buttons.pressed(MouseButton::Middle) {
        // Screen y grows downwards, world y upwards.
        let delta = motion.delta * ortho.scale;
        transform.translation += Vec3::new(-delta.x, delta.y, 0.0);
    }
    let notches = match scroll.unit {
        MouseScrollUnit::Line => scroll.delta.y,
        MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
    };
    if notches == 0.0 || over_panel.0 {
        return;
    }
    let before = cursor_world(&window, (camera, global));
    let factor = 1.15f32.powf(-notches);
    ortho.scale = (ortho.scale * factor).clamp(0.0005, 20.0);
    // Keep the world point under the cursor where it was: the offset from the camera centre
    // scales with the zoom.
    if let Some(before) = before {
        let centre = transform.translation.truncate();
        let after = before + (centre - before) * factor;
        transform.translation = after.extend(transform.translation.z);
    }
}
