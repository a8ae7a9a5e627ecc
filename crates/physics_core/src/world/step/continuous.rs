//! Continuous collision of fast dynamic bodies against static geometry, and of bullets against
//! everything.
//!
//! Speculative points only reach a few centimetres ahead, so a body that moves more than half
//! a quarter of its smallest extent in one step could pass through a thin static wall or sink deep into the
//! ground. After the solver, such a body is swept from its start pose to its end pose against
//! the static shapes along the way; at the first time of impact it is moved back to that pose
//! (keeping its velocity), and next step's speculative contact stops it at the surface. The
//! bodies jointed to it go back to that moment too (`impact_rewind.rs`).
//! Bodies flagged as bullets are swept last, also against the other dynamic bodies at their
//! final poses, so a small fast projectile cannot pass through a thin box either.
//!
//! A shape that starts the sweep already within the target distance of a wall (it was pulled
//! back to that wall last step, or is pressed against it) gets no time of impact from its full
//! outline. Its core is swept instead: a circle of a quarter of the shape's smallest extent
//! around its centroid (Box2D v3's fallback). The core reaches the wall only if the shape is
//! passing through it, so the body is stopped with most of itself still on the near side,
//! and its contacts push it back out.

use crate::body::{Body, BodyType};
use crate::broadphase::DynamicTree;
use crate::collision::{ShapeProxy, Sweep, ToiOutput, ToiState, time_of_impact};
use crate::math::{Rot, cross};
use crate::position::{FrameOrigin, Position, WorldTransform, offset, relative};
use crate::shape::{Aabb, Shape};
use crate::shape_def::ShapeRecord;
use crate::world::World;
use bevy_math::Vec2;

/// A body moving more than this fraction of its smallest extent per step is swept. A quarter
/// bounds how deep a body can sink before its contact acts (a ball at impact speed sinks at
/// most a quarter of its radius), which keeps bounce heights true to the restitution.
const FAST_FRACTION: f32 = 0.25;

/// The path of a body from (`c1`, `q1`) at the start of the step to its current pose, in
/// `frame`.
fn body_sweep(body: &Body, c1: Position, q1: Rot, frame: FrameOrigin) -> Sweep {
    Sweep {
        local_center: body.local_center,
        c1: frame.to_frame(c1),
        c2: frame.to_frame(body.center),
        q1,
        q2: body.transform.q,
    }
}

/// True when a body that moved from (`c1`, `q1`) to its current pose this step travelled far
/// enough, for its size, to need a sweep: a quarter of its smallest extent, counting rotation
/// as its largest extent times the angle turned.
pub(crate) fn moved_fast(body: &Body, c1: Position, q1: Rot) -> bool {
    // `only_shape` first: it is in the cache line the finalize reads, the list on the heap.
    if body.only_shape.is_none() && body.shapes.is_empty() {
        return false;
    }
    let (c2, q2) = (body.center, body.transform.q);
    let (dc, dq) = (relative(c2, c1), Vec2::new(q2.c - q1.c, q2.s - q1.s));
    let threshold = FAST_FRACTION * body.extents.min;
    // Nearly every body moves far less: the sum of the components' sizes bounds each length
    // from above, so well under the threshold it settles the answer without two roots. The
    // margin covers the rounding of both forms; below 1e-18 m (shapes no game has) squares
    // of components underflow and round by more than it, so the lengths decide there.
    let bound = dc.abs().element_sum()
        + dq.abs().element_sum() * std::f32::consts::FRAC_PI_2 * body.extents.max;
    if threshold > 1e-18 && bound * 1.001 < threshold {
        return false;
    }
    let travel = dc.length() + dq.length() * std::f32::consts::FRAC_PI_2 * body.extents.max;
    travel >= threshold
}

/// The body's poses at the two ends of its sweep from (`c1`, `q1`): the start as the last
/// finalize made it, the end as this one did (its transform). Not the sweep's poses at 0 and
/// 1, which normalise the rotations again and round c1 + (c2 - c1): these are the poses the
/// body had, and the end box is then the one the finalize computed already.
fn sweep_ends(body: &Body, c1: Position, q1: Rot) -> (WorldTransform, WorldTransform) {
    let start = WorldTransform::new(offset(c1, -q1.rotate(body.local_center)), q1);
    (start, body.transform)
}

/// The box a shape covers at the start and at the end of a sweep: what the sweep queries the
/// trees with.
fn swept_box(shape: &Shape, start: WorldTransform, end: WorldTransform) -> Aabb {
    shape.world_aabb(start).union(&shape.world_aabb(end))
}

