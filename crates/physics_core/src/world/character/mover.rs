//! A kinematic mover's geometric move and slide, after Box2D v3.1's mover: the surfaces the
//! mover touches are collected as planes, the wanted displacement is solved against the
//! planes, the solved displacement is cast so nothing is crossed, and this repeats a few
//! times with what is left of the move. No solver bodies, no contacts: a query over the
//! world as it stands. [`World::move_character`](super::World::move_character) builds a
//! platformer's controller on top.

use crate::collision::{
    DistanceInput, ShapeProxy, SimplexCache, Sweep, ToiState, shape_distance, time_of_impact,
};
use crate::id::ShapeId;
use crate::math::{Transform, cross};
use crate::position::{FrameOrigin, Position, WorldTransform, offset};
use crate::shape::Shape;
use crate::world::{QueryFilter, World};
use bevy_math::Vec2;

/// Most passes of [`World::move_and_slide`]: each collects planes, solves and casts once.
const MAX_SLIDE_PASSES: usize = 5;
/// Most sweeps of [`solve_planes`] over its planes.
const MAX_PLANE_SWEEPS: usize = 20;

/// A surface near a mover, as a half-plane its move must stay out of.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoverPlane {
    /// Unit normal out of the surface, towards the mover.
    pub normal: Vec2,
    /// Gap between the mover's surface and the shape along `normal` (negative: overlap).
    pub separation: f32,
    /// The point on the shape's surface nearest the mover (world).
    pub point: Position,
    /// The shape the surface belongs to.
    pub shape: ShapeId,
    /// The furthest the plane may push the move back (metres); `f32::INFINITY` for solid
    /// surfaces.
    pub push_limit: f32,
    /// How far the last [`solve_planes`] pushed the move back from this plane (0 when the
    /// plane did not hold the move).
    pub push: f32,
}

/// What stops a cast mover first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoverHit {
    /// Fraction of the translation travelled before the hit.
    pub fraction: f32,
    /// The shape hit.
    pub shape: ShapeId,
    /// Unit normal out of the hit shape, towards the mover.
    pub normal: Vec2,
    /// The point hit on the shape's surface (world).
    pub point: Position,
}

/// Which shapes a mover query sees and which it passes through.
pub struct MoverFilter<'a> {
    /// Category and mask test, as for any query (sensors are never obstacles).
    pub filter: QueryFilter,
    /// Shapes never seen (the mover's own).
    pub excluded: &'a [ShapeId],
    /// Called for each surface found with its normal (towards the mover) and separation:
    /// `false` passes through it (one-way platforms say no from below).
    pub accepts: &'a dyn Fn(ShapeId, Vec2, f32) -> bool,
}

/// Solves the displacement nearest `target` that keeps the mover out of every plane.
///
/// Derivation: moving by `d`, the gap to plane `i` becomes `C_i(d) = n_i . d + s_i`, and the
/// constraint is `C_i >= 0`. The Jacobian of `C_i` in `d` is `J_i = n_i`, and with unit
/// weight on `d` the effective mass is `K = J_i J_i^T = 1`, so a push `lambda_i` moves `d`
/// by `lambda_i n_i`. Sequential impulses solve the complementarity problem (`lambda_i >=
/// 0`, `C_i >= 0`, `lambda_i C_i = 0`) sweep by sweep: each plane adds `-C_i(d)`, with its
/// running total clamped to `[0, push_limit]`. In a corner of two planes the sweeps meet
/// where both hold; a plane with a finite limit gives way after pushing that far. Stops
/// when a sweep pushes less than `tolerance` in all, or after a bounded number of sweeps.
/// Returns the displacement; each plane's `push` says how hard it held.
pub fn solve_planes(target: Vec2, planes: &mut [MoverPlane], tolerance: f32) -> Vec2 {
    for plane in planes.iter_mut() {
        plane.push = 0.0;
    }
    let mut delta = target;
    for _ in 0..MAX_PLANE_SWEEPS {
        let mut total = 0.0;
        for plane in planes.iter_mut() {
            let gap = plane.normal.dot(delta) + plane.separation;
            let before = plane.push;
            plane.push = (before - gap).clamp(0.0, plane.push_limit);
            let push = plane.push - before;
            delta += push * plane.normal;
            total += push.abs();
        }
        if total < tolerance {
            break;
        }
    }
    delta
}

