//! Explosions: an impulse on every dynamic body near a point, pushing it away.

use super::{QueryFilter, World, WorldError};
use crate::collision::{DistanceInput, ShapeProxy, SimplexCache, shape_distance};
use crate::id::BodyId;
use crate::math::Transform;
use crate::position::{FrameOrigin, Position, is_finite_position, offset, outward_corners};
use crate::shape::Aabb;
use bevy_math::Vec2;

impl World {
    /// Pushes every dynamic body with a shape within `radius` of `center` directly away from
    /// it. The impulse is `impulse` for a shape touching the centre and falls off linearly to
    /// zero at `radius`; it is applied at the body's point nearest the centre (so bodies
    /// also spin), once per body, from its nearest shape. Sensors and shapes the filter
    /// leaves out are not pushed. Sleeping bodies wake. Returns the bodies pushed and their
    /// impulses, in body order.
    pub fn explode(
        &mut self,
        center: impl Into<Position>,
        radius: f32,
        impulse: f32,
        filter: &QueryFilter,
    ) -> Result<Vec<(BodyId, Vec2)>, WorldError> {
        let center = center.into();
        if !is_finite_position(center) {
            return Err(WorldError::NonFinite("explosion centre"));
        }
        if !(radius.is_finite() && radius > 0.0) {
            return Err(WorldError::InvalidSetting(
                "an explosion needs a positive, finite radius",
            ));
        }
        if !(impulse.is_finite() && impulse >= 0.0) {
            return Err(WorldError::InvalidSetting(
                "an explosion's impulse must be finite and not negative",
            ));
        }
        let (low, high) = outward_corners(
            offset(center, -Vec2::splat(radius)),
            offset(center, Vec2::splat(radius)),
        );
        let area = Aabb::new(low, high);
        // Distances are measured in a float frame at the centre (the world's own frame in
        // the float build).
        let frame = FrameOrigin::at(center);
        let center_in_frame = frame.to_frame(center);
        // The nearest point of each dynamic body within reach: (distance, point in frame).
        let mut nearest: Vec<(BodyId, f32, Vec2)> = Vec::new();
        let point_proxy = ShapeProxy::from_points(&[Vec2::ZERO], 0.0);
        for shape_id in self.query_aabb(&area, filter) {
            let Ok(record) = self.shape_record(shape_id) else {
                continue;
            };
            let body_id = record.body;
            let body = self.bodies.at(body_id.index);
            if body.body_type != crate::body::BodyType::Dynamic || record.def.is_sensor {
                continue;
            }
            let input = DistanceInput {
                proxy_a: ShapeProxy::from_shape(&record.shape),
                proxy_b: point_proxy,
                transform_a: frame.transform_to_frame(body.transform),
                transform_b: Transform::new(center_in_frame, crate::math::Rot::IDENTITY),
                use_radii: true,
            };
            let output = shape_distance(&input, &mut SimplexCache::default());
            let (distance, point) = (output.distance, output.point_a);
            if distance >= radius {
                continue;
            }
            match nearest.iter_mut().find(|(b, ..)| *b == body_id) {
                Some(entry) if entry.1 <= distance => {}
                Some(entry) => *entry = (body_id, distance, point),
                None => nearest.push((body_id, distance, point)),
            }
        }
        nearest.sort_by_key(|(b, ..)| b.index);
        let mut pushed = Vec::with_capacity(nearest.len());
        for (body, distance, point) in nearest {
            let strength = impulse * (1.0 - distance / radius);
            // From the centre through the nearest point; a body over the centre is pushed
            // away through its own centre of mass, or up when that too is the centre.
            let body_center = frame.to_frame(self.bodies.at(body.index).center);
            let away = (point - center_in_frame)
                .try_normalize()
                .or_else(|| (body_center - center_in_frame).try_normalize())
                .unwrap_or(Vec2::Y);
            let push = strength * away;
            self.apply_linear_impulse_at_point(body, push, frame.to_world(point))?;
            pushed.push((body, push));
        }
        Ok(pushed)
    }
}
