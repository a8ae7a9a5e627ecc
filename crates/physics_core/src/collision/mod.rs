//! Narrowphase geometry: GJK distance, EPA penetration, SAT, clipping, and the contact
//! manifold of every shape pair.

mod capsules;
mod chains;
mod circles;
mod clip;
mod dispatch;
mod distance;
mod epa;
mod manifold;
mod polygons;
mod proxy;
mod sat;
mod toi;

pub use capsules::collide_rounded_segments;
pub use chains::{collide_chain_segment_and_circle, collide_chain_segment_and_polygon};
pub use circles::{
    collide_circles, collide_polygon_and_circle, collide_rounded_segment_and_circle,
};
pub use clip::{ClipVertex, ClippedPoint, clip_incident_edge, clip_segment_to_line};
pub use dispatch::collide;
pub use distance::{DistanceInput, DistanceOutput, SimplexCache, shape_distance, shapes_overlap};
pub use epa::{Penetration, shape_penetration};
pub use manifold::{CollideSettings, Manifold, ManifoldPoint};
pub use polygons::collide_polygons;
pub use proxy::ShapeProxy;
pub use sat::{SatAxis, find_max_separation, polygon_separation};
pub use toi::{Sweep, ToiOutput, ToiState, time_of_impact};
