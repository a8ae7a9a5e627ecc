//! Attaching shapes to bodies and keeping their broadphase boxes current.

use super::def::Tolerances;
use super::{MixRule, World, WorldError};
use crate::broadphase::{ProxyKey, TreeKind};
use crate::id::{BodyId, ShapeId};
use crate::shape::{Aabb, Shape};
use crate::shape_def::{ShapeDef, ShapeRecord};
use crate::world::recording::RecordedCall;

impl World {
    /// Attaches a shape (in the body's local frame) to a body; the body's mass is updated. A
    /// sleeping body stays asleep until something awake touches the new shape.
    pub fn create_shape(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        shape: Shape,
    ) -> Result<ShapeId, WorldError> {
        self.note(|| RecordedCall::CreateShape(body, Box::new((*def, shape))));
        def.validate()?;
        shape.validate()?;
        super::shape_edits::check_shape_mass(&shape, def.density)?;
        let b = self.body(body)?;
        let kind = if b.is_moving() {
            TreeKind::Moving
        } else {
            TreeKind::Static
        };
        let fat_aabb = self.fat_aabb(&shape, b.transform, kind);
        // Reserve the slot first: the proxy stores the shape's slot index.
        let reach = shape.reach();
        let (index, generation) = self.shapes.insert(ShapeRecord {
            body,
            reach,
            shape,
            def: *def,
            proxy: crate::broadphase::ProxyKey { tree: kind, id: 0 },
            fat_aabb,
        });
        let categories = def.filter.category_bits;
        let proxy = self
            .broadphase
            .create_proxy(kind, fat_aabb, index, categories);
        self.shapes.at_mut(index).proxy = proxy;
        self.note_pair_filter(index);
        let id = ShapeId { index, generation };
        self.bodies.at_mut(body.index).shapes.push(id);
        self.update_mass_with_new_shape(body.index, index);
        // A sleeping body stays asleep with its new shape (a level can be built asleep): the
        // shape's new contacts with awake bodies wake it once they touch.
        self.bodies.at_mut(body.index).sleep_time = 0.0;
        Ok(id)
    }

    /// Attaches a chain through `points` (in the body's frame) to a body: one
    /// [`ChainSegment`](crate::shape::ChainSegment) shape per segment, each its own
    /// broadphase proxy, colliding on the right of the chain's direction (see
    /// [`chain_segments`](crate::shape::chain_segments)). All segments or none: a refused
    /// point or setting leaves the body as it was.
    pub fn create_chain(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        points: &[bevy_math::Vec2],
        closed: bool,
    ) -> Result<Vec<ShapeId>, WorldError> {
        let segments = crate::shape::chain_segments(points, closed)?;
        let mut created = Vec::with_capacity(segments.len());
        for segment in segments {
            match self.create_shape(body, def, Shape::ChainSegment(segment)) {
                Ok(id) => created.push(id),
                Err(error) => {
                    for id in created {
                        let _ = self.destroy_shape(id);
                    }
                    return Err(error);
                }
            }
        }
        Ok(created)
    }

    /// Detaches and destroys a shape with its contacts; the body's mass is updated.
    pub fn destroy_shape(&mut self, id: ShapeId) -> Result<(), WorldError> {
        self.note(|| RecordedCall::DestroyShape(id));
        let record = self
            .shapes
            .get(id.index, id.generation)
            .ok_or(WorldError::StaleShape(id))?;
        let body = record.body;
        // Wake the island, and every body with a contact on this shape (what rested on it,
        // even a body asleep since it was built, whose contacts never touched), while the
        // contacts still say who they are.
        self.wake_island(body.index);
        let contacts: Vec<u32> = self
            .bodies
            .at(body.index)
            .contacts
            .iter()
            .copied()
            .filter(|c| {
                let contact = self.contacts.at(*c);
                contact.shape_a == id.index || contact.shape_b == id.index
            })
            .collect();
        for &c in &contacts {
            let other = self.contacts.at(c).other_body(body.index);
            self.wake_island(other);
        }
        for c in contacts {
            self.destroy_contact(c);
        }
        if let Some(record) = self.shapes.remove(id.index, id.generation) {
            self.broadphase.destroy_proxy(record.proxy);
        }
        self.bodies.at_mut(body.index).shapes.retain(|s| *s != id);
        self.update_mass(body.index);
        Ok(())
    }

    /// The geometry of a shape.
    pub fn shape(&self, id: ShapeId) -> Result<&Shape, WorldError> {
        Ok(&self.shape_record(id)?.shape)
    }

