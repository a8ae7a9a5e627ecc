//! [`PhysicsDebugPlugin`]: the physics world drawn with gizmos under its own config group,
//! [`PhysicsGizmos`], whose parts switch on and off at run time.
//!
//! ```
//! use bevy_physics2d::prelude::*;
//! use bevy_gizmos::config::GizmoConfigStore;
//! use bevy_ecs::prelude::*;
//!
//! // F1 in the examples: the whole overlay on or off, and contact points on.
//! fn toggle(mut store: ResMut<GizmoConfigStore>) {
//!     let (config, physics) = store.config_mut::<PhysicsGizmos>();
//!     config.enabled = !config.enabled;
//!     physics.contacts = true;
//! }
//! # bevy_ecs::system::assert_is_system(toggle);
//! ```

use crate::world::physics_world::PhysicsWorld;
use bevy_app::{App, Plugin, PostUpdate};
use bevy_color::{Color, Srgba};
use bevy_ecs::prelude::*;
use bevy_gizmos::AppGizmoBuilder;
use bevy_gizmos::config::{GizmoConfigGroup, GizmoConfigStore};
use bevy_gizmos::gizmos::Gizmos;
use bevy_math::Vec2;
use bevy_reflect::prelude::*;
use physics_core::debug_draw::{DebugColor, DebugDraw, DebugDrawOptions};
use physics_core::id::ShapeId;
use std::collections::HashMap;

/// Draws the physics world with gizmos (needs Bevy's gizmo plugin, part of `DefaultPlugins`).
#[derive(Default)]
pub struct PhysicsDebugPlugin {
    /// The parts drawn at start; change them later through [`GizmoConfigStore`].
    pub gizmos: PhysicsGizmos,
}

/// The debug overlay's gizmo group: which parts are drawn, and their colours. The group's
/// `GizmoConfig::enabled` switches the whole overlay.
#[derive(Clone, Debug, Reflect, GizmoConfigGroup)]
#[reflect(Default)]
pub struct PhysicsGizmos {
    /// Shape outlines, coloured by body type and sleep state.
    pub shapes: bool,
    /// Broadphase bounding boxes.
    pub aabbs: bool,
    /// Contact points and normals.
    pub contacts: bool,
    /// Normal impulses along the normals.
    pub contact_impulses: bool,
    /// Joint anchors, axes and limits.
    pub joints: bool,
    /// Centres of mass with their axes.
    pub centers_of_mass: bool,
    /// Sleeping bodies in their own colour; off, they look like awake dynamic bodies.
    pub sleep_colors: bool,
    /// Length of normals and axes, in world units.
    pub axis_length: f32,
    /// Length per unit of normal impulse.
    pub impulse_scale: f32,
    /// Colours: static, kinematic, dynamic, sleeping, sensor shapes.
    pub body_colors: [Color; 5],
    /// Colours: boxes, contact points, speculative points, normals, impulses, joints, joint
    /// axes, centres of mass.
    pub detail_colors: [Color; 8],
}

impl Default for PhysicsGizmos {
    fn default() -> Self {
        let c = |hex: &str| Color::Srgba(Srgba::hex(hex).unwrap_or(Srgba::WHITE));
        PhysicsGizmos {
            shapes: true,
            aabbs: false,
            contacts: false,
            contact_impulses: false,
            joints: true,
            centers_of_mass: false,
            sleep_colors: true,
            axis_length: 0.3,
            impulse_scale: 0.1,
            body_colors: [
                c("7fbf7f"),
                c("8080e6"),
                c("e6b366"),
                c("8c8c8c"),
                c("e6e64d"),
            ],
            detail_colors: [
                c("e64de6"),
                c("ff4d4d"),
                c("4d99ff"),
                c("e6e6e6"),
                c("ff9933"),
                c("4de6e6"),
                c("b3b3ff"),
                c("ffffff"),
            ],
        }
    }
}

impl PhysicsGizmos {
    /// The core's drawing options, drawing from `origin` (the floating origin: the game's
    /// (0, 0)).
    fn options(&self, origin: physics_core::position::Position) -> DebugDrawOptions {
        DebugDrawOptions {
            shapes: self.shapes,
            aabbs: self.aabbs,
            contacts: self.contacts,
            contact_impulses: self.contact_impulses,
            joints: self.joints,
            centers_of_mass: self.centers_of_mass,
            impulse_scale: self.impulse_scale,
            axis_length: self.axis_length,
            origin,
        }
    }

    fn color(&self, kind: DebugColor) -> Color {
        use DebugColor::*;
        match kind {
            Static => self.body_colors[0],
            Kinematic => self.body_colors[1],
            Dynamic => self.body_colors[2],
            Sleeping if self.sleep_colors => self.body_colors[3],
            Sleeping => self.body_colors[2],
            Sensor => self.body_colors[4],
            Aabb => self.detail_colors[0],
            ContactPoint => self.detail_colors[1],
            SpeculativePoint => self.detail_colors[2],
            ContactNormal => self.detail_colors[3],
            ContactImpulse => self.detail_colors[4],
            Joint => self.detail_colors[5],
            JointAxis => self.detail_colors[6],
            CenterOfMass => self.detail_colors[7],
        }
    }
}