/// `velocity` without its parts into the planes that held the last solve, so speed cannot
/// build up against a wall.
pub fn clip_velocity(velocity: Vec2, planes: &[MoverPlane]) -> Vec2 {
    let mut v = velocity;
    for plane in planes.iter().filter(|p| p.push > 0.0) {
        v -= v.dot(plane.normal).min(0.0) * plane.normal;
    }
    v
}

impl World {
    /// The surfaces within `margin` of `mover` (a convex shape placed at `xf`) as planes, in
    /// shape order. The mover must be rounded (a circle, a capsule or a rounded polygon):
    /// the planes come from the distance between the cores, and a shape deep enough to
    /// reach the mover's core gives none. A chain segment counts only from its solid side.
    pub fn mover_planes(
        &self,
        mover: &Shape,
        xf: impl Into<WorldTransform>,
        margin: f32,
        filter: &MoverFilter,
    ) -> Vec<MoverPlane> {
        let xf = xf.into();
        let proxy = ShapeProxy::from_shape(mover);
        let reach = mover.world_aabb(xf).expanded(margin);
        // Distances in a float frame at the mover (the world's own in the float build).
        let frame = FrameOrigin::at(xf.p);
        let centre = frame.to_frame(xf.apply(mover.centroid()));
        let mut planes = Vec::new();
        for id in self.query_aabb(&reach, &filter.filter) {
            if filter.excluded.contains(&id) {
                continue;
            }
            let record = self.shapes.at(id.index);
            if record.def.is_sensor {
                continue;
            }
            let other_xf = frame.transform_to_frame(self.bodies.at(record.body.index).transform);
            if !faces_mover(&record.shape, other_xf, centre) {
                continue;
            }
            let other = ShapeProxy::from_shape(&record.shape);
            let out = shape_distance(
                &DistanceInput {
                    proxy_a: other,
                    proxy_b: proxy,
                    transform_a: other_xf,
                    transform_b: frame.transform_to_frame(xf),
                    use_radii: false,
                },
                &mut SimplexCache::default(),
            );
            let separation = out.distance - other.radius - proxy.radius;
            // Cores touching give no direction: too deep to slide out of (Box2D skips too).
            if separation > margin || out.distance <= 0.0 || !out.normal.is_normalized() {
                continue;
            }
            if !(filter.accepts)(id, out.normal, separation) {
                continue;
            }
            planes.push(MoverPlane {
                normal: out.normal,
                separation,
                point: frame.to_world(out.point_a + other.radius * out.normal),
                shape: id,
                push_limit: f32::INFINITY,
                push: 0.0,
            });
        }
        planes
    }

    /// The first surface `mover` (at `xf`) meets when moved by `translation`: it stops a
    /// linear slop short of touching. Shapes it already touches are passed over (the planes
    /// hold those), so a mover resting on the ground can always cast along it.
    pub fn mover_cast(
        &self,
        mover: &Shape,
        xf: impl Into<WorldTransform>,
        translation: Vec2,
        filter: &MoverFilter,
    ) -> Option<MoverHit> {
        let xf = xf.into();
        let proxy = ShapeProxy::from_shape(mover);
        // The cast in a float frame at the mover (the world's own in the float build).
        let frame = FrameOrigin::at(xf.p);
        let (sweep, swept) =
            crate::world::queries::translation_sweep(mover, xf, translation, frame);
        let centre = frame.to_frame(xf.apply(mover.centroid()));
        let target = self.tolerances.linear_slop;
        let mut best: Option<MoverHit> = None;
        for id in self.query_aabb(&swept, &filter.filter) {
            if filter.excluded.contains(&id) {
                continue;
            }
            let record = self.shapes.at(id.index);
            let other_xf = frame.transform_to_frame(self.bodies.at(record.body.index).transform);
            if record.def.is_sensor || !faces_mover(&record.shape, other_xf, centre) {
                continue;
            }
            let other = ShapeProxy::from_shape(&record.shape);
            let out = time_of_impact(&proxy, &sweep, &other, &Sweep::fixed(other_xf), target);
            if out.state != ToiState::Hit || out.fraction <= 0.0 {
                continue;
            }
            if best.is_some_and(|b| b.fraction <= out.fraction) {
                continue;
            }
            let at = shape_distance(
                &DistanceInput {
                    proxy_a: other,
                    proxy_b: proxy,
                    transform_a: other_xf,
                    transform_b: sweep.transform_at(out.fraction),
                    use_radii: true,
                },
                &mut SimplexCache::default(),
            );
            let normal = at
                .normal
                .try_normalize()
                .unwrap_or(-translation.normalize_or_zero());
            if !(filter.accepts)(id, normal, at.distance) {
                continue;
            }
            best = Some(MoverHit {
                fraction: out.fraction,
                shape: id,
                normal,
                point: frame.to_world(at.point_a),
            });
        }
        best
    }

