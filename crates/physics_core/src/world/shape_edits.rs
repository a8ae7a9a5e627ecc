//! Changing a live shape in place: its geometry, its density or its filter.
//!
//! The shape keeps its id and its contacts, so a game that resizes or refilters a collider
//! sees no end and begin events for pairs that still touch, and those pairs keep their
//! impulses: the next narrowphase computes each manifold afresh and carries the impulses of
//! points whose feature ids match, as it does every step. Destroying and recreating the shape
//! would drop all of that.

use super::{World, WorldError};
use crate::filter::Filter;
use crate::id::ShapeId;
use crate::shape::Shape;
use crate::world::recording::RecordedCall;

impl World {
    /// Replaces the geometry of a shape (in its body's frame), keeping its id, material,
    /// filter and contacts. The body's mass follows; the body, and every body touching the
    /// shape, is woken.
    pub fn set_shape_geometry(&mut self, id: ShapeId, shape: Shape) -> Result<(), WorldError> {
        self.note(|| RecordedCall::SetShapeGeometry(id, Box::new(shape)));
        shape.validate()?;
        let record = self.shape_record(id)?;
        let density = record.def.density;
        check_shape_mass(&shape, density)?;
        let (body, proxy) = (record.body, record.proxy);
        let xf = self.bodies.at(body.index).transform;
        let fat = self.fat_aabb(&shape, xf, proxy.tree);
        let record = self.shapes.at_mut(id.index);
        record.shape = shape;
        record.reach = shape.reach();
        record.fat_aabb = fat;
        // The new box goes into the tree now and its proxy looks for new pairs next step.
        self.broadphase.move_proxy(proxy, fat);
        self.update_mass(body.index);
        // Rolling resistance scales with the rounding radius.
        self.refresh_contact_materials(body.index);
        // A kept manifold would be the old geometry's: every contact on the shape computes
        // its manifold at the next narrowphase.
        for slot in self.shape_contacts(id) {
            self.contacts.at_mut(slot).recycle = None;
        }
        self.wake_shape_neighbours(id);
        Ok(())
    }

    /// Changes the density of a shape; its body's mass follows and its island wakes.
    pub fn set_shape_density(&mut self, id: ShapeId, density: f32) -> Result<(), WorldError> {
        self.note(|| RecordedCall::SetShapeDensity(id, density));
        let mut def = self.shape_record(id)?.def;
        def.density = density;
        def.validate()?;
        check_shape_mass(&self.shapes.at(id.index).shape, density)?;
        self.shapes.at_mut(id.index).def = def;
        let body = self.shapes.at(id.index).body;
        self.update_mass(body.index);
        self.wake_island(body.index);
        Ok(())
    }

    /// Changes the collision filter of a shape. Its contacts with shapes the new filter
    /// still accepts are kept (no end or begin event); the others are destroyed, with an end
    /// event for those that touched, and pairs the new filter accepts are found next step.
    pub fn set_shape_filter(&mut self, id: ShapeId, filter: Filter) -> Result<(), WorldError> {
        self.note(|| RecordedCall::SetShapeFilter(id, Box::new(filter)));
        let mut def = self.shape_record(id)?.def;
        if def.filter == filter {
            return Ok(());
        }
        def.filter = filter;
        self.shapes.at_mut(id.index).def = def;
        self.refresh_pairing(id);
        Ok(())
    }

    /// Turns the caller's pair filter and contact modifier on or off for this shape
    /// (`ShapeDef::enable_contact_hooks`). Pairs it already has are kept, their materials
    /// mixed again from the shapes'; pairs it has not got are looked for at the next step.
    pub fn set_shape_contact_hooks(&mut self, id: ShapeId, enable: bool) -> Result<(), WorldError> {
        self.note(|| RecordedCall::SetShapeContactHooks(id, enable));
        let record = self.shape_record(id)?;
        if record.def.enable_contact_hooks == enable {
            return Ok(());
        }
        let body = record.body;
        self.shapes.at_mut(id.index).def.enable_contact_hooks = enable;
        // A modifier's last materials leave the contacts, and pairs the filter refused are
        // looked for again.
        self.refresh_contact_materials(body.index);
        self.refresh_pairing(id);
        Ok(())
    }

    /// Turns on or off the contacts of a shape with the shapes of other bodies that are not
    /// dynamic either (`ShapeDef::enable_kinematic_contacts`), keeping its other contacts.
    pub fn set_shape_kinematic_contacts(
        &mut self,
        id: ShapeId,
        enable: bool,
    ) -> Result<(), WorldError> {
        self.note(|| RecordedCall::SetShapeKinematicContacts(id, enable));
        let mut def = self.shape_record(id)?.def;
        if def.enable_kinematic_contacts == enable {
            return Ok(());
        }
        def.enable_kinematic_contacts = enable;
        self.shapes.at_mut(id.index).def = def;
        self.refresh_pairing(id);
        Ok(())
    }

    /// After a live shape's filter or pairing flags changed: its pair-finding facts are
    /// noted, its contacts the new facts refuse are destroyed (an end event for those that
    /// touched), and its proxy is queued to find the pairs they now accept.
    fn refresh_pairing(&mut self, id: ShapeId) {
        self.note_pair_filter(id.index);
        let record = self.shapes.at(id.index);
        let (old_proxy, fat, body) = (record.proxy, record.fat_aabb, record.body);
        let categories = record.def.filter.category_bits;
        // The proxy's categories sit in the tree's nodes: a new proxy carries the new ones
        // and is queued to look for new pairs.
        self.broadphase.destroy_proxy(old_proxy);
        let proxy = self
            .broadphase
            .create_proxy(old_proxy.tree, fat, id.index, categories);
        self.shapes.at_mut(id.index).proxy = proxy;
        for slot in self.shape_contacts(id) {
            let contact = self.contacts.at(slot);
            let (a, b) = (contact.shape_a as usize, contact.shape_b as usize);
            if !self.pair_filters[a].may_touch(&self.pair_filters[b]) {
                let other = contact.other_body(body.index);
                self.wake_island(other);
                self.destroy_contact(slot);
            }
        }
        self.wake_island(body.index);
    }

    /// The contact slots of a live shape, in the order its body lists them.
    fn shape_contacts(&self, id: ShapeId) -> Vec<u32> {
        let body = self.shapes.at(id.index).body;
        self.bodies
            .at(body.index)
            .contacts
            .iter()
            .copied()
            .filter(|&c| {
                let contact = self.contacts.at(c);
                contact.shape_a == id.index || contact.shape_b == id.index
            })
            .collect()
    }

    /// Wakes the shape's island and the islands of every body it has a contact with.
    fn wake_shape_neighbours(&mut self, id: ShapeId) {
        wake_touching(self, id);
    }
}

/// Wakes a live shape's island and the islands of every body it has a contact with.
pub(super) fn wake_touching(world: &mut World, id: ShapeId) {
    let body = world.shapes.at(id.index).body.index;
    world.wake_island(body);
    for slot in world.shape_contacts(id) {
        let other = world.contacts.at(slot).other_body(body);
        world.wake_island(other);
    }
}

/// The mass checks `World::create_shape` makes, for a shape of `density`.
pub(super) fn check_shape_mass(shape: &Shape, density: f32) -> Result<(), WorldError> {
    let mass = shape.mass_data(density);
    if mass.mass <= crate::constants::MAX_SHAPE_MASS && mass.rotational_inertia.is_finite() {
        Ok(())
    } else {
        Err(WorldError::ShapeMassTooLarge {
            density,
            mass: mass.mass,
        })
    }
}
