//! Small 2D math: rotations stored as (cos, sin), rigid transforms, and the cross-product
//! helpers that 2D rigid-body formulas are written with.
//!
//! Rotations never store an angle: composing, inverting and integrating them uses only
//! multiplications, additions and one square root, so results are the same on every platform.

use bevy_math::Vec2;
use serde::{Deserialize, Serialize};

/// 2D cross product of two vectors: the z component of `(a.x, a.y, 0) x (b.x, b.y, 0)`.
#[inline]
pub fn cross(a: Vec2, b: Vec2) -> f32 {
    a.x * b.y - a.y * b.x
}

/// Cross product of a vector with a scalar z-axis vector: `v x (0, 0, s) = (s v.y, -s v.x)`.
#[inline]
pub fn cross_vs(v: Vec2, s: f32) -> Vec2 {
    Vec2::new(s * v.y, -s * v.x)
}

/// Cross product of a scalar z-axis vector with a vector: `(0, 0, s) x v = (-s v.y, s v.x)`.
///
/// This is the velocity of a point at offset `v` on a body spinning at `s` rad/s.
#[inline]
pub fn cross_sv(s: f32, v: Vec2) -> Vec2 {
    Vec2::new(-s * v.y, s * v.x)
}

/// The vector turned a quarter turn counter-clockwise: `(-y, x)`.
#[inline]
pub fn left_perp(v: Vec2) -> Vec2 {
    Vec2::new(-v.y, v.x)
}

/// The vector turned a quarter turn clockwise: `(y, -x)`. For an edge of a counter-clockwise
/// polygon this points out of the polygon.
#[inline]
pub fn right_perp(v: Vec2) -> Vec2 {
    Vec2::new(v.y, -v.x)
}

/// True when both components are finite (neither NaN nor infinite).
#[inline]
pub fn is_finite_vec(v: Vec2) -> bool {
    v.x.is_finite() && v.y.is_finite()
}

/// Length and unit direction of `v`; a zero vector (shorter than `f32::EPSILON`) gives
/// `(0, Vec2::ZERO)` rather than a NaN direction.
#[inline]
pub fn length_and_normalize(v: Vec2) -> (f32, Vec2) {
    let length = v.length();
    if length < f32::EPSILON {
        (0.0, Vec2::ZERO)
    } else {
        (length, v / length)
    }
}

/// A rotation stored as its cosine and sine.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[repr(C)]
pub struct Rot {
    /// Cosine of the angle.
    pub c: f32,
    /// Sine of the angle.
    pub s: f32,
}

impl Default for Rot {
    fn default() -> Self {
        Self::IDENTITY
    }
}

/// The angle of the point (`x`, `y`) in `(-pi, pi]` (0 at the origin), within 3e-7 rad.
///
/// Unlike `f32::atan2`, which calls the platform's maths library, this uses only additions,
/// multiplications and divisions, which IEEE 754 rounds the same way everywhere: the step
/// computes joint angles with it, so a simulation gives the same bits on every machine.
///
/// Octant reduction brings the ratio to t in [0, 1]; above tan(pi/12), atan(t) = pi/6 +
/// atan((sqrt(3) t - 1) / (sqrt(3) + t)) brings it to |t| <= tan(pi/12) = 0.268, where the
/// odd series t - t^3/3 + ... + t^9/9 is off by less than t^11/11 < 5e-8.
pub fn atan2(y: f32, x: f32) -> f32 {
    use std::f32::consts::{FRAC_PI_2, FRAC_PI_6, PI};
    const SQRT_3: f32 = 1.732_050_8;
    const TAN_PI_12: f32 = 0.267_949_2;
    if x == 0.0 && y == 0.0 {
        return 0.0;
    }
    let (ax, ay) = (x.abs(), y.abs());
    let steep = ay > ax;
    let t = if steep { ax / ay } else { ay / ax };
    let series = |t: f32| {
        let t2 = t * t;
        t * (1.0 + t2 * (-1.0 / 3.0 + t2 * (1.0 / 5.0 + t2 * (-1.0 / 7.0 + t2 * (1.0 / 9.0)))))
    };
    let mut r = if t > TAN_PI_12 {
        FRAC_PI_6 + series((SQRT_3 * t - 1.0) / (SQRT_3 + t))
    } else {
        series(t)
    };
    if steep {
        r = FRAC_PI_2 - r;
    }
    if x < 0.0 {
        r = PI - r;
    }
    if y < 0.0 { -r } else { r }
}

impl Rot {
    /// No rotation.
    pub const IDENTITY: Rot = Rot { c: 1.0, s: 0.0 };

    /// The rotation by `angle` radians counter-clockwise.
    ///
    /// Uses the platform's `sin`/`cos`; it is meant for user input, not for the step.
    pub fn from_angle(angle: f32) -> Self {
        let (s, c) = angle.sin_cos();
        Rot { c, s }
    }

