//! Dynamics: rigid bodies ([`body`], registered by [`RigidBodyPlugin`](crate::RigidBodyPlugin))
//! and the joints between them ([`joint`], registered by [`JointPlugin`](crate::JointPlugin)).

pub mod body;
pub mod joint;
