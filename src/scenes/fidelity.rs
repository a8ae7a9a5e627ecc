//! Stress scenes for solver fidelity: the cases that break engines (tall awake towers, heavy
//! bodies on light ones, piles, chains with heavy ends). Each is written once here and built
//! identically by the tests, the testbed and `bench_compare --fidelity`, which also measures
//! them in Box2D v3, rapier2d and avian2d.

use crate::scene::{BodyDesc, JointDesc, Scene, ShapeDesc, ball, boxed};
use physics_core::prelude::*;

const DT: f32 = 1.0 / 60.0;
const GRAVITY: Vec2 = Vec2::new(0.0, -10.0);

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

/// How a tower's boxes are laid: friction, a sideways offset every other box, and a gap.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TowerLayout {
    /// Number of unit boxes.
    pub count: usize,
    /// Friction of every box (and the ground).
    pub friction: f32,
    /// Every other box is shifted sideways by this much, alternating sign (m).
    pub offset: f32,
    /// Vertical gap between boxes at the start, so each falls onto the one below (m).
    pub gap: f32,
    /// Width of every box (m); they are 1 m tall. 1 for the unit boxes of the named towers.
    pub box_width: f32,
}

/// Seconds the towers are stepped: half a minute awake.
pub const TOWER_SECONDS: usize = 30;

/// A column of 1 m tall boxes (unit boxes unless the layout narrows them) on Box2D's
/// benchmark ground (a static box of half extents (100, 1) whose top is at y = 0), meant to
/// be stepped awake (sleeping off) for half a minute: the top box must stay over the bottom
/// one.
pub fn tower(name: &'static str, layout: TowerLayout) -> Scene {
    let mut bodies = vec![BodyDesc::fixed(
        Vec2::new(0.0, -1.0),
        boxed(100.0, 1.0).friction(layout.friction),
    )];
    for i in 0..layout.count {
        let x = if i % 2 == 1 { layout.offset } else { 0.0 };
        let x = if i % 4 == 3 { -x } else { x };
        let y = 0.5 + i as f32 * (1.0 + layout.gap);
        bodies.push(BodyDesc::dynamic(
            Vec2::new(x, y),
            boxed(0.5 * layout.box_width, 0.5).friction(layout.friction),
        ));
    }
    scene(name, TOWER_SECONDS * 60, bodies)
}

/// The layout of the named tower scenes (`tower_15`, `tower_20`, `tower_30`, `tower_offset_20`).
pub fn tower_layout(name: &str) -> Option<TowerLayout> {
    let aligned = |count| TowerLayout {
        count,
        friction: 0.6,
        offset: 0.0,
        gap: 0.0,
        box_width: 1.0,
    };
    Some(match name {
        "two_boxes" => aligned(2),
        "tower_15" => aligned(15),
        "tower_20" => aligned(20),
        "tower_30" => aligned(30),
        "tower_offset_20" => TowerLayout {
            count: 20,
            friction: 0.3,
            offset: 0.01,
            gap: 0.1,
            box_width: 1.0,
        },
        _ => return None,
    })
}

/// Radius of the balls of the `ball_pile` scene.
pub const PILE_BALL_RADIUS: f32 = 0.5;
/// Inner width of the pile's box (m).
pub const PILE_WIDTH: f32 = 10.0;
/// Number of balls in the pile.
pub const PILE_BALLS: usize = 400;

/// Drops of the pile that [`ball_pile_drop`] builds: a pile settles chaotically (its deepest
/// overlap varies by about a centimetre from one drop to the next, in every engine), so its
/// figure is the mean over these drops.
pub const PILE_DROPS: usize = 32;

/// The first drop of [`ball_pile_drop`], as the library's `ball_pile` scene.
pub fn ball_pile() -> Scene {
    ball_pile_drop(0)
}