    /// The material and filter of a shape.
    pub fn shape_def(&self, id: ShapeId) -> Result<&ShapeDef, WorldError> {
        Ok(&self.shape_record(id)?.def)
    }

    /// The body a shape is attached to.
    pub fn shape_body(&self, id: ShapeId) -> Result<BodyId, WorldError> {
        Ok(self.shape_record(id)?.body)
    }

    /// Shapes attached to a body.
    pub fn body_shapes(&self, id: BodyId) -> Result<&[ShapeId], WorldError> {
        Ok(&self.body(id)?.shapes)
    }

    /// Changes friction and restitution of a shape (contacts pick them up when created;
    /// existing contacts are refreshed now).
    pub fn set_shape_material(
        &mut self,
        id: ShapeId,
        friction: f32,
        restitution: f32,
    ) -> Result<(), WorldError> {
        self.note(|| RecordedCall::SetShapeMaterial(id, friction, restitution));
        let mut def = self.shape_record(id)?.def;
        def.friction = friction;
        def.restitution = restitution;
        self.set_shape_surface(id, def)
    }

    /// Sets how a shape's friction and restitution combine with other shapes' (`None`: the
    /// world's rule); existing contacts are refreshed now.
    pub fn set_shape_mixing(
        &mut self,
        id: ShapeId,
        friction: Option<super::MixRule>,
        restitution: Option<super::MixRule>,
    ) -> Result<(), WorldError> {
        self.note(|| RecordedCall::SetShapeMixing(id, friction, restitution));
        let mut def = self.shape_record(id)?.def;
        def.friction_mixing = friction;
        def.restitution_mixing = restitution;
        self.set_shape_surface(id, def)
    }

    /// Changes the surface speed of a shape (a conveyor belt, `ShapeDef::tangent_speed`)
    /// and its rolling resistance (`ShapeDef::rolling_resistance`); existing contacts are
    /// refreshed now and what touches the shape is woken.
    pub fn set_shape_surface_motion(
        &mut self,
        id: ShapeId,
        tangent_speed: f32,
        rolling_resistance: f32,
    ) -> Result<(), WorldError> {
        self.note(|| RecordedCall::SetShapeSurfaceMotion(id, tangent_speed, rolling_resistance));
        let mut def = self.shape_record(id)?.def;
        def.tangent_speed = tangent_speed;
        def.rolling_resistance = rolling_resistance;
        self.set_shape_surface(id, def)?;
        super::shape_edits::wake_touching(self, id);
        Ok(())
    }

    /// Takes `def`'s surface values (friction, restitution, tangent speed, rolling
    /// resistance) for a shape and refreshes its contacts.
    fn set_shape_surface(&mut self, id: ShapeId, def: ShapeDef) -> Result<(), WorldError> {
        def.validate()?;
        self.shapes.at_mut(id.index).def = def;
        let body = self.shapes.at(id.index).body;
        self.refresh_contact_materials(body.index);
        Ok(())
    }

    /// Mixes again the materials of every contact of a body, after one of its shapes
    /// changed.
    pub(super) fn refresh_contact_materials(&mut self, body_index: u32) {
        // Whether any solved contact has restitution, and which contacts the scalar solver
        // takes, may change.
        self.solve_set.note_contact_change();
        for slot in self.bodies.at(body_index).contacts.clone() {
            let (a, b) = {
                let c = self.contacts.at(slot);
                (c.shape_a, c.shape_b)
            };
            let (friction, restitution, tangent_speed, rolling) = self.mix_materials(a, b);
            let c = self.contacts.at_mut(slot);
            (c.friction, c.restitution) = (friction, restitution);
            c.set_surface_motion(tangent_speed, rolling);
        }
    }

    /// The materials of a contact between the shapes in slots `a` and `b`: friction and
    /// restitution by the world's mixing rules, tangent speeds summed, and the larger rolling
    /// resistance coefficient times the larger rounding radius (a torque arm).
    pub(super) fn mix_materials(&self, a: u32, b: u32) -> (f32, f32, f32, f32) {
        let (ra, rb) = (self.shapes.at(a), self.shapes.at(b));
        let (da, db) = (ra.def, rb.def);
        let rolling = if da.rolling_resistance > 0.0 || db.rolling_resistance > 0.0 {
            let arm = ra.shape.rounding_radius().max(rb.shape.rounding_radius());
            da.rolling_resistance.max(db.rolling_resistance) * arm
        } else {
            0.0
        };
        let friction = MixRule::for_pair(
            self.def.friction_mixing,
            da.friction_mixing,
            db.friction_mixing,
        );
        let restitution = MixRule::for_pair(
            self.def.restitution_mixing,
            da.restitution_mixing,
            db.restitution_mixing,
        );
        (
            friction.mix(da.friction, db.friction),
            restitution.mix(da.restitution, db.restitution),
            da.tangent_speed + db.tangent_speed,
            rolling,
        )
    }

