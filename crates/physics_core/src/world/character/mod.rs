//! A platformer's character controller over the mover: walkable slopes up to a limit, steps
//! climbed up to a height, snapping down to the ground over small drops, riding moving
//! platforms, one-way platforms, and dynamic bodies pushed up to a mass limit.
//!
//! One step of [`World::move_character`], in order:
//! 1. find the ground at the start (a walkable surface within reach below; the round bottom
//!    resting on an edge counts when the face beside the edge is walkable);
//! 2. walk: move and slide the part of the velocity across `up`, along the ground's slope
//!    when grounded, with steep surfaces, and grounded the edges ahead above the feet (the
//!    corners of steps), turned into walls; if a wall held it, try to step up (lift, move,
//!    put down on walkable ground) and keep whichever went further;
//! 3. rise or fall: move and slide the part along `up`; falling, walkable surfaces hold it
//!    where it lands instead of letting it slide down;
//! 4. snap: a grounded character that is not rising and lost the ground goes down to it
//!    when it is within the snap distance (walking down slopes and steps);
//! 5. clip the velocity against what the character touches at the end;
//! 6. ride: move with the ground body's velocity at the contact point (moving platforms).

use super::{QueryFilter, World, WorldError};
use mover::{MoverFilter, MoverPlane, clip_velocity};

pub(in crate::world) mod mover;
use crate::body::BodyType;
use crate::collision::ShapeProxy;
use crate::id::{BodyId, ShapeId};
use crate::math::{cross_sv, is_finite_vec};
use crate::position::{FrameOrigin, Position, WorldTransform, offset, relative};
use crate::shape::{RayCastInput, Shape};
use bevy_math::Vec2;

/// How a character moves over the world.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharacterSettings {
    /// Unit vector pointing up, away from gravity.
    pub up: Vec2,
    /// Steepest surface the character stands and walks on (radians from flat); steeper
    /// ones are walls it slides down.
    pub max_slope_angle: f32,
    /// Highest step climbed without jumping (metres); 0 turns stepping off.
    pub step_height: f32,
    /// Deepest drop followed down while grounded (metres); 0 turns snapping off.
    pub snap_distance: f32,
    /// Which shapes stop the character.
    pub filter: QueryFilter,
}

impl Default for CharacterSettings {
    /// Up is +y, slopes to 50 degrees, steps to 0.4 m, snapping over 0.3 m.
    fn default() -> Self {
        CharacterSettings {
            up: Vec2::Y,
            max_slope_angle: 50f32.to_radians(),
            step_height: 0.4,
            snap_distance: 0.3,
            filter: QueryFilter::default(),
        }
    }
}

impl CharacterSettings {
    /// Checks the fields: a unit `up`, a slope limit in `[0, 90]` degrees, finite
    /// non-negative heights.
    pub fn validate(&self) -> Result<(), WorldError> {
        if !is_finite_vec(self.up) || (self.up.length() - 1.0).abs() > 1e-3 {
            return Err(WorldError::InvalidSetting(
                "a character's up must be a unit vector",
            ));
        }
        if !(0.0..=std::f32::consts::FRAC_PI_2).contains(&self.max_slope_angle) {
            return Err(WorldError::InvalidSetting(
                "a character's max slope angle must be within 0 to 90 degrees",
            ));
        }
        for (value, what) in [
            (
                self.step_height,
                "a character's step height must be finite, not negative",
            ),
            (
                self.snap_distance,
                "a character's snap distance must be finite, not negative",
            ),
        ] {
            if !(value.is_finite() && value >= 0.0) {
                return Err(WorldError::InvalidSetting(what));
            }
        }
        Ok(())
    }
}

/// The shapes a character treats apart from the rest.
pub struct CharacterExceptions<'a> {
    /// The character's own shapes: never in its way.
    pub own: &'a [ShapeId],
    /// True for shapes that hold the character only from above (one-way platforms).
    pub one_way: &'a dyn Fn(ShapeId) -> bool,
}