/// Whether a body that moved from (`c1`, `q1`) to its current pose could meet static
/// geometry on the way: the box some non-sensor shape sweeps over overlaps a box in
/// `static_tree`. When none does, [`World::solve_continuous`] would find nothing to stop at
/// (a body that is not a bullet is swept against the static tree alone), so the finalize's
/// parallel pass asks this and leaves such bodies out of its serial pass: the same answer,
/// without the serial pass reading each fast body's shapes again. `only_end_box` is the box
/// of a body's only shape at its current pose, when the caller has it; `own_shape` gives the
/// record of one of the body's shapes by slot.
pub(crate) fn sweep_meets_static<'s>(
    body: &Body,
    c1: Position,
    q1: Rot,
    own_shape: impl Fn(u32) -> &'s ShapeRecord,
    static_tree: &DynamicTree,
    only_end_box: Option<Aabb>,
) -> bool {
    // A world without static shapes (smash's crowd in empty space) has nothing to meet: no
    // swept box to compute for each fast body.
    if static_tree.proxy_count() == 0 {
        return false;
    }
    let (start, end) = sweep_ends(body, c1, q1);
    let meets = |slot: u32, end_box: Option<Aabb>| {
        let record = own_shape(slot);
        if record.def.is_sensor {
            return false;
        }
        let end_box = end_box.unwrap_or_else(|| record.shape.world_aabb(end));
        let swept = record.shape.world_aabb(start).union(&end_box);
        let mut met = false;
        static_tree.query(&swept, |_, _| {
            met = true;
            false
        });
        met
    };
    // A body of one shape names it without the heap read of `shapes`.
    match body.only_shape {
        Some(only) => meets(only, only_end_box),
        None => body.shapes.iter().any(|id| meets(id.index, None)),
    }
}

impl World {
    /// Sweeps a dynamic body that moved from (`c1`, `q1`) to its current pose this step, and
    /// pulls it back to the first impact with static geometry if it moved fast. Returns the
    /// fraction of the step at which it was stopped, 1 when it was not.
    pub(crate) fn solve_continuous(&mut self, body_slot: u32, c1: Position, q1: Rot) -> f32 {
        let body = self.bodies.at(body_slot);
        let bullet = body.bullet;
        let start_pose = (c1, q1);
        // The sweep and every time of impact run in a float frame at the body's start.
        let frame = FrameOrigin::at(c1);
        let c2 = frame.to_frame(body.center);
        let sweep = body_sweep(body, c1, q1, frame);
        if !moved_fast(body, c1, q1) {
            return 1.0;
        }

        self.counters.bodies_swept += 1;
        let min_extent = body.extents.min;
        let target = self.tolerances.linear_slop;
        let mut first = 1.0f32;
        let (start, end) = sweep_ends(body, c1, q1);
        let (start_in_frame, end_in_frame) = (
            frame.transform_to_frame(start),
            frame.transform_to_frame(end),
        );
        let c1 = frame.to_frame(c1);
        for id in &body.shapes {
            let record = self.shapes.at(id.index);
            if record.def.is_sensor {
                continue;
            }
            let swept_box = swept_box(&record.shape, start, end);
            let proxy = ShapeProxy::from_shape(&record.shape);
            let centroid = record.shape.centroid();
            let core_radius = 0.25 * record.shape.extents(centroid, 0.0).0;
            let core = ShapeProxy::from_points(&[centroid], core_radius);
            let mut sweep_against = |data: u64| {
                let other = self.shapes.at(data as u32);
                let other_body = self.bodies.at(other.body.index);
                let blocks = !other.def.is_sensor
                    && other.body != record.body
                    && record.def.filter.should_collide(&other.def.filter)
                    && !self.joint_blocks_collision(body_slot, other.body.index);
                // A bullet meets dynamic bodies at their end-of-step pose (they were swept
                // first); other fast bodies only meet static geometry.
                let fixed = other_body.body_type == BodyType::Static
                    || (bullet && other_body.body_type == BodyType::Dynamic && !other_body.bullet);
                // A chain is swept against only by a body heading into it from its front:
                // one behind it passes through (it is one-sided), and one moving along it
                // (its centre closing in by less than its core and staying clear by more)
                // would otherwise be pulled back at every joint ahead, as Box2D v3 notes.
                let along_chain = match &other.shape {
                    Shape::ChainSegment(segment) => {
                        let normal = other_body.transform.q.rotate(segment.normal());
                        let on_line = frame.to_frame(other_body.transform.apply(segment.point1));
                        let d1 = normal.dot(c1 - on_line);
                        let d2 = normal.dot(c2 - on_line);
                        let core = FAST_FRACTION * min_extent;
                        d1 < 0.0 || (d1 - d2 < core && d2 > core)
                    }
                    _ => false,
                };
                if blocks && fixed && !along_chain {
                    let wall = ShapeProxy::from_shape(&other.shape);
                    let wall_sweep = Sweep::fixed(frame.transform_to_frame(other_body.transform));
                    let mut out = time_of_impact(&proxy, &sweep, &wall, &wall_sweep, target);
                    // Within the target at the start: reported as overlapped, or as a hit at
                    // fraction zero when the sweep starts right at the target distance.
                    let at_start = out.state == ToiState::Overlapped
                        || (out.state == ToiState::Hit && out.fraction == 0.0);
                    if at_start {
                        out = time_of_impact(&core, &sweep, &wall, &wall_sweep, target);
                        if let Shape::Segment(segment) = &other.shape {
                            // A segment is two-sided: once the core sits against it, the core
                            // sweep starts within the target too, so the centroid's path is
                            // checked for crossing the segment instead.
                            let to_frame = |p: Vec2| frame.to_frame(other_body.transform.apply(p));
                            let (p1, p2) = (to_frame(segment.point1), to_frame(segment.point2));
                            let (c0, c1) =
                                (start_in_frame.apply(centroid), end_in_frame.apply(centroid));
                            if let Some(t) = centroid_crossing(p1, p2, c0, c1, core_radius) {
                                out = ToiOutput {
                                    state: ToiState::Hit,
                                    fraction: t,
                                };
                            }
                        }
                    }
                    if out.state == ToiState::Hit && out.fraction > 0.0 && out.fraction < first {
                        first = out.fraction;
                    }
                }
            };
            self.broadphase.static_tree.query(&swept_box, |_, data| {
                sweep_against(data);
                true
            });
            if bullet {
                self.broadphase.moving_tree.query(&swept_box, |_, data| {
                    sweep_against(data);
                    true
                });
            }
        }
        if first < 1.0 {
            self.drop_kept_solver_bodies();
            let (c1, q1) = start_pose;
            move_along_step(self.bodies.at_mut(body_slot), c1, q1, first);
        }
        first
    }
}

