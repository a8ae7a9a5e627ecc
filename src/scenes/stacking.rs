//! Stacking scenes: boxes at rest on each other, the core test of a contact solver.

use crate::scene::{BodyDesc, Scene, ShapeDesc, boxed};
use physics_core::prelude::*;

const DT: f32 = 1.0 / 60.0;
const GRAVITY: Vec2 = Vec2::new(0.0, -10.0);

/// Box2D's benchmark ground: a static box of half extents (100, 1) at (0, -1), top at y = 0.
fn ground() -> BodyDesc {
    BodyDesc::fixed(Vec2::new(0.0, -1.0), boxed(100.0, 1.0))
}

fn scene(name: &'static str, steps: usize, bodies: Vec<BodyDesc>) -> Scene {
    Scene {
        name,
        gravity: GRAVITY,
        dt: DT,
        steps,
        bodies,
        joints: Vec::new(),
        groups: Vec::new(),
        timeline: Vec::new(),
    }
}

/// One unit box on the ground.
pub fn single_box() -> Scene {
    scene(
        "single_box",
        300,
        vec![
            ground(),
            BodyDesc::dynamic(Vec2::new(0.0, 4.0), boxed(0.5, 0.5)),
        ],
    )
}

/// `count` unit boxes in a column, each resting exactly on the one below.
pub fn vertical_stack(count: usize) -> Scene {
    let mut bodies = vec![ground()];
    bodies.extend(
        (0..count).map(|i| BodyDesc::dynamic(Vec2::new(0.0, 0.5 + i as f32), boxed(0.5, 0.5))),
    );
    scene("vertical_stack", 600, bodies)
}

/// Box2D's pyramid: rows of unit boxes, `base` on the bottom row, one fewer per row.
pub fn pyramid_boxes(base: usize, origin: Vec2) -> Vec<BodyDesc> {
    let a = 0.5f32;
    let mut out = Vec::with_capacity(base * (base + 1) / 2);
    for i in 0..base {
        let y = (2 * i + 1) as f32 * a + origin.y;
        for j in i..base {
            let x = (i + 1) as f32 * a + 2.0 * (j - i) as f32 * a - a * base as f32 + origin.x;
            out.push(BodyDesc::dynamic(Vec2::new(x, y), boxed(a, a)));
        }
    }
    out
}

/// A pyramid with the given base on the benchmark ground.
pub fn pyramid(name: &'static str, base: usize) -> Scene {
    let mut bodies = vec![ground()];
    bodies.extend(pyramid_boxes(base, Vec2::ZERO));
    scene(name, 600, bodies)
}

/// Box2D's large_pyramid benchmark: base 100, 5050 boxes, 500 steps.
pub fn large_pyramid() -> Scene {
    Scene {
        steps: 500,
        ..pyramid("large_pyramid", 100)
    }
}

/// Box2D's many_pyramids benchmark: 20 x 20 pyramids of base 10 on 20 segment floors.
pub fn many_pyramids() -> Scene {
    let (rows, columns, base, e) = (20usize, 20usize, 10usize, 0.5f32);
    let width = 2.0 * e * columns as f32 * (base as f32 + 1.0);
    let spacing = 2.0 * e * (base as f32 + 1.0);
    let mut ground = BodyDesc::fixed(Vec2::ZERO, floor_segment(width, 0.0));
    ground.shapes = (0..rows)
        .map(|k| floor_segment(width, k as f32 * spacing))
        .collect();
    let mut bodies = vec![ground];
    for r in 0..rows {
        for c in 0..columns {
            let x0 = -width / 2.0 + c as f32 * (2.0 * e * base as f32 + 2.0 * e) + 2.0 * e;
            let y0 = r as f32 * spacing;
            for i in 0..base {
                let y = (2 * i + 1) as f32 * e + y0;
                for j in i..base {
                    let x = (i + 1) as f32 * e + 2.0 * (j - i) as f32 * e + x0 - 0.5;
                    bodies.push(BodyDesc::dynamic(Vec2::new(x, y), boxed(e, e)));
                }
            }
        }
    }
    scene("many_pyramids", 200, bodies)
}

fn floor_segment(width: f32, y: f32) -> ShapeDesc {
    ShapeDesc::new(
        Segment::new(Vec2::new(-width / 2.0, y), Vec2::new(width / 2.0, y))
            .expect("floor has length"),
    )
}