/// The walkable surface a character stands on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharacterGround {
    /// Unit normal of the surface, towards the character.
    pub normal: Vec2,
    /// The point of the surface under the character (world).
    pub point: Position,
    /// The shape stood on.
    pub shape: ShapeId,
    /// Its body.
    pub body: BodyId,
}

/// What one step of a character did.
#[derive(Clone, Debug, PartialEq)]
pub struct CharacterMove {
    /// Displacement over the step.
    pub translation: Vec2,
    /// The asked velocity without the parts the touched surfaces take: what to ask with
    /// next step (speed does not build up against walls, nor falling speed on the ground).
    pub velocity: Vec2,
    /// The ground at the end of the step, if the character stands on one.
    pub ground: Option<CharacterGround>,
    /// Every surface within reach at the end of the step.
    pub touching: Vec<MoverPlane>,
    /// True when the character climbed a step.
    pub stepped_up: bool,
    /// The velocity the character presses into other bodies with (the asked one without
    /// the part its ground takes), for [`World::push_touched_bodies`].
    pub pressing_velocity: Vec2,
}

impl World {
    /// Moves a character of shape `mover` at `xf` for one step of `dt` seconds at the
    /// asked `velocity` (gravity included: the caller integrates it, so jumps and falls
    /// are the game's), as the module documentation lists. Shapes in `exceptions.own` and
    /// sensors are not seen; shapes for which `exceptions.one_way` says true
    /// hold the character only from above. Reads the world and changes nothing: the caller
    /// applies the translation (a kinematic body's velocity `translation / dt`) and calls
    /// [`World::push_touched_bodies`].
    ///
    /// The mover must be rounded (a circle, a capsule or a rounded polygon, radius above
    /// twice the linear slop): the surfaces are found from its core.
    pub fn move_character(
        &self,
        mover: &Shape,
        xf: impl Into<WorldTransform>,
        velocity: Vec2,
        dt: f32,
        settings: &CharacterSettings,
        exceptions: &CharacterExceptions,
    ) -> Result<CharacterMove, WorldError> {
        let xf = xf.into();
        let (excluded, one_way) = (exceptions.own, exceptions.one_way);
        settings.validate()?;
        mover.validate()?;
        let slop = self.tolerances.linear_slop;
        let proxy = ShapeProxy::from_shape(mover);
        if proxy.radius <= 2.0 * slop {
            return Err(WorldError::InvalidSetting(
                "a character's shape must be rounded: a circle, a capsule or a rounded polygon",
            ));
        }
        if !xf.is_valid() {
            return Err(WorldError::NonFinite("character transform"));
        }
        if !is_finite_vec(velocity) {
            return Err(WorldError::NonFinite("character velocity"));
        }
        if !(dt.is_finite() && dt > 0.0) {
            return Err(WorldError::InvalidTimeStep(dt));
        }
        let up = settings.up;
        let margin = 2.0 * slop;
        let cos_max = settings.max_slope_angle.cos() - 1e-5;
        // One-way surfaces hold only a character above them, facing up.
        let accepts =
            |id: ShapeId, n: Vec2, gap: f32| !one_way(id) || (n.dot(up) > 0.5 && gap >= -margin);
        let filter = MoverFilter {
            filter: settings.filter,
            excluded,
            accepts: &accepts,
        };
        // Heights along `up` are measured in a float frame at the start (the world's own
        // frame in the float build).
        let frame = FrameOrigin::at(xf.p);
        let height = |point: Position| frame.to_frame(point).dot(up);
        // The lowest point of the character at the start, and the highest edge its round
        // bottom may stand on: one no higher above the bottom than a step.
        let feet = proxy
            .points()
            .iter()
            .map(|&q| height(xf.apply(q)))
            .fold(f32::INFINITY, f32::min)
            - proxy.radius;
        let min_edge_lean = (1.0 - settings.step_height / proxy.radius).max(0.1);
        let standing = |q: &MoverPlane| self.standing_normal(q, up, cos_max, min_edge_lean);
        let at = |p: Position| WorldTransform::new(p, xf.q);
        let ground_in = |planes: &[MoverPlane]| -> Option<CharacterGround> {
            planes
                .iter()
                .filter(|q| q.separation <= margin)
                .filter_map(|q| Some((q, standing(q)?)))
                .max_by(|a, b| a.1.dot(up).total_cmp(&b.1.dot(up)))
                .map(|(q, normal)| CharacterGround {
                    normal,
                    point: q.point,
                    shape: q.shape,
                    body: self.shapes.at(q.shape.index).body,
                })
        };
        // Walking, steep surfaces (not ceilings) block as walls straight across `up`, so they
        // cannot be walked up (the true plane too would leave the solve a narrow wedge, slow
        // to converge, that leaks motion up the slope); falling, what the character can
        // stand on holds it where it lands instead of letting it slide down.
        let is_wall = |q: &MoverPlane| q.normal.dot(up) > -0.01 && standing(q).is_none();
        let land = |planes: &mut Vec<MoverPlane>| {
            for q in planes.iter_mut() {
                if standing(q).is_some() {
                    q.normal = up;
                }
            }
        };

        // 1. The ground at the start.
        let ground_before = ground_in(&self.mover_planes(mover, xf, margin, &filter));
        let mut p = xf.p;

        // 2. Walk across `up`: along the ground's slope (same progress across `up` as on
        //    the flat), with steep surfaces as walls; held by a wall, try a step.
        let rise = velocity.dot(up);
        let across = dt * (velocity - rise * up);
        let mut walk = across;
        if let Some(g) = ground_before {
            let along_slope = across - across.dot(g.normal) * g.normal;
            let progress = (along_slope - along_slope.dot(up) * up).dot(across);
            if progress > 0.0 {
                walk = along_slope * (across.length_squared() / progress);
            }
        }
        // Grounded, an edge ahead of the walk and above the feet is a step, not ground: the
        // round bottom stands on edges under or behind it, but walked into, an edge below
        // the bottom's centre leans up enough to pass as one, and sliding up its nearly
        // level normal costs most of the walk (a 0.25 m step under a 0.3 m radius: 0.35 m
        // of walking, six frames under half speed). Walking, such an edge is a wall, so a
        // step is tried. (Airborne, the character still slides up over a corner it barely
        // clears.)
        let dir = across.normalize_or_zero();
        let grounded = ground_before.is_some();
        let step_edge = |q: &MoverPlane| {
            let lean = q.normal.dot(up);
            grounded
                && lean > -0.01
                && lean < cos_max
                && q.normal.dot(dir) < 0.0
                && height(q.point) - feet > slop
        };
        let walk_wall = |q: &MoverPlane| is_wall(q) || step_edge(q);
        let walls = |planes: &mut Vec<MoverPlane>| turn_into_walls(planes, up, walk_wall);
        let (walked, walk_planes) = self.move_and_slide(mover, at(p), walk, &filter, walls);
        let mut stepped_up = false;
        let wanted = across.length();
        let held_by_wall = walk_planes.iter().any(|q| q.push > 0.0 && walk_wall(q));
        if ground_before.is_some()
            && settings.step_height > 0.0
            && wanted > 0.0
            && held_by_wall
            && walked.dot(dir) < wanted - slop
        {
            // Lift by the step height (less under a ceiling), go across, put down as far
            // as it was lifted: a step when that lands on something to stand on, further on.
            // Lifted, every steep surface is a wall, edges included (riding up an edge
            // would climb higher than the step height); put down, anything below holds.
            let lift = settings.step_height * up;
            let (lifted, _) = self.move_and_slide(mover, at(p), lift, &filter, |_| {});
            let steep = |q: &MoverPlane| q.normal.dot(up) > -0.01 && q.normal.dot(up) < cos_max;
            let strict_walls = |planes: &mut Vec<MoverPlane>| turn_into_walls(planes, up, steep);
            let (over, _) =
                self.move_and_slide(mover, at(offset(p, lifted)), across, &filter, strict_walls);
            let settle = |planes: &mut Vec<MoverPlane>| {
                for q in planes.iter_mut().filter(|q| q.normal.dot(up) > 0.01) {
                    q.normal = up;
                }
            };
            let over_at = at(offset(offset(p, lifted), over));
            let (down, _) = self.move_and_slide(mover, over_at, -lifted, &filter, settle);
            let stepped = lifted + over + down;
            // It must land on something no higher than the step height above the feet.
            let lands =
                ground_in(&self.mover_planes(mover, at(offset(p, stepped)), margin, &filter))
                    .is_some_and(|g| height(g.point) - feet <= settings.step_height + slop);
            if lands && stepped.dot(dir) > walked.dot(dir) + slop {
                p = offset(p, stepped);
                stepped_up = true;
            } else {
                p = offset(p, walked);
            }
        } else {
            p = offset(p, walked);
        }

        // 3. Rise or fall.
        let fall = dt * rise * up;
        let fallen = self
            .move_and_slide(mover, at(p), fall, &filter, |q| {
                if rise < 0.0 {
                    land(q)
                }
            })
            .0;
        p = offset(p, fallen);

        // 4. Snap down to the ground over small drops.
        let mut touching = self.mover_planes(mover, at(p), margin, &filter);
        let mut ground = ground_in(&touching);
        if ground.is_none()
            && ground_before.is_some()
            && rise <= 0.0
            && settings.snap_distance > 0.0
        {
            let drop = -settings.snap_distance * up;
            let (dropped, _) = self.move_and_slide(mover, at(p), drop, &filter, land);
            let planes = self.mover_planes(mover, at(offset(p, dropped)), margin, &filter);
            if let Some(found) = ground_in(&planes) {
                p = offset(p, dropped);
                touching = planes;
                ground = Some(found);
            }
        }

        // 5. What the surfaces take from the velocity: ground the part along `-up` (no
        //    sliding down slopes); a steep surface first the part into it as a wall (so
        //    running into it gives no speed up it), then what still goes into it; anything
        //    else the part into it.
        let mut holding: Vec<MoverPlane> = Vec::with_capacity(2 * touching.len());
        for q in &touching {
            let held = MoverPlane { push: 1.0, ..*q };
            if standing(q).is_some() {
                holding.push(MoverPlane { normal: up, ..held });
                continue;
            }
            if q.normal.dot(up) > -0.01 {
                let normal = wall_normal(q.normal, up);
                holding.push(MoverPlane { normal, ..held });
            }
            holding.push(held);
        }
        let clipped = clip_velocity(velocity, &holding);
        holding.retain(|q| q.normal == up);
        let pressing_velocity = clip_velocity(velocity, &holding);

        // 6. Ride: a moving ground carries the character by its velocity at the contact
        //    point. Last, and passing through the ground's own shapes: everything above was
        //    worked out against the ground where it stands, and it moves as much.
        if let Some(g) = ground {
            let body = self.bodies.at(g.body.index);
            if body.body_type != BodyType::Static {
                let carry = dt
                    * (body.linear_velocity
                        + cross_sv(body.angular_velocity, relative(g.point, body.center)));
                let mut riding_past: Vec<ShapeId> = excluded.to_vec();
                riding_past.extend_from_slice(self.body_shapes(g.body).unwrap_or(&[]));
                let ride = MoverFilter {
                    excluded: &riding_past,
                    ..filter
                };
                let ridden = self.move_and_slide(mover, at(p), carry, &ride, |_| {}).0;
                p = offset(p, ridden);
            }
        }
        Ok(CharacterMove {
            translation: relative(p, xf.p),
            velocity: clipped,
            ground,
            touching,
            stepped_up,
            pressing_velocity,
        })
    }