/// 400 balls of radius 0.5 poured into a box 10 m wide: eight to a row, 1.2 m apart, each
/// row shifted sideways from the last by a repeating pattern of quarter spacings. `drop`
/// (0 to [`PILE_DROPS`] - 1) starts the pattern at another row and shifts every ball by
/// another 1.25 cm every four drops, so each drop settles into another pile. Bodies: the box (floor and two
/// walls on one static body), then the balls.
pub fn ball_pile_drop(drop: usize) -> Scene {
    let half = 0.5 * PILE_WIDTH;
    let container = BodyDesc::fixed(Vec2::ZERO, box_at(half + 1.0, 0.5, Vec2::new(0.0, -0.5)))
        .with_shape(box_at(0.5, 40.0, Vec2::new(-half - 0.5, 40.0)))
        .with_shape(box_at(0.5, 40.0, Vec2::new(half + 0.5, 40.0)));
    let mut bodies = vec![container];
    let (per_row, spacing) = (8usize, 1.2f32);
    let nudge = 0.0125 * (drop / 4) as f32;
    for k in 0..PILE_BALLS {
        let (row, column) = (k / per_row, k % per_row);
        let shift = [0.0, 0.3, 0.15, 0.45][(row + drop) % 4] + nudge - 0.2;
        let x = -half + 0.75 + shift + column as f32 * spacing;
        let y = 1.0 + row as f32 * spacing;
        bodies.push(BodyDesc::dynamic(Vec2::new(x, y), ball(PILE_BALL_RADIUS)));
    }
    scene("ball_pile", 600, bodies)
}

/// A box shape with half extents `hx`, `hy` centred at `center` in its body's frame.
fn box_at(hx: f32, hy: f32, center: Vec2) -> ShapeDesc {
    ShapeDesc::new(
        Polygon::new_offset_box(hx, hy, center, Rot::IDENTITY).expect("positive extents"),
    )
}

/// Solver2D's "high mass ratio 1": three pyramids of ten rows of 2 m boxes (density 1, friction
/// 0.5) on a ground segment, each topped by a box dropped from 2 m above its place, of density
/// 100, 200 and 300. Bodies: ground, then the pyramids left to right, the top box last in each.
pub fn high_mass_ratio_1() -> Scene {
    let extent = 1.0f32;
    let ground = BodyDesc::fixed(
        Vec2::ZERO,
        ShapeDesc::new(
            Segment::new(Vec2::new(-66.0, 0.0), Vec2::new(66.0, 0.0)).expect("has length"),
        )
        .friction(0.5),
    );
    let mut bodies = vec![ground];
    for j in 0..3 {
        let offset = -20.0 * extent + 2.0 * 11.0 * extent * j as f32;
        let mut y = extent;
        for count in (1..=10usize).rev() {
            for i in 0..count {
                let coeff = i as f32 - 0.5 * count as f32;
                let top = count == 1;
                let position =
                    Vec2::new(2.0 * coeff * extent + offset, if top { y + 2.0 } else { y });
                let density = if top { 100.0 * (j + 1) as f32 } else { 1.0 };
                bodies.push(BodyDesc::dynamic(
                    position,
                    boxed(extent, extent).density(density).friction(0.5),
                ));
            }
            y += 2.0 * extent;
        }
    }
    scene("high_mass_ratio_1", 600, bodies)
}

/// Where the heavy top box of each pyramid of the `high_mass_ratio_1` scene would rest on rigid
/// boxes: its body index and its stacked height.
pub fn high_mass_ratio_1_heavy_boxes() -> [(usize, f32); 3] {
    // 55 boxes per pyramid after the ground; the top box is the last of each.
    [(55, 19.0), (110, 19.0), (165, 19.0)]
}

