//! [`PhysicsPickingPlugin`]: a `bevy_picking` backend for colliders, so pointers hover, click
//! and drag anything with a collider (`Pointer<Click>` observers on collider entities, or on
//! their bodies through event bubbling). Feature `picking`.

use crate::spatial_query::query::{SpatialQuery, SpatialQueryFilter};
use bevy_app::{App, Plugin, PreUpdate};
use bevy_camera::Camera;
use bevy_ecs::prelude::*;
use bevy_math::{Ray3d, Vec3};
use bevy_picking::backend::prelude::*;
use bevy_reflect::prelude::*;

/// Picks colliders under pointers: the ray of each pointer through each active camera meets
/// the world's plane (z = 0) and every collider containing that point is a hit, sensors
/// included. Add Bevy's picking plugins (part of `DefaultPlugins`) and this.
///
/// ```
/// use bevy_physics2d::prelude::*;
/// use bevy_physics2d::PhysicsPickingPlugin;
/// use bevy_ecs::prelude::*;
/// use bevy_picking::events::{Click, Pointer};
///
/// fn spawn(mut commands: Commands) {
///     commands
///         .spawn((RigidBody::Dynamic, Collider::circle(0.5)))
///         .observe(|click: On<Pointer<Click>>, mut commands: Commands| {
///             commands.entity(click.entity).despawn();
///         });
/// }
/// # fn build(app: &mut bevy_app::App) { app.add_plugins(PhysicsPickingPlugin); }
/// # bevy_ecs::system::assert_is_system(spawn);
/// ```
#[derive(Default)]
pub struct PhysicsPickingPlugin;

/// What the physics picking backend looks at.
#[derive(Resource, Clone, Debug, Default, Reflect)]
#[reflect(Resource, Default)]
pub struct PhysicsPickingSettings {
    /// Only cameras with [`PhysicsPickingCamera`] pick colliders.
    pub require_camera_marker: bool,
    /// Only colliders in these layers are picked (all when `None`).
    pub mask: Option<u64>,
}

/// Marks a camera that picks colliders when
/// [`PhysicsPickingSettings::require_camera_marker`] is set.
#[derive(Component, Clone, Copy, Debug, Default, Reflect)]
#[reflect(Component, Default)]
pub struct PhysicsPickingCamera;

impl Plugin for PhysicsPickingPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<PhysicsPickingSettings>()
            .register_type::<PhysicsPickingSettings>()
            .register_type::<PhysicsPickingCamera>()
            .add_systems(PreUpdate, pick_colliders.in_set(PickingSystems::Backend));
    }
}

/// Where a pointer's ray meets the plane z = 0, and how far along the ray that is; `None`
/// for a ray parallel to the plane or pointing away from it.
fn plane_hit(ray: &Ray3d) -> Option<(Vec3, f32)> {
    let dz = ray.direction.z;
    if dz.abs() < 1e-6 {
        return None;
    }
    let depth = -ray.origin.z / dz;
    (depth >= 0.0).then(|| (ray.origin + depth * *ray.direction, depth))
}

/// The picking backend: one `PointerHits` per pointer and camera whose ray finds colliders.
fn pick_colliders(
    rays: Res<RayMap>,
    cameras: Query<(&Camera, Has<PhysicsPickingCamera>)>,
    settings: Res<PhysicsPickingSettings>,
    query: SpatialQuery,
    mut hits: MessageWriter<PointerHits>,
) {
    let mut filter = SpatialQueryFilter {
        include_sensors: true,
        ..Default::default()
    };
    filter.mask = settings.mask;
    for (ray_id, ray) in rays.iter() {
        let Ok((camera, marked)) = cameras.get(ray_id.camera) else {
            continue;
        };
        if !camera.is_active || (settings.require_camera_marker && !marked) {
            continue;
        }
        let Some((point, depth)) = plane_hit(ray) else {
            continue;
        };
        let picks: Vec<(Entity, HitData)> = query
            .point_intersections(point.truncate(), &filter)
            .into_iter()
            .map(|collider| {
                let data = HitData::new(ray_id.camera, depth, Some(point), Some(Vec3::Z));
                (collider, data)
            })
            .collect();
        if !picks.is_empty() {
            hits.write(PointerHits::new(ray_id.pointer, picks, camera.order as f32));
        }
    }
}
