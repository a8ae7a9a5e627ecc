//! Seeded random shapes and transforms for property tests (failures reproduce from the seed).
#![allow(dead_code)]

pub mod mixed_pile;

use physics_core::position::position_bits;
use physics_core::prelude::*;

/// SplitMix64: tiny, fast, and good enough to scatter test geometry.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        let unit = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * unit
    }

    pub fn vec(&mut self, extent: f32) -> Vec2 {
        Vec2::new(self.range(-extent, extent), self.range(-extent, extent))
    }

    pub fn transform(&mut self, extent: f32) -> Transform {
        Transform::from_angle(
            self.vec(extent),
            self.range(-std::f32::consts::PI, std::f32::consts::PI),
        )
    }

    /// A random convex polygon of 3 to 8 vertices, 0.3 to 1.5 across.
    pub fn polygon(&mut self, radius: f32) -> Polygon {
        loop {
            let n = 3 + (self.next_u64() % 6) as usize;
            let scale = self.range(0.3, 1.5);
            let points: Vec<Vec2> = (0..n).map(|_| self.vec(scale)).collect();
            if let Ok(p) = Polygon::from_points(&points, radius) {
                return p;
            }
        }
    }

    /// Any shape kind, with random parameters.
    pub fn shape(&mut self) -> Shape {
        match self.next_u64() % 5 {
            0 => Shape::Circle(Circle::new(self.vec(0.3), self.range(0.1, 1.0)).unwrap()),
            1 => loop {
                if let Ok(c) = Capsule::new(self.vec(1.0), self.vec(1.0), self.range(0.05, 0.6)) {
                    break Shape::Capsule(c);
                }
            },
            2 => loop {
                if let Ok(s) = Segment::new(self.vec(1.5), self.vec(1.5)) {
                    break Shape::Segment(s);
                }
            },
            3 => {
                let r = self.range(0.02, 0.3);
                Shape::Polygon(self.polygon(r))
            }
            _ => Shape::Polygon(self.polygon(0.0)),
        }
    }
}

/// Distance from point p to segment a-b.
pub fn point_segment_distance(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let e = b - a;
    let t = ((p - a).dot(e) / e.length_squared()).clamp(0.0, 1.0);
    p.distance(a + t * e)
}

/// Every listed body's pose and velocities, bit for bit: two worlds that will step on
/// identically give equal vectors.
pub fn motion_bits(w: &World, bodies: &[BodyId]) -> Vec<u64> {
    bodies
        .iter()
        .flat_map(|&b| {
            let xf = w.body_transform(b).unwrap();
            let v = w.linear_velocity(b).unwrap();
            let spin = w.angular_velocity(b).unwrap();
            let [px, py] = position_bits(xf.p);
            let [qc, qs, vx, vy, w] = [xf.q.c, xf.q.s, v.x, v.y, spin].map(|x| x.to_bits().into());
            [px, py, qc, qs, vx, vy, w]
        })
        .collect()
}

/// The step of the world-API tests: 60 Hz.
pub const DT: f32 = 1.0 / 60.0;

/// A world with the default settings.
pub fn world() -> World {
    World::new(WorldDef::default()).unwrap()
}

/// A static 100 m ground whose top is at y = 0.
pub fn ground(world: &mut World) -> BodyId {
    let g = world
        .create_body(&BodyDef::fixed(Vec2::new(0.0, -1.0)))
        .unwrap();
    world
        .create_shape(
            g,
            &ShapeDef::default(),
            Polygon::new_box(50.0, 1.0).unwrap().into(),
        )
        .unwrap();
    g
}

/// A dynamic 1 m box at `position` with the default shape settings.
pub fn unit_box(world: &mut World, position: Vec2) -> BodyId {
    unit_box_of(world, position, &ShapeDef::default())
}

/// A dynamic 1 m box at `position` whose shape has `def`'s material, filter and sensor flag.
pub fn unit_box_of(world: &mut World, position: Vec2, def: &ShapeDef) -> BodyId {
    let b = world.create_body(&BodyDef::dynamic(position)).unwrap();
    world
        .create_shape(b, def, Polygon::new_box(0.5, 0.5).unwrap().into())
        .unwrap();
    b
}
