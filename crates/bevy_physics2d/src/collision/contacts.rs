//! Contacts for gameplay: the [`Collisions`] system parameter (the contact between two
//! colliders in O(1), a collider's contacts, every touching pair), [`CollidingEntities`] on
//! colliders that ask for it, and [`ContactForce`] events above a collider's threshold.

use crate::collision::events::body_of_collider;
use crate::world::physics_world::PhysicsWorld;
use crate::world::sent_events::SentKind;
use bevy_ecs::entity::EntityHashSet;
use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;
use bevy_math::Vec2;
use bevy_reflect::prelude::*;
use physics_core::id::ShapeId;
use physics_core::world::ContactData;

/// One point of a contact.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContactPoint {
    /// The point (world), midway between the two surfaces.
    pub point: Vec2,
    /// How far apart the surfaces are there (negative: overlapping).
    pub separation: f32,
    /// The impulse the last substep applied along the normal at this point (N s).
    pub normal_impulse: f32,
    /// The friction impulse the last substep applied along the tangent at this point (N s).
    pub tangent_impulse: f32,
    /// The normal force at this point (N): the last substep's impulse over its duration.
    pub normal_force: f32,
}

/// The contact between two touching colliders, as the last step left it: the shape shared
/// by [`Collisions`], [`ContactForce`] and [`CollisionHit`](crate::CollisionHit)
/// (`collider1`, `collider2`, a normal from the first towards the second).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactManifold {
    /// The collider this contact is seen from.
    pub collider1: Entity,
    /// The other collider.
    pub collider2: Entity,
    /// The body of `collider1`.
    pub body1: Option<Entity>,
    /// The body of `collider2`.
    pub body2: Option<Entity>,
    /// Unit normal from `collider1` towards `collider2`.
    pub normal: Vec2,
    points: [ContactPoint; 2],
    point_count: usize,
}

impl ContactManifold {
    /// The contact points, one or two.
    pub fn points(&self) -> &[ContactPoint] {
        &self.points[..self.point_count]
    }

    /// The normal force the contact applied at the end of the last step (N), summed over
    /// its points: what a pressure plate weighs, what a crash breaks against. A crate of
    /// mass m resting on the ground presses it with m g.
    pub fn total_normal_force(&self) -> f32 {
        self.points().iter().map(|p| p.normal_force).sum()
    }

    /// The point that took the largest normal force.
    pub fn most_loaded_point(&self) -> Option<ContactPoint> {
        self.points()
            .iter()
            .copied()
            .max_by(|a, b| a.normal_force.total_cmp(&b.normal_force))
    }

    /// The same contact seen from the other collider (the normal reversed).
    pub fn flipped(self) -> Self {
        ContactManifold {
            collider1: self.collider2,
            collider2: self.collider1,
            body1: self.body2,
            body2: self.body1,
            normal: -self.normal,
            ..self
        }
    }
}

/// Builds a manifold from core contact data, `None` for shapes without an entity.
fn manifold_of(physics: &PhysicsWorld, data: &ContactData) -> Option<ContactManifold> {
    let collider1 = physics.collider_entity(data.shape_a)?;
    let collider2 = physics.collider_entity(data.shape_b)?;
    let h = physics.world.last_substep_seconds();
    let mut points = [ContactPoint::default(); 2];
    for (out, p) in points.iter_mut().zip(data.manifold.points()) {
        *out = ContactPoint {
            point: physics.to_game(p.point),
            separation: p.separation,
            normal_impulse: p.normal_impulse,
            tangent_impulse: p.tangent_impulse,
            normal_force: if h > 0.0 { p.normal_impulse / h } else { 0.0 },
        };
    }
    Some(ContactManifold {
        collider1,
        collider2,
        body1: body_of_collider(physics, collider1),
        body2: body_of_collider(physics, collider2),
        normal: data.manifold.normal,
        points,
        point_count: data.manifold.point_count,
    })
}