/// How one collider (or every collider of a body) is drawn by the overlay: its own colour
/// instead of the body-type colour, or not at all. A collider's own setting wins over its
/// body's.
///
/// ```
/// use bevy_physics2d::prelude::*;
/// use bevy_ecs::prelude::*;
/// use bevy_color::Color;
///
/// fn spawn(mut commands: Commands) {
///     // The player in orange; an invisible wall not drawn at all.
///     commands.spawn((RigidBody::Dynamic, Collider::circle(0.5), DebugRender::collider(Color::srgb(1.0, 0.5, 0.0))));
///     commands.spawn((RigidBody::Static, Collider::rectangle(1.0, 10.0), DebugRender::hidden()));
/// }
/// # bevy_ecs::system::assert_is_system(spawn);
/// ```
#[derive(Component, Clone, Copy, Debug, PartialEq, Reflect)]
#[reflect(Component, Debug, PartialEq, Default)]
pub struct DebugRender {
    /// The outline colour (`None`: the body-type colour).
    pub collider_color: Option<Color>,
    /// Drawn at all.
    pub visible: bool,
}

impl Default for DebugRender {
    fn default() -> Self {
        DebugRender {
            collider_color: None,
            visible: true,
        }
    }
}

impl DebugRender {
    /// Outlines in `color`.
    pub fn collider(color: Color) -> Self {
        DebugRender {
            collider_color: Some(color),
            visible: true,
        }
    }

    /// Not drawn.
    pub fn hidden() -> Self {
        DebugRender {
            collider_color: None,
            visible: false,
        }
    }
}

/// The per-shape settings of the frame, from the [`DebugRender`] components, and the one of
/// the shape being drawn.
#[derive(Default)]
struct ShapeColors {
    by_shape: HashMap<ShapeId, DebugRender>,
    current: Option<Color>,
}

impl ShapeColors {
    /// Gathers the settings: bodies' first, then colliders' own over them.
    fn gather(physics: &PhysicsWorld, renders: &Query<(Entity, &DebugRender)>) -> Self {
        let mut by_shape = HashMap::new();
        for (entity, render) in renders {
            if let Some(body) = physics.body(entity) {
                for &shape in physics.core().body_shapes(body).unwrap_or(&[]) {
                    by_shape.entry(shape).or_insert(*render);
                }
            }
        }
        for (entity, render) in renders {
            for shape in physics.shapes(entity) {
                by_shape.insert(shape, *render);
            }
        }
        ShapeColors {
            by_shape,
            current: None,
        }
    }

    /// Starts a shape: false when it is hidden.
    fn begin(&mut self, shape: ShapeId) -> bool {
        let render = self.by_shape.get(&shape).copied().unwrap_or_default();
        self.current = render.collider_color;
        render.visible
    }

    /// The colour of a primitive of `kind`: the shape's own for its outline, else the
    /// overlay's.
    fn pick(&self, kind: DebugColor, config: &PhysicsGizmos) -> Color {
        use DebugColor::*;
        match (self.current, kind) {
            (Some(own), Static | Kinematic | Dynamic | Sleeping | Sensor) => own,
            _ => config.color(kind),
        }
    }
}

/// How many primitives the overlay drew in the last frame (0 while it is disabled).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PhysicsDebugStats {
    /// Primitives (lines, circles, polygons, points) drawn.
    pub primitives: usize,
}

impl Plugin for PhysicsDebugPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<DebugRender>()
            .insert_gizmo_config(self.gizmos.clone(), Default::default())
            .init_resource::<PhysicsDebugStats>()
            .add_systems(
                PostUpdate,
                (
                    draw_physics.run_if(overlay_enabled),
                    clear_stats.run_if(not(overlay_enabled)),
                ),
            );
    }
}

/// The run condition: the overlay's gizmo group is enabled.
fn overlay_enabled(store: Res<GizmoConfigStore>) -> bool {
    store.config::<PhysicsGizmos>().0.enabled
}

fn clear_stats(mut stats: ResMut<PhysicsDebugStats>) {
    if stats.primitives != 0 {
        stats.primitives = 0;
    }
}

fn draw_physics(
    physics: Option<Res<PhysicsWorld>>,
    mut gizmos: Gizmos<PhysicsGizmos>,
    mut stats: ResMut<PhysicsDebugStats>,
    renders: Query<(Entity, &DebugRender)>,
) {
    let Some(physics) = physics else {
        return;
    };
    let config = gizmos.config_ext.clone();
    let mut painter = GizmoPainter {
        gizmos: &mut gizmos,
        config: &config,
        primitives: 0,
        colors: ShapeColors::gather(&physics, &renders),
    };
    physics
        .core()
        .debug_draw(&mut painter, &config.options(physics.origin()));
    stats.primitives = painter.primitives;
}