/// Puts `body` at the fraction `t` of its path this step, from (`c1`, `q1`) at the start of
/// the step to its pose now, along the sweep (`body_sweep`): where a sweep that stops it at
/// `t` leaves it.
pub(crate) fn move_along_step(body: &mut Body, c1: Position, q1: Rot, t: f32) {
    let frame = FrameOrigin::at(c1);
    let xf = frame.transform_to_world(body_sweep(body, c1, q1, frame).transform_at(t));
    body.transform = xf;
    body.center = xf.apply(body.local_center);
}

/// The fraction of the straight path `c0` -> `c1` at which a point stops `margin` short of
/// the line through segment `p1` -> `p2`, if the path crosses the segment itself. A path
/// that starts within the margin stops at its start: the smallest positive fraction, since a
/// zero fraction means "touching at the start, nothing to do" to the caller.
fn centroid_crossing(p1: Vec2, p2: Vec2, c0: Vec2, c1: Vec2, margin: f32) -> Option<f32> {
    let edge = p2 - p1;
    let length = edge.length();
    if length == 0.0 {
        return None;
    }
    // Signed distances from the segment's line at the start and end of the path.
    let (d0, d1) = (cross(edge, c0 - p1) / length, cross(edge, c1 - p1) / length);
    if d0 * d1 > 0.0 || d0 == d1 {
        return None;
    }
    let t_cross = d0 / (d0 - d1);
    let at_cross = c0 + t_cross * (c1 - c0);
    let along = (at_cross - p1).dot(edge) / (length * length);
    if !(0.0..=1.0).contains(&along) {
        return None;
    }
    Some(((d0.abs() - margin) / (d0 - d1).abs()).max(f32::MIN_POSITIVE))
}

#[cfg(test)]
mod tests {
    use super::{FAST_FRACTION, centroid_crossing, moved_fast};
    use crate::body::{BodyDef, BodyExtents};
    use crate::position::{offset, relative, to_position};
    use crate::shape::{Circle, MassData, Polygon, Shape};
    use crate::shape_def::ShapeDef;
    use crate::world::{World, WorldDef};
    use bevy_math::Vec2;