    /// The angle in radians, in `(-pi, pi]`, by [`atan2`] (the same bits on every platform).
    pub fn angle(self) -> f32 {
        atan2(self.s, self.c)
    }

    /// Rescales (cos, sin) to unit length; a zero input gives the identity.
    pub fn normalize(self) -> Self {
        let mag = (self.c * self.c + self.s * self.s).sqrt();
        if mag < f32::EPSILON {
            return Self::IDENTITY;
        }
        let inv = 1.0 / mag;
        Rot {
            c: self.c * inv,
            s: self.s * inv,
        }
    }

    /// Advances the rotation by `delta_angle` radians without trigonometry:
    /// `q + delta * perp(q)`, renormalised. Exact to first order, which is what the solver's
    /// substeps need, and bit-identical on every platform.
    pub fn integrate(self, delta_angle: f32) -> Self {
        Rot {
            c: self.c - delta_angle * self.s,
            s: self.s + delta_angle * self.c,
        }
        .normalize()
    }

    /// True when the components are finite and of unit length within a small tolerance.
    pub fn is_valid(self) -> bool {
        self.c.is_finite()
            && self.s.is_finite()
            && ((self.c * self.c + self.s * self.s) - 1.0).abs() < 1e-4
    }

    /// The unit x axis of the rotated frame.
    #[inline]
    pub fn x_axis(self) -> Vec2 {
        Vec2::new(self.c, self.s)
    }

    /// Rotates a vector.
    #[inline]
    pub fn rotate(self, v: Vec2) -> Vec2 {
        Vec2::new(self.c * v.x - self.s * v.y, self.s * v.x + self.c * v.y)
    }

    /// Rotates a vector by the inverse rotation.
    #[inline]
    pub fn inv_rotate(self, v: Vec2) -> Vec2 {
        Vec2::new(self.c * v.x + self.s * v.y, -self.s * v.x + self.c * v.y)
    }

    /// The composition `inverse(self) * other`: `other` seen from `self`'s frame.
    #[inline]
    pub fn inv_mul(self, other: Rot) -> Rot {
        Rot {
            c: self.c * other.c + self.s * other.s,
            s: self.c * other.s - self.s * other.c,
        }
    }

    /// The inverse rotation (the same angle the other way).
    #[inline]
    pub fn inverse(self) -> Rot {
        Rot {
            c: self.c,
            s: -self.s,
        }
    }

    /// The signed angle from `self` to `other`, in `(-pi, pi]`.
    pub fn relative_angle(self, other: Rot) -> f32 {
        let r = self.inv_mul(other);
        atan2(r.s, r.c)
    }
}

/// A rigid transform: rotate by `q`, then translate by `p`.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct Transform {
    /// Translation.
    pub p: Vec2,
    /// Rotation.
    pub q: Rot,
}

impl Transform {
    /// No translation, no rotation.
    pub const IDENTITY: Transform = Transform {
        p: Vec2::ZERO,
        q: Rot::IDENTITY,
    };

    /// A transform from a translation and a rotation.
    pub fn new(p: Vec2, q: Rot) -> Self {
        Transform { p, q }
    }

    /// A transform from a translation and an angle in radians.
    pub fn from_angle(p: Vec2, angle: f32) -> Self {
        Transform {
            p,
            q: Rot::from_angle(angle),
        }
    }

    /// Maps a point from local to world coordinates.
    #[inline]
    pub fn apply(self, v: Vec2) -> Vec2 {
        self.q.rotate(v) + self.p
    }

    /// Maps a point from world to local coordinates.
    #[inline]
    pub fn apply_inverse(self, v: Vec2) -> Vec2 {
        self.q.inv_rotate(v - self.p)
    }

    /// The composition `inverse(self) * other`: `other` expressed in `self`'s frame.
    #[inline]
    pub fn inv_mul(self, other: Transform) -> Transform {
        Transform {
            p: self.q.inv_rotate(other.p - self.p),
            q: self.q.inv_mul(other.q),
        }
    }

    /// True when the translation is finite and the rotation valid.
    pub fn is_valid(self) -> bool {
        is_finite_vec(self.p) && self.q.is_valid()
    }
}

impl std::ops::Mul for Rot {
    type Output = Rot;
    /// The composition `self * other` (apply `other` first).
    #[inline]
    fn mul(self, other: Rot) -> Rot {
        Rot {
            c: self.c * other.c - self.s * other.s,
            s: self.s * other.c + self.c * other.s,
        }
    }
}