    /// The normal of the surface a character could stand on at `plane`, if it can: the
    /// plane's own when it is no steeper than the limit, or, where the character's round
    /// bottom rests on an edge (the plane leaning up at least `min_edge_lean`, so the edge
    /// is no higher above the bottom than a step), the face beside the edge when that is
    /// walkable (found by a short ray straight down just past the edge).
    fn standing_normal(
        &self,
        plane: &MoverPlane,
        up: Vec2,
        cos_max: f32,
        min_edge_lean: f32,
    ) -> Option<Vec2> {
        let lean = plane.normal.dot(up);
        if lean >= cos_max {
            return Some(plane.normal);
        }
        if lean < min_edge_lean {
            return None;
        }
        let record = self.shapes.at(plane.shape.index);
        let xf = self.bodies.at(record.body.index).transform;
        let inward = -(plane.normal - lean * up).normalize_or_zero();
        // Two slops past the edge, from four above: a face rising faster than that (over
        // 63 degrees) starts the ray inside the shape and is no floor.
        let slop = self.tolerances.linear_slop;
        let origin = offset(offset(plane.point, 2.0 * slop * inward), 4.0 * slop * up);
        let frame = FrameOrigin::at(origin);
        if record
            .shape
            .contains_point(frame.transform_to_frame(xf), frame.to_frame(origin))
        {
            return None;
        }
        let input = RayCastInput {
            origin,
            translation: -8.0 * slop * up,
            max_fraction: 1.0,
        };
        let hit = record.shape.ray_cast(xf, &input)?;
        (hit.normal.dot(up) >= cos_max).then_some(hit.normal)
    }