/// Solver2D's "high mass ratio 2" (`thick_ground` false) and "3" (true): a 20 m box (density 1,
/// 400 times a small box's mass) dropped onto two 1 m boxes 18 m apart. Bodies: ground, the
/// two small boxes, the big box.
pub fn high_mass_ratio_big_on_small(thick_ground: bool) -> Scene {
    let ground = if thick_ground {
        BodyDesc::fixed(Vec2::new(0.0, -2.0), boxed(40.0, 2.0))
    } else {
        BodyDesc::fixed(
            Vec2::ZERO,
            ShapeDesc::new(
                Segment::new(Vec2::new(-20.0, 0.0), Vec2::new(20.0, 0.0)).expect("has length"),
            ),
        )
    };
    let bodies = vec![
        ground,
        BodyDesc::dynamic(Vec2::new(-9.0, 0.5), boxed(0.5, 0.5)),
        BodyDesc::dynamic(Vec2::new(9.0, 0.5), boxed(0.5, 0.5)),
        BodyDesc::dynamic(Vec2::new(0.0, 26.0), boxed(10.0, 10.0)),
    ];
    let name = if thick_ground {
        "high_mass_ratio_3"
    } else {
        "high_mass_ratio_2"
    };
    scene(name, 600, bodies)
}

/// Rigid rest height of the big box of the `high_mass_ratio_2` and `_3` scenes (body index 3).
pub const BIG_BOX_REST_HEIGHT: f32 = 11.0;

/// Links of the chains.
pub const CHAIN_LINKS: usize = 20;
/// Height of the chains' pivot.
pub const CHAIN_PIVOT: Vec2 = Vec2::new(0.0, 30.0);

/// A horizontal chain of 20 links (1 m x 0.25 m, density 1) pinned at one end to a static
/// pivot, its other end pinned to the centre of a disk of radius 1 m whose mass is
/// `mass_ratio` times a link's, released to swing. Nothing in the chain collides with
/// anything else in it (one negative group). A ground lies far below. Bodies: ground, pivot,
/// the links from the pivot out, the disk; joints: pivot to the first link, link to link,
/// last link to the disk.
pub fn chain(name: &'static str, mass_ratio: f32) -> Scene {
    let group = -7;
    let link_mass = 1.0 * 0.25;
    let disk_density = mass_ratio * link_mass / std::f32::consts::PI;
    let mut bodies = vec![
        BodyDesc::fixed(Vec2::new(0.0, -1.0), boxed(60.0, 1.0)),
        BodyDesc::fixed(CHAIN_PIVOT, ball(0.05).group(group)),
    ];
    let mut joints = Vec::new();
    for i in 0..CHAIN_LINKS {
        let center = CHAIN_PIVOT + Vec2::new(i as f32 + 0.5, 0.0);
        bodies.push(BodyDesc::dynamic(center, boxed(0.5, 0.125).group(group)));
        let pin = CHAIN_PIVOT + Vec2::new(i as f32, 0.0);
        joints.push(JointDesc::at(
            bodies.len() - 2,
            bodies.len() - 1,
            pin,
            revolute(),
        ));
    }
    let end = CHAIN_PIVOT + Vec2::new(CHAIN_LINKS as f32, 0.0);
    bodies.push(BodyDesc::dynamic(
        end,
        ball(1.0).density(disk_density).group(group),
    ));
    joints.push(JointDesc::at(
        bodies.len() - 2,
        bodies.len() - 1,
        end,
        revolute(),
    ));
    Scene {
        name,
        gravity: GRAVITY,
        dt: DT,
        steps: 600,
        bodies,
        joints,
        groups: Vec::new(),
        timeline: Vec::new(),
    }
}

fn revolute() -> JointKind {
    JointKind::Revolute(RevoluteJoint::default())
}

/// The mass ratio of the named chain scenes (`chain_light`, `chain_heavy_100`, ...).
pub fn chain_mass_ratio(name: &str) -> Option<f32> {
    Some(match name {
        "chain_light" => 1.0,
        "chain_heavy_100" => 100.0,
        "chain_heavy_1000" => 1000.0,
        "chain_heavy_2500" => 2500.0,
        "chain_heavy_10000" => 10_000.0,
        _ => return None,
    })
}