    pub(super) fn shape_record(&self, id: ShapeId) -> Result<&ShapeRecord, WorldError> {
        self.shapes
            .get(id.index, id.generation)
            .ok_or(WorldError::StaleShape(id))
    }

    /// The box stored in the broadphase: static shapes exactly, moving shapes with the
    /// speculative distance and a slack so small motions do not touch the tree
    /// ([`broadphase_box`]).
    pub(super) fn fat_aabb(
        &self,
        shape: &Shape,
        xf: crate::position::WorldTransform,
        kind: TreeKind,
    ) -> Aabb {
        broadphase_box(shape, shape.world_aabb(xf), kind, &self.tolerances)
    }

    /// Recomputes the boxes of a body's shapes after it moved. A box is only replaced (and
    /// queued for pair finding) when the shape plus the speculative distance has left it, or
    /// always when `force` is set (teleports).
    pub(crate) fn refresh_shape_bounds(&mut self, body_index: u32, force: bool) {
        let mut moves = Vec::new();
        self.collect_shape_moves(body_index, force, &mut moves);
        self.broadphase.move_proxies(&moves, &*self.runner);
    }

    /// What [`World::refresh_shape_bounds`] does, except that the broadphase moves are added
    /// to `moves` for the caller to apply in one batch (the shapes' records already hold
    /// their new boxes).
    pub(crate) fn collect_shape_moves(
        &mut self,
        body_index: u32,
        force: bool,
        moves: &mut Vec<(ProxyKey, Aabb)>,
    ) {
        let body = self.bodies.at(body_index);
        let xf = body.transform;
        let moving = body.is_moving();
        let tolerances = self.tolerances;
        let speculative = tolerances.speculative_distance;
        for i in 0..self.bodies.at(body_index).shapes.len() {
            let id = self.bodies.at(body_index).shapes[i];
            let record = self.shapes.at(id.index);
            // One box computation serves both the test and the new enlarged box.
            let tight = record.shape.world_aabb(xf);
            let needed = tight.expanded(if moving { speculative } else { 0.0 });
            if !force && record.fat_aabb.contains(&needed) {
                continue;
            }
            let fat = broadphase_box(&record.shape, tight, record.proxy.tree, &tolerances);
            moves.push((record.proxy, fat));
            self.shapes.at_mut(id.index).fat_aabb = fat;
        }
    }
}

/// The box the broadphase stores for a shape whose tight box is `tight`, in a tree of `kind`:
/// static shapes exactly, moving shapes enlarged by the speculative distance plus their
/// slack ([`box_slack`]).
pub(super) fn broadphase_box(
    shape: &Shape,
    tight: Aabb,
    kind: TreeKind,
    tolerances: &Tolerances,
) -> Aabb {
    match kind {
        TreeKind::Static => tight,
        TreeKind::Moving => {
            tight.expanded(tolerances.speculative_distance + box_slack(shape, tolerances))
        }
    }
}

/// How far a moving shape may travel before its broadphase box must be replaced: an eighth
/// of the shape's extent (its farthest point from its centroid, a rounded polygon's rounding
/// included where Box2D leaves it out), at most
/// [`WorldDef::aabb_margin`](super::WorldDef::aabb_margin), Box2D v3's rule. A box is
/// replaced once the shape plus the speculative distance leaves it, so the box holds the
/// shape, the speculative distance and this slack.
///
/// Small shapes get small slack: a pair of them gets a contact only when they come within
/// a fraction of their size, where one slack for all sizes (0.1 m before) kept 20 to 65 %
/// more contacts alive than Box2D in its crowded benchmark scenes, each computed every step.
/// The price is more boxes replaced per step, which the rebuilt tree (`rebuild.rs`) makes
/// cheap to query.
fn box_slack(shape: &Shape, tolerances: &Tolerances) -> f32 {
    let extent = shape.reach_from(shape.centroid());
    (0.125 * extent).min(tolerances.aabb_margin)
}