impl std::ops::Mul for Transform {
    type Output = Transform;
    /// The composition `self * other` (apply `other` first).
    #[inline]
    fn mul(self, other: Transform) -> Transform {
        Transform {
            p: self.q.rotate(other.p) + self.p,
            q: self.q * other.q,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;
    use std::f32::consts::{FRAC_PI_2, PI};

    #[test]
    fn cross_products_follow_the_right_hand_rule() {
        let x = Vec2::X;
        let y = Vec2::Y;
        assert_eq!(cross(x, y), 1.0);
        assert_eq!(cross(y, x), -1.0);
        // Spinning at +1 rad/s, a point on +x moves towards +y.
        assert_eq!(cross_sv(1.0, x), y);
        // v x s is minus s x v.
        assert_eq!(cross_vs(x, 2.0), -cross_sv(2.0, x));
        assert_eq!(left_perp(x), y);
        assert_eq!(right_perp(x), -y);
    }

    #[test]
    fn own_atan2_matches_the_exact_angle_everywhere() {
        let mut worst = 0.0f64;
        for k in 0..200_000 {
            // Angles all round the circle, at radii from 1e-3 to 1e3.
            let angle =
                -std::f64::consts::PI + (k as f64 + 0.5) * std::f64::consts::TAU / 200_000.0;
            let radius = 10f64.powf(-3.0 + 6.0 * ((k * 7919) % 1000) as f64 / 1000.0);
            let (y, x) = ((radius * angle.sin()) as f32, (radius * angle.cos()) as f32);
            let exact = (y as f64).atan2(x as f64);
            worst = worst.max((atan2(y, x) as f64 - exact).abs());
        }
        assert!(worst < 3e-7, "worst error {worst} rad");
        assert_eq!(atan2(0.0, 0.0), 0.0);
        assert_eq!(atan2(0.0, -1.0), PI);
        assert_eq!(atan2(1.0, 0.0), FRAC_PI_2);
        assert_eq!(atan2(-1.0, 0.0), -FRAC_PI_2);
        assert!(atan2(f32::NAN, 1.0).is_nan());
    }

    #[test]
    fn rotation_rotates_and_inverts() {
        let q = Rot::from_angle(FRAC_PI_2);
        let v = q.rotate(Vec2::X);
        assert_relative_eq!(v.x, 0.0, epsilon = 1e-6);
        assert_relative_eq!(v.y, 1.0, epsilon = 1e-6);
        let back = q.inv_rotate(v);
        assert_relative_eq!(back.x, 1.0, epsilon = 1e-6);
        assert_relative_eq!(back.y, 0.0, epsilon = 1e-6);
        assert_relative_eq!(q.angle(), FRAC_PI_2, epsilon = 1e-6);
    }

    #[test]
    fn rotation_composition_adds_angles() {
        let a = Rot::from_angle(0.3);
        let b = Rot::from_angle(1.1);
        assert_relative_eq!((a * b).angle(), 1.4, epsilon = 1e-6);
        assert_relative_eq!(a.inv_mul(b).angle(), 0.8, epsilon = 1e-6);
        assert_relative_eq!(a.relative_angle(b), 0.8, epsilon = 1e-6);
        assert_relative_eq!(
            Rot::from_angle(3.0).relative_angle(Rot::from_angle(-3.0)),
            2.0 * PI - 6.0,
            epsilon = 1e-5
        );
    }

    #[test]
    fn integration_without_trigonometry_tracks_the_angle() {
        // 1000 small steps of 1 mrad: the first-order update with renormalisation loses only
        // O(delta^2) per step in angle, so the total stays within 1e-3 rad of 1 rad.
        let mut q = Rot::IDENTITY;
        for _ in 0..1000 {
            q = q.integrate(0.001);
        }
        assert!(q.is_valid());
        assert!((q.angle() - 1.0).abs() < 1e-3, "angle {}", q.angle());
    }

    #[test]
    fn transform_round_trips_points_and_composes() {
        let a = Transform::from_angle(Vec2::new(1.0, 2.0), 0.7);
        let b = Transform::from_angle(Vec2::new(-3.0, 0.5), -0.2);
        let p = Vec2::new(0.25, -4.0);
        let back = a.apply_inverse(a.apply(p));
        assert_relative_eq!(back.x, p.x, epsilon = 1e-5);
        assert_relative_eq!(back.y, p.y, epsilon = 1e-5);
        let ab = a * b;
        let direct = a.apply(b.apply(p));
        assert_relative_eq!(ab.apply(p).x, direct.x, epsilon = 1e-5);
        assert_relative_eq!(ab.apply(p).y, direct.y, epsilon = 1e-5);
        let rel = a.inv_mul(ab);
        assert_relative_eq!(rel.p.x, b.p.x, epsilon = 1e-5);
        assert_relative_eq!(rel.p.y, b.p.y, epsilon = 1e-5);
        assert_relative_eq!(rel.q.angle(), b.q.angle(), epsilon = 1e-5);
    }

    #[test]
    fn normalize_of_zero_is_identity_and_validity_checks_nan() {
        assert_eq!(Rot { c: 0.0, s: 0.0 }.normalize(), Rot::IDENTITY);
        assert!(
            !Rot {
                c: f32::NAN,
                s: 0.0
            }
            .is_valid()
        );
        assert!(!Transform::new(Vec2::new(f32::INFINITY, 0.0), Rot::IDENTITY).is_valid());
        assert_eq!(length_and_normalize(Vec2::ZERO), (0.0, Vec2::ZERO));
    }
}
