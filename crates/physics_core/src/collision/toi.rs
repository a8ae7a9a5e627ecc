//! Time of impact by conservative advancement.
//!
//! Both shapes move on a sweep over the step (centre of mass linearly, rotation by normalised
//! linear interpolation). From t = 0, GJK gives the distance d and the normal n; no point of B
//! can approach A faster than the closing speed along n plus each body's spin times its
//! largest radius, so the shapes cannot reach the target separation before
//! t + (d - target) / bound. Advancing by that much repeatedly converges on the first time
//! the distance reaches the target, never stepping past it.

use super::distance::{DistanceInput, SimplexCache, shape_distance};
use super::proxy::ShapeProxy;
use crate::math::{Rot, Transform};
use bevy_math::Vec2;

/// Iteration limit of the advancement.
const MAX_ITERATIONS: usize = 50;

/// The motion of a body over one step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sweep {
    /// Centre of mass in the body frame.
    pub local_center: Vec2,
    /// World centre of mass at the start.
    pub c1: Vec2,
    /// World centre of mass at the end.
    pub c2: Vec2,
    /// Rotation at the start.
    pub q1: Rot,
    /// Rotation at the end.
    pub q2: Rot,
}

impl Sweep {
    /// A body that does not move.
    pub fn fixed(xf: Transform) -> Sweep {
        Sweep {
            local_center: Vec2::ZERO,
            c1: xf.p,
            c2: xf.p,
            q1: xf.q,
            q2: xf.q,
        }
    }

    /// The body transform at fraction `t` of the step.
    pub fn transform_at(&self, t: f32) -> Transform {
        let c = self.c1 + t * (self.c2 - self.c1);
        let q = Rot {
            c: self.q1.c + t * (self.q2.c - self.q1.c),
            s: self.q1.s + t * (self.q2.s - self.q1.s),
        }
        .normalize();
        Transform::new(c - q.rotate(self.local_center), q)
    }

    /// An upper bound of the angle turned over the step: the chord between the two rotations
    /// times pi/2 (chord = 2 sin(angle/2) >= angle * 2/pi for angles up to pi).
    fn angle_bound(&self) -> f32 {
        let chord = Vec2::new(self.q2.c - self.q1.c, self.q2.s - self.q1.s).length();
        chord * std::f32::consts::FRAC_PI_2
    }
}

/// How a time-of-impact query ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToiState {
    /// The shapes reach the target separation at `fraction`.
    Hit,
    /// They stay further apart than the target over the whole sweep.
    Separated,
    /// Already closer than the target at the start (the contact solver handles them).
    Overlapped,
}

/// Result of a time-of-impact query.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ToiOutput {
    /// How it ended.
    pub state: ToiState,
    /// Fraction of the sweep at the hit (1 when separated, 0 when overlapped).
    pub fraction: f32,
}

/// First fraction of the sweeps at which the shapes come within `target` of each other.
pub fn time_of_impact(
    proxy_a: &ShapeProxy,
    sweep_a: &Sweep,
    proxy_b: &ShapeProxy,
    sweep_b: &Sweep,
    target: f32,
) -> ToiOutput {
    let extent = |proxy: &ShapeProxy, sweep: &Sweep| {
        proxy
            .points()
            .iter()
            .map(|p| p.distance(sweep.local_center))
            .fold(0.0f32, f32::max)
            + proxy.radius
    };
    let spin_bound = sweep_a.angle_bound() * extent(proxy_a, sweep_a)
        + sweep_b.angle_bound() * extent(proxy_b, sweep_b);
    let relative_motion = (sweep_b.c2 - sweep_b.c1) - (sweep_a.c2 - sweep_a.c1);
    let tolerance = 0.25 * target;
    let mut cache = SimplexCache::default();
    let mut t = 0.0f32;
    for _ in 0..MAX_ITERATIONS {
        let input = DistanceInput {
            proxy_a: *proxy_a,
            proxy_b: *proxy_b,
            transform_a: sweep_a.transform_at(t),
            transform_b: sweep_b.transform_at(t),
            use_radii: true,
        };
        let out = shape_distance(&input, &mut cache);
        if out.distance < target + tolerance {
            let state = if t == 0.0 && out.distance < target {
                ToiState::Overlapped
            } else {
                ToiState::Hit
            };
            return ToiOutput { state, fraction: t };
        }
        let closing = -out.normal.dot(relative_motion) + spin_bound;
        if closing <= 0.0 {
            break;
        }
        t += (out.distance - target) / closing;
        if t >= 1.0 {
            break;
        }
    }
    ToiOutput {
        state: ToiState::Separated,
        fraction: 1.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Circle, Polygon, Shape};

    #[test]
    fn fast_ball_hits_a_thin_wall_at_the_right_fraction() {
        let ball = ShapeProxy::from_shape(&Shape::Circle(Circle::new(Vec2::ZERO, 0.1).unwrap()));
        let wall = ShapeProxy::from_shape(&Shape::Polygon(Polygon::new_box(0.05, 2.0).unwrap()));
        // From x = -5 to x = +5 in one step: passes straight through the wall at x = 0.
        let sweep_ball = Sweep {
            local_center: Vec2::ZERO,
            c1: Vec2::new(-5.0, 0.0),
            c2: Vec2::new(5.0, 0.0),
            q1: Rot::IDENTITY,
            q2: Rot::IDENTITY,
        };
        let out = time_of_impact(
            &ball,
            &sweep_ball,
            &wall,
            &Sweep::fixed(Transform::IDENTITY),
            0.005,
        );
        assert_eq!(out.state, ToiState::Hit);
        // Contact when the ball's edge reaches the wall's face at x = -0.05 (centre at -0.15),
        // less the target separation, within the quarter-target tolerance.
        let x = -5.0 + 10.0 * out.fraction;
        assert!(
            x < -0.15 - 0.005 + 1e-4 && x > -0.15 - 0.005 - 0.0013,
            "x {x}"
        );
    }

    #[test]
    fn missing_and_starting_overlapped_are_reported() {
        let ball = ShapeProxy::from_shape(&Shape::Circle(Circle::new(Vec2::ZERO, 0.5).unwrap()));
        let fixed = Sweep::fixed(Transform::IDENTITY);
        let passing = Sweep {
            local_center: Vec2::ZERO,
            c1: Vec2::new(-5.0, 3.0),
            c2: Vec2::new(5.0, 3.0),
            q1: Rot::IDENTITY,
            q2: Rot::from_angle(1.0),
        };
        assert_eq!(
            time_of_impact(&ball, &passing, &ball, &fixed, 0.005).state,
            ToiState::Separated
        );
        let inside = Sweep {
            c1: Vec2::new(0.5, 0.0),
            ..passing
        };
        assert_eq!(
            time_of_impact(&ball, &inside, &ball, &fixed, 0.005).state,
            ToiState::Overlapped
        );
    }
}
