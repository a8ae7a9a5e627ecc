//! A scene seen four ways that physics cannot tell apart: as written, mirrored in the line
//! x = 0, and each of those with its bodies created in reverse order.
//!
//! A sequential solver can tell them apart. The order in which bodies are created decides
//! the order of the contacts, and so the order of the solve's colours; a mirror image turns
//! every sideways bias of that order the other way. A figure that moves between the four
//! measures the solve's order as much as the solve. The mean over the four ranks two solves
//! by what they do, not by which one the written order happens to favour.

use crate::Scene;
use physics_core::prelude::*;

/// How many scenes [`order_variants`] gives.
pub const ORDER_VARIANTS: usize = 4;

/// `scene` as written, its mirror image, and both with the bodies after the first (the
/// ground, kept first) created in reverse order.
///
/// # Panics
/// When the scene has joints or timed groups (reordering would break their body indices), or
/// a shape that is not its own mirror image about its body's y axis (circles on that axis,
/// polygons symmetric in it): the mirror of such a scene is a different scene.
pub fn order_variants(scene: &Scene) -> [Scene; ORDER_VARIANTS] {
    assert!(
        scene.joints.is_empty() && scene.groups.is_empty(),
        "{}: order variants of a scene with joints or groups are not built",
        scene.name
    );
    let mirror_image_exists = scene
        .bodies
        .iter()
        .flat_map(|b| &b.shapes)
        .all(|s| is_own_mirror_image(&s.shape));
    assert!(
        mirror_image_exists,
        "{}: a shape is not symmetric about its body's y axis",
        scene.name
    );
    let mirrored = mirror(scene);
    [
        scene.clone(),
        mirrored.clone(),
        reverse_creation(scene),
        reverse_creation(&mirrored),
    ]
}

/// The scene mirrored in x = 0: positions and velocities reflected, angles and spins negated.
fn mirror(scene: &Scene) -> Scene {
    let mut out = scene.clone();
    for b in &mut out.bodies {
        b.position.x = -b.position.x;
        b.linear_velocity.x = -b.linear_velocity.x;
        b.angle = -b.angle;
        b.angular_velocity = -b.angular_velocity;
    }
    out
}

/// The scene with every body after the first created in reverse order.
fn reverse_creation(scene: &Scene) -> Scene {
    let mut out = scene.clone();
    if let Some(rest) = out.bodies.get_mut(1..) {
        rest.reverse();
    }
    out
}

/// Whether the shape is unchanged by x -> -x in its body's frame.
fn is_own_mirror_image(shape: &Shape) -> bool {
    const TOLERANCE: f32 = 1e-6;
    match shape {
        Shape::Circle(c) => c.center.x.abs() <= TOLERANCE,
        Shape::Polygon(p) => p.vertices().iter().all(|v| {
            let image = Vec2::new(-v.x, v.y);
            p.vertices().iter().any(|w| w.distance(image) <= TOLERANCE)
        }),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenes::scene;

    /// The four variants hold the same bodies: the mirror reflects every position and the
    /// reversed creation keeps the ground first and the rest as a reversed list.
    #[test]
    fn the_variants_are_mirror_images_and_creation_orders_of_one_scene() {
        let s = scene("overlap_recovery").unwrap();
        let [written, mirrored, reversed, both] = order_variants(&s);
        assert_eq!(written.bodies.len(), s.bodies.len());
        for (a, m) in written.bodies.iter().zip(&mirrored.bodies) {
            assert_eq!(m.position, Vec2::new(-a.position.x, a.position.y));
        }
        let n = s.bodies.len();
        assert_eq!(reversed.bodies[0].position, s.bodies[0].position);
        assert_eq!(reversed.bodies[1].position, s.bodies[n - 1].position);
        assert_eq!(both.bodies[n - 1].position, mirrored.bodies[1].position);
        // The overlap pyramid is not its own mirror image body by body (its boxes swap
        // places), so the mirror really is another creation order.
        assert_ne!(mirrored.bodies[1].position, s.bodies[1].position);
    }

    /// A wedge is not its own mirror image: its mirror is another scene.
    #[test]
    #[should_panic(expected = "not symmetric")]
    fn a_scene_with_a_lopsided_shape_has_no_order_variants() {
        let s = scene("arch").unwrap();
        let _ = order_variants(&s);
    }
}