    /// A body's extents found by walking all its shapes, to hold the kept ones against.
    fn walked_extents(world: &World, index: u32) -> BodyExtents {
        let body = world.bodies.at(index);
        let slop = world.tolerances.linear_slop;
        let mut e = BodyExtents {
            min: f32::INFINITY,
            max: 0.0,
        };
        for s in &body.shapes {
            let (lo, hi) = world
                .shapes
                .at(s.index)
                .shape
                .extents(body.local_center, slop);
            (e.min, e.max) = (e.min.min(lo), e.max.max(hi));
        }
        e
    }

    /// The extents every step's sweep test reads are kept, not recomputed: after a shape is
    /// added or destroyed, the centre of mass is overridden, or a snapshot is restored, they
    /// are what the shapes say about the current centre of mass.
    #[test]
    fn kept_body_extents_follow_shapes_centre_and_restore() {
        let mut world = World::new(WorldDef::default()).unwrap();
        let id = world.create_body(&BodyDef::dynamic(Vec2::ZERO)).unwrap();
        let def = ShapeDef::default();
        let expected = |world: &World| walked_extents(world, id.index);
        let kept = |world: &World| world.bodies.at(id.index).extents;

        // A 1 m box around the centre: 0.5 m thin, reaching its corner.
        let square = Shape::Polygon(Polygon::new_box(0.5, 0.5).unwrap());
        world.create_shape(id, &def, square).unwrap();
        assert!((kept(&world).min - 0.5).abs() < 1e-6);
        assert!((kept(&world).max - 0.5 * 2f32.sqrt()).abs() < 1e-6);

        // A small circle 3 m away: thinner, and the centre of mass moves towards it.
        let far = Shape::Circle(Circle::new(Vec2::new(3.0, 0.0), 0.1).unwrap());
        let circle = world.create_shape(id, &def, far).unwrap();
        assert_eq!(kept(&world), expected(&world));
        assert!((kept(&world).min - 0.1).abs() < 1e-6);

        // An overridden centre of mass changes how far the shapes reach.
        let before = kept(&world);
        let mass = MassData {
            mass: 1.0,
            center: Vec2::new(-2.0, 0.0),
            rotational_inertia: 1.0,
        };
        world.set_mass_data(id, Some(mass)).unwrap();
        assert_eq!(kept(&world), expected(&world));
        assert!(kept(&world).max > before.max + 1.0);

        // Destroying the circle leaves the box's thickness.
        // (Through bytes: the extents are not stored, so reading them back must recompute.)
        let bytes = world.snapshot().to_bytes();
        world.destroy_shape(circle).unwrap();
        assert_eq!(kept(&world), expected(&world));
        assert!((kept(&world).min - 0.5).abs() < 1e-6);

        // Restoring brings the circle (and its extents) back.
        let snapshot = crate::world::WorldSnapshot::from_bytes(&bytes).unwrap();
        world.restore(&snapshot).unwrap();
        assert_eq!(kept(&world), expected(&world));
        assert!((kept(&world).min - 0.1).abs() < 1e-6);
    }

    /// A fixed or kinematic body takes each new shape into its kept extents without walking
    /// its other shapes (`World::update_mass_with_new_shape`), and reaches the bits a walk
    /// over all of them gives: after each of many shapes of different sizes and places, and
    /// after one is destroyed.
    #[test]
    fn regression_a_fixed_body_of_many_shapes_was_quadratic_to_build() {
        let mut world = World::new(WorldDef::default()).unwrap();
        let fixed = world.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
        let kinematic = world
            .create_body(&BodyDef::kinematic(Vec2::new(0.0, 50.0)))
            .unwrap();
        let def = ShapeDef::default();
        let mut last = None;
        for k in 0..200 {
            let size = 0.05 + 0.013 * ((k * 37) % 61) as f32;
            let at = Vec2::new((k % 17) as f32 - 8.0, (k % 5) as f32 * 0.7);
            let shape = if k % 3 == 0 {
                Shape::Circle(Circle::new(at, size).unwrap())
            } else {
                let xf =
                    crate::math::Transform::new(at, crate::math::Rot::from_angle(0.1 * k as f32));
                Shape::Polygon(Polygon::new_box(size, 0.5 * size).unwrap().transformed(xf))
            };
            for body in [fixed, kinematic] {
                last = Some(world.create_shape(body, &def, shape).unwrap());
                let kept = world.bodies.at(body.index).extents;
                assert_eq!(kept, walked_extents(&world, body.index), "shape {k}");
                assert_eq!(world.bodies.at(body.index).only_shape.is_some(), k == 0);
            }
        }
        world.destroy_shape(last.unwrap()).unwrap();
        assert_eq!(
            world.bodies.at(kinematic.index).extents,
            walked_extents(&world, kinematic.index)
        );
    }

