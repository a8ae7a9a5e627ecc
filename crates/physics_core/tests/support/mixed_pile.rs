//! A pile of boxes and balls whose masses span a hundred to one, for the tests that drop it
//! (`mixed_piles.rs`, `carried_mass.rs`).

use physics_core::prelude::*;

/// A xorshift generator: the same numbers on every platform.
struct Xorshift(u32);

impl Xorshift {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }

    /// Uniform in [-1, 1].
    fn signed_unit(&mut self) -> f32 {
        (self.next() % 2001) as f32 / 1000.0 - 1.0
    }
}

/// Forty boxes and balls (half-width 0.45 m, densities 1 to 100 at random) dropped from a
/// grid of 8 columns into a 10 m wide bin; each moved up to `jitter` metres sideways.
/// Returns the world and the dropped bodies.
pub fn mixed_pile(seed: u32, jitter: f32, def: WorldDef) -> (World, Vec<BodyId>) {
    let mut world = World::new(def).unwrap();
    let bin = world.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
    for (half, at) in [
        (Vec2::new(5.0, 0.5), Vec2::new(0.0, -0.5)),
        (Vec2::new(0.5, 8.0), Vec2::new(-5.5, 8.0)),
        (Vec2::new(0.5, 8.0), Vec2::new(5.5, 8.0)),
    ] {
        let wall = Polygon::new_offset_box(half.x, half.y, at, Rot::IDENTITY).unwrap();
        world
            .create_shape(bin, &ShapeDef::default(), wall.into())
            .unwrap();
    }
    let mut kinds = Xorshift(0x9E37_79B9_u32.wrapping_add(seed.wrapping_mul(0x85EB_CA6B)));
    let mut shifts = Xorshift(kinds.0 ^ 0x1234_5678);
    let mut bodies = Vec::new();
    for k in 0..40 {
        let x = -4.0 + (k % 8) as f32 * 1.1 + jitter * shifts.signed_unit();
        let at = Vec2::new(x, 1.0 + (k / 8) as f32 * 2.2);
        let density = [1.0, 3.0, 10.0, 30.0, 100.0][kinds.next() as usize % 5];
        let body = world.create_body(&BodyDef::dynamic(at)).unwrap();
        let shape = ShapeDef {
            density,
            friction: 0.6,
            ..ShapeDef::default()
        };
        let geometry: Shape = if kinds.next().is_multiple_of(2) {
            Polygon::new_box(0.45, 0.45).unwrap().into()
        } else {
            Circle::new(Vec2::ZERO, 0.45).unwrap().into()
        };
        world.create_shape(body, &shape, geometry).unwrap();
        bodies.push(body);
    }
    (world, bodies)
}

/// Kinetic energy of `bodies` (J): translation and spin.
pub fn kinetic_energy(world: &World, bodies: &[BodyId]) -> f32 {
    bodies
        .iter()
        .map(|&b| {
            let mass = world.body_mass_data(b).unwrap();
            let m = world.body_motion(b).unwrap();
            0.5 * mass.mass * m.linear_velocity.length_squared()
                + 0.5 * mass.rotational_inertia * m.angular_velocity * m.angular_velocity
        })
        .sum()
}