/// Draws core debug primitives with gizmos.
struct GizmoPainter<'a, 'w, 's> {
    gizmos: &'a mut Gizmos<'w, 's, PhysicsGizmos>,
    config: &'a PhysicsGizmos,
    primitives: usize,
    colors: ShapeColors,
}

/// Points on an arc around `center` from angle `from` turning by `sweep`.
fn arc_points(center: Vec2, radius: f32, from: f32, sweep: f32, segments: usize) -> Vec<Vec2> {
    (0..=segments)
        .map(|i| center + radius * Vec2::from_angle(from + sweep * i as f32 / segments as f32))
        .collect()
}

impl DebugDraw for GizmoPainter<'_, '_, '_> {
    fn begin_shape(&mut self, shape: ShapeId) -> bool {
        self.colors.begin(shape)
    }

    fn polygon(&mut self, vertices: &[Vec2], radius: f32, color: DebugColor) {
        self.primitives += 1;
        let color = self.colors.pick(color, self.config);
        let n = vertices.len();
        if radius <= 0.0 {
            let closed = vertices.iter().copied().chain(vertices.first().copied());
            self.gizmos.linestrip_2d(closed, color);
            return;
        }
        // Edges pushed out by the radius, joined by arcs around the corners.
        let mut outline = Vec::with_capacity(n * 6);
        for i in 0..n {
            let (prev, v, next) = (
                vertices[(i + n - 1) % n],
                vertices[i],
                vertices[(i + 1) % n],
            );
            let n_in = (v - prev).perp().normalize_or_zero() * -1.0;
            let n_out = (next - v).perp().normalize_or_zero() * -1.0;
            let from = n_in.to_angle();
            let mut sweep = n_out.to_angle() - from;
            if sweep < 0.0 {
                sweep += std::f32::consts::TAU;
            }
            outline.extend(arc_points(v, radius, from, sweep, 4));
        }
        outline.push(outline[0]);
        self.gizmos.linestrip_2d(outline, color);
    }

    fn circle(&mut self, center: Vec2, radius: f32, axis: Vec2, color: DebugColor) {
        self.primitives += 1;
        let color = self.colors.pick(color, self.config);
        self.gizmos.circle_2d(center, radius, color);
        self.gizmos.line_2d(center, center + radius * axis, color);
    }

    fn capsule(&mut self, p1: Vec2, p2: Vec2, radius: f32, color: DebugColor) {
        self.primitives += 1;
        let color = self.colors.pick(color, self.config);
        let d = (p2 - p1).normalize_or(Vec2::X);
        let side = d.perp() * radius;
        let mut outline = arc_points(p2, radius, (-side).to_angle(), std::f32::consts::PI, 8);
        outline.extend(arc_points(
            p1,
            radius,
            side.to_angle(),
            std::f32::consts::PI,
            8,
        ));
        outline.push(outline[0]);
        self.gizmos.linestrip_2d(outline, color);
    }

    fn segment(&mut self, p1: Vec2, p2: Vec2, color: DebugColor) {
        self.primitives += 1;
        let color = self.colors.pick(color, self.config);
        self.gizmos.line_2d(p1, p2, color);
    }

    fn point(&mut self, p: Vec2, size: f32, color: DebugColor) {
        self.primitives += 1;
        let color = self.colors.pick(color, self.config);
        self.gizmos.circle_2d(p, 0.5 * size, color).resolution(8);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(index: u32) -> ShapeId {
        ShapeId {
            index,
            generation: 0,
        }
    }

    #[test]
    fn an_entity_colour_replaces_only_the_outline_colour_and_hidden_shapes_are_skipped() {
        let config = PhysicsGizmos::default();
        let orange = Color::srgb(1.0, 0.5, 0.0);
        let mut colors = ShapeColors::default();
        colors
            .by_shape
            .insert(shape(1), DebugRender::collider(orange));
        colors.by_shape.insert(shape(2), DebugRender::hidden());
        assert!(colors.begin(shape(1)));
        assert_eq!(colors.pick(DebugColor::Dynamic, &config), orange);
        assert_eq!(colors.pick(DebugColor::Sleeping, &config), orange);
        // Its bounding box keeps the overlay's colour.
        assert_eq!(
            colors.pick(DebugColor::Aabb, &config),
            config.color(DebugColor::Aabb)
        );
        assert!(!colors.begin(shape(2)));
        assert!(colors.begin(shape(3)));
        assert_eq!(
            colors.pick(DebugColor::Dynamic, &config),
            config.color(DebugColor::Dynamic)
        );
    }
}