    #[test]
    fn a_path_through_a_segment_stops_short_of_it() {
        let (p1, p2) = (Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0));
        // From 1 m below to 1 m above: stops 0.1 m short, at 0.45 of the way.
        let t = centroid_crossing(p1, p2, Vec2::new(0.0, -1.0), Vec2::new(0.0, 1.0), 0.1);
        assert!((t.unwrap() - 0.45).abs() < 1e-6);
        // Already within the margin: stops at the start, with a fraction the caller acts on.
        let t = centroid_crossing(p1, p2, Vec2::new(0.0, -0.05), Vec2::new(0.0, 1.0), 0.1);
        assert!(t.unwrap() > 0.0 && t.unwrap() < 1e-30);
        // Passing beside the segment's end, or staying on one side: no stop.
        let beside = centroid_crossing(p1, p2, Vec2::new(2.0, -1.0), Vec2::new(2.0, 1.0), 0.1);
        assert_eq!(beside, None);
        let same_side = centroid_crossing(p1, p2, Vec2::new(0.0, -1.0), Vec2::new(0.5, -0.2), 0.1);
        assert_eq!(same_side, None);
    }

    /// The root-free shortcut in `moved_fast` only answers where the lengths agree with it:
    /// for moves and turns scattered around the threshold (a 1 m box's quarter of its
    /// 0.5 m thickness), it says what the two lengths say.
    #[test]
    fn moved_fast_agrees_with_its_lengths_around_the_threshold() {
        let mut world = World::new(WorldDef::default()).unwrap();
        let id = world.create_body(&BodyDef::dynamic(Vec2::ZERO)).unwrap();
        let square = Shape::Polygon(Polygon::new_box(0.5, 0.5).unwrap());
        world
            .create_shape(id, &ShapeDef::default(), square)
            .unwrap();
        let body = world.bodies.at(id.index).clone();
        let threshold = FAST_FRACTION * body.extents.min;
        let mut seed = 12_345u32;
        let mut uniform = move || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (seed >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0
        };
        let (mut fast, mut slow) = (0, 0);
        for _ in 0..20_000 {
            // Moves of up to the threshold in each direction, turns of up to 0.05 rad.
            let c1 = to_position(Vec2::new(uniform(), uniform()) * threshold);
            let q1 = crate::math::Rot::from_angle(uniform() * 0.05);
            let exact = {
                let (c2, q2) = (body.center, body.transform.q);
                let turn = Vec2::new(q2.c - q1.c, q2.s - q1.s).length();
                relative(c1, c2).length() + turn * std::f32::consts::FRAC_PI_2 * body.extents.max
                    >= threshold
            };
            assert_eq!(moved_fast(&body, c1, q1), exact, "from {c1} turned {q1:?}");
            if exact {
                fast += 1;
            } else {
                slow += 1;
            }
        }
        assert!(
            fast > 1000 && slow > 1000,
            "both sides sampled: {fast} {slow}"
        );
    }

    /// Regression: on a body thinner than 1e-18 m the squares of its moves underflow, and the
    /// shortcut's bound said "slow" where the lengths say "fast" (a 1.2e-22 m circle moved
    /// 2.7e-23 m: 0.9 of its threshold by the bound, 1.25 by the rounded length).
    #[test]
    fn regression_moved_fast_on_a_microscopic_body_follows_its_lengths() {
        let mut world = World::new(WorldDef::default()).unwrap();
        let id = world.create_body(&BodyDef::dynamic(Vec2::ZERO)).unwrap();
        let speck = Shape::Circle(Circle::new(Vec2::ZERO, 1.2e-22).unwrap());
        world.create_shape(id, &ShapeDef::default(), speck).unwrap();
        let body = world.bodies.at(id.index).clone();
        let c1 = offset(body.center, -Vec2::new(2.7e-23, 0.0));
        let by_lengths = relative(c1, body.center).length() >= FAST_FRACTION * body.extents.min;
        assert!(by_lengths, "the rounded length is over the threshold");
        assert!(moved_fast(&body, c1, body.transform.q));
    }
}