    /// Moves `mover` (at `xf`) by `delta` as far as it can, sliding along what it meets:
    /// collect the planes, solve the rest of the move against them, cast the solved
    /// displacement, advance, and again with what is left (a few passes). `adjust` may
    /// change the planes of each pass before the solve (a character controller turns steep
    /// slopes into walls there). Returns the displacement made and the planes of the last
    /// pass, with their pushes.
    pub fn move_and_slide(
        &self,
        mover: &Shape,
        xf: impl Into<WorldTransform>,
        delta: Vec2,
        filter: &MoverFilter,
        mut adjust: impl FnMut(&mut Vec<MoverPlane>),
    ) -> (Vec2, Vec<MoverPlane>) {
        let xf = xf.into();
        let slop = self.tolerances.linear_slop;
        let mut moved = Vec2::ZERO;
        let mut planes = Vec::new();
        for _ in 0..MAX_SLIDE_PASSES {
            let at = WorldTransform::new(offset(xf.p, moved), xf.q);
            planes = self.mover_planes(mover, at, 2.0 * slop, filter);
            adjust(&mut planes);
            let solved = solve_planes(delta - moved, &mut planes, 0.01 * slop);
            let fraction = self
                .mover_cast(mover, at, solved, filter)
                .map_or(1.0, |hit| hit.fraction);
            let step = fraction * solved;
            moved += step;
            if step.length_squared() < (0.1 * slop) * (0.1 * slop) {
                break;
            }
        }
        (moved, planes)
    }
}

/// False when `shape` is a chain segment and `point` is behind it: chains are solid from one
/// side only (the right of `point1 -> point2`, the core's convention).
fn faces_mover(shape: &Shape, xf: Transform, point: Vec2) -> bool {
    match shape {
        Shape::ChainSegment(s) => {
            let (p1, p2) = (xf.apply(s.point1), xf.apply(s.point2));
            cross(p2 - p1, point - p1) <= 0.0
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plane(normal: Vec2, separation: f32) -> MoverPlane {
        MoverPlane {
            normal: normal.normalize(),
            separation,
            point: Position::ZERO,
            shape: ShapeId {
                index: 0,
                generation: 0,
            },
            push_limit: f32::INFINITY,
            push: 0.0,
        }
    }

    #[test]
    fn a_floor_takes_the_downward_part_of_a_move_and_keeps_the_rest() {
        let mut planes = [plane(Vec2::Y, 0.1)];
        let d = solve_planes(Vec2::new(1.0, -1.0), &mut planes, 1e-6);
        assert!((d - Vec2::new(1.0, -0.1)).length() < 1e-6, "{d}");
        assert!((planes[0].push - 0.9).abs() < 1e-6);
        // Velocity into the floor is clipped, along it kept.
        assert_eq!(
            clip_velocity(Vec2::new(2.0, -3.0), &planes),
            Vec2::new(2.0, 0.0)
        );
    }

    #[test]
    fn a_corner_of_two_walls_stops_the_move_where_both_hold() {
        // A floor and a 45 degree wall to the right: the move right and down ends at the
        // corner's apex for a zero gap, not through either.
        let mut planes = [plane(Vec2::Y, 0.0), plane(Vec2::new(-1.0, 1.0), 0.0)];
        let d = solve_planes(Vec2::new(1.0, -1.0), &mut planes, 1e-7);
        for p in &planes {
            assert!(p.normal.dot(d) + p.separation > -1e-5, "{d}");
        }
        assert!(d.length() < 1e-4, "{d}");
    }

    #[test]
    fn a_plane_with_a_push_limit_gives_way() {
        let mut planes = [MoverPlane {
            push_limit: 0.25,
            ..plane(Vec2::Y, 0.0)
        }];
        let d = solve_planes(Vec2::new(0.0, -1.0), &mut planes, 1e-6);
        assert!((d.y + 0.75).abs() < 1e-6, "{d}");
    }
}