/// A house of cards: thin cards leaning in A-frames, flat cards across, three levels.
pub fn card_house() -> Scene {
    let (half_thickness, half_length) = (0.02f32, 0.5f32);
    let tilt = 0.25f32;
    let card = || boxed(half_thickness, half_length).friction(0.9);
    let lean = half_length * tilt.sin();
    let rise = 2.0 * half_length * tilt.cos();
    let frame_spacing = 4.0 * lean + 0.3;
    let mut bodies = vec![ground()];
    let mut base_y = 0.0;
    for (level, frames) in [3usize, 2, 1].into_iter().enumerate() {
        let first_x = -(frames as f32 - 1.0) * 0.5 * frame_spacing;
        for f in 0..frames {
            let x0 = first_x + f as f32 * frame_spacing;
            let cy = base_y + 0.5 * rise;
            bodies.push(
                BodyDesc::dynamic(Vec2::new(x0 - lean - half_thickness, cy), card()).angle(-tilt),
            );
            bodies.push(
                BodyDesc::dynamic(Vec2::new(x0 + lean + half_thickness, cy), card()).angle(tilt),
            );
        }
        base_y += rise;
        if level < 2 {
            // Flat cards bridging neighbouring frames' apexes.
            for f in 0..frames.saturating_sub(1) {
                let x = first_x + (f as f32 + 0.5) * frame_spacing;
                bodies.push(BodyDesc::dynamic(
                    Vec2::new(x, base_y + half_thickness),
                    boxed(half_length, half_thickness).friction(0.9),
                ));
            }
            base_y += 2.0 * half_thickness;
        }
    }
    scene("card_house", 600, bodies)
}

/// A semicircular arch of 13 wedge-shaped stones with no mortar: it stands by friction and
/// the thrust line alone.
pub fn arch() -> Scene {
    let (inner, outer, stones) = (3.0f32, 4.0f32, 13usize);
    let mut bodies = vec![ground()];
    for k in 0..stones {
        let a0 = std::f32::consts::PI * k as f32 / stones as f32;
        let a1 = std::f32::consts::PI * (k + 1) as f32 / stones as f32;
        let corners = [
            Rot::from_angle(a0).x_axis() * inner,
            Rot::from_angle(a0).x_axis() * outer,
            Rot::from_angle(a1).x_axis() * outer,
            Rot::from_angle(a1).x_axis() * inner,
        ];
        let centre = corners.iter().copied().sum::<Vec2>() / 4.0;
        let local: Vec<Vec2> = corners.iter().map(|c| *c - centre).collect();
        let stone = Polygon::from_points(&local, 0.0).expect("wedge is convex");
        bodies.push(BodyDesc::dynamic(
            centre,
            ShapeDesc::new(stone).friction(0.6),
        ));
    }
    scene("arch", 600, bodies)
}

/// A pyramid of unit boxes (base 4) created overlapping by a quarter of their size in both
/// directions; the solver must push them apart gently.
pub fn overlap_recovery() -> Scene {
    let (base, extent, overlap) = (4usize, 0.5f32, 0.25f32);
    let spacing = 2.0 * extent * (1.0 - overlap);
    let mut bodies = vec![ground()];
    for row in 0..base {
        let count = base - row;
        for k in 0..count {
            let x = (k as f32 - 0.5 * (count as f32 - 1.0)) * spacing;
            let y = extent + spacing * row as f32;
            bodies.push(BodyDesc::dynamic(Vec2::new(x, y), boxed(extent, extent)));
        }
    }
    scene("overlap_recovery", 600, bodies)
}

/// A box 100 times heavier than each of the three light boxes it rests on.
pub fn high_mass_ratio() -> Scene {
    let mut bodies = vec![ground()];
    for i in 0..3 {
        bodies.push(BodyDesc::dynamic(
            Vec2::new(-1.0 + i as f32, 0.5),
            boxed(0.5, 0.5),
        ));
    }
    // Three times the area of a light box, so density 100/3 makes it 100 times heavier.
    bodies.push(BodyDesc::dynamic(
        Vec2::new(0.0, 1.5),
        boxed(1.5, 0.5).density(100.0 / 3.0),
    ));
    scene("high_mass_ratio", 600, bodies)
}
