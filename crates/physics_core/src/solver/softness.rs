//! The soft constraint model shared by contacts and joints.
//!
//! A constraint with stiffness f (hertz) and damping ratio z behaves like a damped spring
//! solved implicitly over the substep h. With w = 2 pi f:
//!
//!   a1 = 2 z + h w,  a2 = h w a1,  a3 = 1 / (1 + a2)
//!   bias_rate = w / a1,  mass_scale = a2 a3,  impulse_scale = a3
//!
//! and one impulse update is
//!
//!   d = -m_eff * mass_scale * (v_rel + bias) - impulse_scale * accumulated.
//!
//! mass_scale + impulse_scale = 1: the update equals a rigid solve of (K + gamma) with the
//! compliance gamma = K impulse_scale / mass_scale, so the constraint can never be stiffer than
//! the substep can integrate, whatever the mass ratio: that is what keeps stacks from jittering.

use serde::{Deserialize, Serialize};

/// Coefficients of a soft constraint for one substep length.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Softness {
    /// Multiplies the position error to give the bias velocity (1/s).
    pub bias_rate: f32,
    /// Scales the effective mass.
    pub mass_scale: f32,
    /// Scales the accumulated impulse subtracted each iteration.
    pub impulse_scale: f32,
}

impl Softness {
    /// A rigid constraint: no bias, full mass, no impulse leak.
    pub const RIGID: Softness = Softness {
        bias_rate: 0.0,
        mass_scale: 1.0,
        impulse_scale: 0.0,
    };

    /// Softness of a spring of `hertz` and `damping_ratio` over substep `h`; zero hertz gives
    /// [`Softness::RIGID`].
    pub fn new(hertz: f32, damping_ratio: f32, h: f32) -> Softness {
        if hertz == 0.0 {
            return Softness::RIGID;
        }
        let omega = 2.0 * std::f32::consts::PI * hertz;
        let a1 = 2.0 * damping_ratio + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Softness {
            bias_rate: omega / a1,
            mass_scale: a2 * a3,
            impulse_scale: a3,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scales_sum_to_one_and_stiffen_with_hertz() {
        let h = 1.0 / 240.0;
        let soft = Softness::new(30.0, 10.0, h);
        assert!((soft.mass_scale + soft.impulse_scale - 1.0).abs() < 1e-6);
        let stiff = Softness::new(120.0, 10.0, h);
        assert!(stiff.mass_scale > soft.mass_scale);
        assert!(stiff.bias_rate > soft.bias_rate);
        assert_eq!(Softness::new(0.0, 1.0, h), Softness::RIGID);
    }
}