/// The contacts of the last step, read from the physics world: between two colliders in
/// O(1), all of one collider's, or every touching pair. Sensors are left out (see
/// [`CollidingEntities`] and the sensor events for them).
///
/// ```
/// use bevy_physics2d::prelude::*;
/// use bevy_ecs::prelude::*;
///
/// /// A pressure plate opens the gate while something weighs more than 100 N on it.
/// fn plate(collisions: Collisions, plate: Single<Entity, With<Plate>>, mut gate: ResMut<Gate>) {
///     let load: f32 = collisions
///         .collisions_with(*plate)
///         .iter()
///         .map(|c| c.total_normal_force())
///         .sum();
///     gate.open = load > 100.0;
/// }
/// # #[derive(Component)] struct Plate;
/// # #[derive(Resource)] struct Gate { open: bool }
/// # bevy_ecs::system::assert_is_system(plate);
/// ```
#[derive(SystemParam)]
pub struct Collisions<'w> {
    physics: Res<'w, PhysicsWorld>,
}

impl Collisions<'_> {
    /// The contact between two colliders when they touch, seen from `collider1` (its normal
    /// points towards `collider2`). For compound colliders, the first touching pair of
    /// parts.
    pub fn get(&self, collider1: Entity, collider2: Entity) -> Option<ContactManifold> {
        let data = self.physics.contact_pair(collider1, collider2)?;
        manifold_of(&self.physics, &data)
    }

    /// True when the two colliders touch.
    pub fn contains(&self, collider1: Entity, collider2: Entity) -> bool {
        self.get(collider1, collider2).is_some()
    }

    /// Every contact of a collider, each seen from it.
    pub fn collisions_with(&self, collider: Entity) -> Vec<ContactManifold> {
        let p = &*self.physics;
        let shapes = p.shapes(collider);
        let Some(body) = shapes.first().and_then(|s| p.world.shape_body(*s).ok()) else {
            return Vec::new();
        };
        p.world
            .body_contact_data(body)
            .iter()
            .filter(|d| shapes.contains(&d.shape_a) || shapes.contains(&d.shape_b))
            .filter_map(|d| manifold_of(p, d))
            .map(|m| {
                if m.collider1 == collider {
                    m
                } else {
                    m.flipped()
                }
            })
            .collect()
    }

    /// Every touching pair of colliders, in the core's fixed order.
    pub fn iter(&self) -> impl Iterator<Item = ContactManifold> + '_ {
        let p = &*self.physics;
        p.world
            .contact_data()
            .into_iter()
            .filter_map(move |d| manifold_of(p, &d))
    }
}

/// The colliders this collider touches (or overlaps, for sensors), kept up to date after
/// every step on colliders that have the component. Add it empty.
///
/// ```
/// use bevy_physics2d::prelude::*;
/// use bevy_ecs::prelude::*;
///
/// fn spawn(mut commands: Commands) {
///     commands.spawn((RigidBody::Dynamic, Collider::circle(0.5), CollidingEntities::default()));
/// }
/// fn touching(balls: Query<&CollidingEntities>) {
///     for touching in &balls {
///         for other in touching.iter() { let _ = other; }
///     }
/// }
/// # bevy_ecs::system::assert_is_system(spawn);
/// # bevy_ecs::system::assert_is_system(touching);
/// ```
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Component, Debug, Default)]
pub struct CollidingEntities(pub EntityHashSet);

impl CollidingEntities {
    /// The colliders touched.
    pub fn iter(&self) -> impl Iterator<Item = Entity> + '_ {
        self.0.iter().copied()
    }

    /// True when `collider` is touched.
    pub fn contains(&self, collider: Entity) -> bool {
        self.0.contains(&collider)
    }

    /// How many colliders are touched.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when nothing is touched.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Sends a [`ContactForce`] for every contact of this collider whose normal force in the