    /// Pushes the dynamic bodies a character touches, as a contact would with the character
    /// of infinite mass: each touching body of at most `max_mass` gets the impulse that
    /// stops it closing in on the character along the surface normal (none when it is
    /// moving away). Heavier bodies are not pushed: they stop the character like walls.
    /// Walkable ground is not pushed down. Returns the bodies pushed and their impulses.
    ///
    /// Derivation: the normal speed at the touch point is `vn = (v_b + w_b x r_b - v_c) . n`,
    /// with `n` into the body; `J = [n, r_b x n]` on the body only, so
    /// `K = 1/m_b + (r_b x n)^2 / I_b` and the impulse `max(-vn / K, 0)` along `n`.
    pub fn push_touched_bodies(
        &mut self,
        step: &CharacterMove,
        settings: &CharacterSettings,
        max_mass: f32,
    ) -> Vec<(BodyId, Vec2)> {
        let cos_max = settings.max_slope_angle.cos() - 1e-5;
        let mut pushed = Vec::new();
        for plane in &step.touching {
            if plane.normal.dot(settings.up) >= cos_max {
                continue;
            }
            let Ok(record) = self.shape_record(plane.shape) else {
                continue;
            };
            let id = record.body;
            let body = self.bodies.at(id.index);
            if body.body_type != BodyType::Dynamic || body.mass > max_mass || body.mass <= 0.0 {
                continue;
            }
            let n = -plane.normal;
            let r = relative(plane.point, body.center);
            let rn = crate::math::cross(r, n);
            let k = body.inv_mass + body.inv_inertia * rn * rn;
            let vb = body.linear_velocity + cross_sv(body.angular_velocity, r);
            let vn = (vb - step.pressing_velocity).dot(n);
            let impulse = (-vn / k).max(0.0);
            if impulse > 0.0
                && self
                    .apply_linear_impulse_at_point(id, impulse * n, plane.point)
                    .is_ok()
            {
                pushed.push((id, impulse * n));
            }
        }
        pushed
    }
}

/// A steep surface's normal as a wall's: its part across `up`, or its own when it has none.
fn wall_normal(normal: Vec2, up: Vec2) -> Vec2 {
    (normal - normal.dot(up) * up)
        .try_normalize()
        .unwrap_or(normal)
}

/// Turns the planes `is_wall` picks into walls straight across `up`.
fn turn_into_walls(planes: &mut [MoverPlane], up: Vec2, is_wall: impl Fn(&MoverPlane) -> bool) {
    for q in planes.iter_mut().filter(|q| is_wall(q)) {
        q.normal = wall_normal(q.normal, up);
    }
}