/// last step was above this many newtons (contact impulse over the step's duration).
///
/// ```
/// use bevy_physics2d::prelude::*;
/// use bevy_ecs::prelude::*;
///
/// // A vase that reports any contact pressing on it with more than 50 N.
/// fn spawn(mut commands: Commands) {
///     commands.spawn((RigidBody::Dynamic, Collider::circle(0.2), ContactForceEventThreshold(50.0)));
/// }
/// fn crack(mut forces: MessageReader<ContactForce>) {
///     for f in forces.read() { let _ = (f.collider1, f.force); }
/// }
/// # bevy_ecs::system::assert_is_system(spawn);
/// # bevy_ecs::system::assert_is_system(crack);
/// ```
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect)]
#[reflect(Component, Debug, PartialEq, Default)]
pub struct ContactForceEventThreshold(pub f32);

/// A contact pushed harder than a collider's [`ContactForceEventThreshold`] in the last
/// step. Sent as a message once per pair and step, and triggered on each collider of the
/// pair that has a threshold it exceeds (with `collider1` being that collider).
#[derive(EntityEvent, Message, Clone, Copy, Debug, PartialEq)]
pub struct ContactForce {
    /// The collider the event is about (the observed entity).
    #[event_target]
    pub collider1: Entity,
    /// The other collider.
    pub collider2: Entity,
    /// The point that took the most force (world).
    pub point: Vec2,
    /// Unit normal from `collider1` towards `collider2`.
    pub normal: Vec2,
    /// The total normal force over the step (N).
    pub force: f32,
}

/// Keeps every [`CollidingEntities`] up to date (Writeback stage). Read from the world's
/// contacts, not from events, so it is right after a rollback too.
pub(crate) fn update_colliding_entities(
    physics: Res<PhysicsWorld>,
    mut colliders: Query<(Entity, &mut CollidingEntities)>,
) {
    for (entity, mut colliding) in &mut colliders {
        let mut now = EntityHashSet::default();
        for shape in physics.shapes(entity) {
            for other in physics.world.touching_shapes(shape) {
                if let Some(e) = physics.collider_entity(other)
                    && e != entity
                {
                    now.insert(e);
                }
            }
        }
        if colliding.0 != now {
            colliding.0 = now;
        }
    }
}

/// Sends the [`ContactForce`] events of the last step (Writeback stage, after the other
/// events), each pair once per step, and not again when a rollback resimulates the step.
pub(crate) fn send_contact_forces(
    mut commands: Commands,
    mut physics: ResMut<PhysicsWorld>,
    thresholds: Query<(Entity, &ContactForceEventThreshold)>,
    mut forces: MessageWriter<ContactForce>,
) {
    if thresholds.is_empty() {
        return;
    }
    physics.send_once(|p, sent| {
        let limit = |e: Entity| thresholds.get(e).ok().map(|(_, t)| t.0);
        let mut order: Vec<(ShapeId, Entity)> = thresholds
            .iter()
            .filter_map(|(e, _)| p.shape(e).map(|s| (s, e)))
            .collect();
        order.sort_unstable_by_key(|(s, _)| s.index);
        for (_, entity) in order {
            for shape in p.shapes(entity) {
                let Ok(body) = p.world.shape_body(shape) else {
                    continue;
                };
                for data in p.world.body_contact_data(body) {
                    if data.shape_a != shape && data.shape_b != shape {
                        continue;
                    }
                    let Some(m) = manifold_of(p, &data) else {
                        continue;
                    };
                    let force = m.total_normal_force();
                    let over = |c: Entity| limit(c).is_some_and(|t| force > t);
                    if !(over(m.collider1) || over(m.collider2)) {
                        continue;
                    }
                    if !sent.first_time(SentKind::ContactForce, m.collider1, m.collider2) {
                        continue;
                    }
                    let point = m.most_loaded_point().map_or(Vec2::ZERO, |q| q.point);
                    let event = ContactForce {
                        collider1: m.collider1,
                        collider2: m.collider2,
                        point,
                        normal: m.normal,
                        force,
                    };
                    forces.write(event);
                    for (me, other, normal) in [
                        (m.collider1, m.collider2, m.normal),
                        (m.collider2, m.collider1, -m.normal),
                    ] {
                        if over(me) {
                            commands.trigger(ContactForce {
                                collider1: me,
                                collider2: other,
                                normal,
                                ..event
                            });
                        }
                    }
                }
            }
        }
    });
}
