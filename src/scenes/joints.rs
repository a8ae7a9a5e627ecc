//! Scenes built around joints: pendulums, chains, mechanisms, vehicles, soft bodies.

use crate::scene::{BodyDesc, JointDesc, Scene, ShapeDesc, ball, boxed};
use physics_core::prelude::*;
use physics_core::shape::chain_segments;

const DT: f32 = 1.0 / 60.0;
const GRAVITY: Vec2 = Vec2::new(0.0, -10.0);

fn scene(name: &'static str, steps: usize, bodies: Vec<BodyDesc>, joints: Vec<JointDesc>) -> Scene {
    Scene {
        name,
        gravity: GRAVITY,
        dt: DT,
        steps,
        bodies,
        joints,
        groups: Vec::new(),
        timeline: Vec::new(),
    }
}

fn ground() -> BodyDesc {
    BodyDesc::fixed(Vec2::new(0.0, -1.0), boxed(40.0, 1.0))
}

fn pin() -> JointKind {
    JointKind::Revolute(RevoluteJoint::default())
}

fn capsule(half_length: f32, radius: f32) -> ShapeDesc {
    ShapeDesc::new(
        Capsule::new(
            Vec2::new(0.0, -half_length),
            Vec2::new(0.0, half_length),
            radius,
        )
        .expect("scene capsules are valid"),
    )
}

/// Length of the pendulum.
pub const PENDULUM_LENGTH: f32 = 2.0;

/// A ball on a 2 m pin, released at 0.5 rad. Bodies: pivot, bob.
pub fn pendulum() -> Scene {
    let pivot = Vec2::new(0.0, 6.0);
    let bob = pivot + PENDULUM_LENGTH * Vec2::new(0.5f32.sin(), -0.5f32.cos());
    scene(
        "pendulum",
        600,
        vec![
            BodyDesc::fixed(pivot, ball(0.05)),
            BodyDesc::dynamic(bob, ball(0.25).density(10.0)),
        ],
        vec![JointDesc::at(0, 1, pivot, pin())],
    )
}

/// Crank radius of the piston scene.
pub const CRANK_RADIUS: f32 = 0.5;

/// A motorised crank turning a connecting rod that drives a piston along a vertical slide.
/// Bodies: ground, crank, rod, piston.
pub fn piston_crank() -> Scene {
    let pivot = Vec2::new(0.0, 2.0);
    let crank_pin = pivot + Vec2::new(0.0, CRANK_RADIUS);
    let rod_length = 2.0;
    let piston_pin = crank_pin + Vec2::new(0.0, rod_length);
    let parts = -2;
    let bodies = vec![
        ground(),
        BodyDesc::dynamic(
            pivot + Vec2::new(0.0, 0.5 * CRANK_RADIUS),
            boxed(0.1, 0.5 * CRANK_RADIUS + 0.1).group(parts),
        ),
        BodyDesc::dynamic(
            crank_pin + Vec2::new(0.0, 0.5 * rod_length),
            boxed(0.08, 0.5 * rod_length).group(parts),
        ),
        BodyDesc::dynamic(piston_pin, boxed(0.5, 0.25).density(2.0).group(parts)),
    ];
    let motor = RevoluteJoint {
        enable_motor: true,
        motor_speed: std::f32::consts::PI,
        max_motor_torque: 1000.0,
        ..Default::default()
    };
    let slide = PrismaticJoint {
        local_axis_a: Vec2::Y,
        ..Default::default()
    };
    let joints = vec![
        JointDesc::at(0, 1, pivot, JointKind::Revolute(motor)),
        JointDesc::at(1, 2, crank_pin, pin()),
        JointDesc::at(2, 3, piston_pin, pin()),
        JointDesc::at(0, 3, piston_pin, JointKind::Prismatic(slide)),
    ];
    scene("piston_crank", 600, bodies, joints)
}

/// A 30-plank bridge pinned end to end between two points 30 m apart.
pub fn bridge() -> Scene {
    let planks = 30;
    let mut bodies = vec![ground()];
    let mut joints = Vec::new();
    let (left, y) = (-15.0f32, 5.0f32);
    for i in 0..planks {
        bodies.push(BodyDesc::dynamic(
            Vec2::new(left + 0.5 + i as f32, y),
            boxed(0.5, 0.125),
        ));
    }
    for i in 0..=planks {
        let a = if i == 0 { 0 } else { i };
        let b = if i == planks { 0 } else { i + 1 };
        joints.push(JointDesc::at(a, b, Vec2::new(left + i as f32, y), pin()));
    }
    // Something to carry: a few boxes dropped on the deck.
    for k in 0..5 {
        bodies.push(BodyDesc::dynamic(
            Vec2::new(-4.0 + 2.0 * k as f32, 7.0),
            boxed(0.4, 0.4),
        ));
    }
    scene("bridge", 600, bodies, joints)
}

/// A ragdoll of 12 capsule bones with limited hinges, dropped on the ground. Bones of one
/// ragdoll share a negative collision group and do not collide with each other.
pub fn ragdoll() -> Scene {
    let mut bodies = vec![ground()];
    let filter = Filter {
        group_index: -5,
        ..Filter::default()
    };
    let (bones, joints) = ragdoll_parts(Vec2::new(0.0, 3.0), filter, bodies.len());
    bodies.extend(bones);
    // Knock it over.
    bodies[1 + RAGDOLL_CHEST].linear_velocity = Vec2::new(2.0, 0.0);
    scene("ragdoll", 600, bodies, joints)
}

/// Bones in one ragdoll.
pub const RAGDOLL_BONES: usize = 12;
/// Hinges in one ragdoll.
pub const RAGDOLL_JOINTS: usize = 11;
/// The chest's place among a ragdoll's bones.
const RAGDOLL_CHEST: usize = 2;
/// How far a ragdoll's lowest point (a shin's end) lies below its hips, in metres.
pub const RAGDOLL_HIP_HEIGHT: f32 = 1.18;

/// The bones and hinges of one ragdoll at rest with its hips at `hip`, every bone's shape in
/// `filter`: 12 capsules (pelvis, belly, chest, head, then for each side thigh, shin, upper
/// arm and forearm) and 11 limited revolute joints. The joints name the bones by scene index,
/// the pelvis being `first_body`.
pub(crate) fn ragdoll_parts(
    hip: Vec2,
    filter: Filter,
    first_body: usize,
) -> (Vec<BodyDesc>, Vec<JointDesc>) {
    let mut bodies = Vec::with_capacity(RAGDOLL_BONES);
    let mut joints = Vec::with_capacity(RAGDOLL_JOINTS);
    let mut add = |offset: Vec2, half: f32, radius: f32| {
        let mut shape = capsule(half, radius);
        shape.filter = filter;
        bodies.push(BodyDesc::dynamic(hip + offset, shape));
        first_body + bodies.len() - 1
    };
    let at = |x: f32, y: f32| Vec2::new(hip.x + x, hip.y + y);
    let pelvis = add(Vec2::new(0.0, 0.1), 0.1, 0.15);
    let belly = add(Vec2::new(0.0, 0.45), 0.1, 0.15);
    let chest = add(Vec2::new(0.0, 0.8), 0.1, 0.17);
    let head = add(Vec2::new(0.0, 1.25), 0.05, 0.15);
    debug_assert_eq!(chest, first_body + RAGDOLL_CHEST);
    let limb = |lower: f32, upper: f32| {
        JointKind::Revolute(RevoluteJoint {
            enable_limit: true,
            lower_angle: lower,
            upper_angle: upper,
            ..Default::default()
        })
    };
    joints.push(JointDesc::at(pelvis, belly, at(0.0, 0.27), limb(-0.3, 0.3)));
    joints.push(JointDesc::at(belly, chest, at(0.0, 0.62), limb(-0.3, 0.3)));
    joints.push(JointDesc::at(chest, head, at(0.0, 1.05), limb(-0.5, 0.5)));
    for side in [-1.0f32, 1.0] {
        let thigh = add(Vec2::new(0.12 * side, -0.3), 0.2, 0.1);
        let shin = add(Vec2::new(0.12 * side, -0.9), 0.2, 0.08);
        joints.push(JointDesc::at(
            pelvis,
            thigh,
            at(0.12 * side, 0.0),
            limb(-0.3, 1.5),
        ));
        joints.push(JointDesc::at(
            thigh,
            shin,
            at(0.12 * side, -0.6),
            limb(-1.5, 0.0),
        ));
        let upper_arm = add(Vec2::new(0.3 * side, 0.65), 0.15, 0.07);
        let forearm = add(Vec2::new(0.3 * side, 0.2), 0.15, 0.06);
        joints.push(JointDesc::at(
            chest,
            upper_arm,
            at(0.3 * side, 0.9),
            limb(-1.5, 1.5),
        ));
        joints.push(JointDesc::at(
            upper_arm,
            forearm,
            at(0.3 * side, 0.42),
            limb(-1.5, 0.0),
        ));
    }
    (bodies, joints)
}

/// A car: a chassis on two motorised wheel joints with spring suspension, driving over bumpy
/// ground, a chain (so the wheels roll over its joints without catching). Bodies: ground,
/// chassis, rear wheel, front wheel.
pub fn car() -> Scene {
    let mut terrain = BodyDesc::fixed(Vec2::ZERO, boxed(1.0, 1.0));
    terrain.shapes.clear();
    let step = 1.0f32;
    let height = |x: f32| {
        if x < 5.0 {
            0.0
        } else {
            0.25 * (0.9 * x).sin() + 0.1 * (2.3 * x).sin()
        }
    };
    // Listed right to left: a chain collides on the right of its direction, here above.
    let points: Vec<Vec2> = (-20..=120)
        .rev()
        .map(|k| {
            let x = k as f32 * step;
            Vec2::new(x, height(x))
        })
        .collect();
    for segment in chain_segments(&points, false).expect("the terrain points are distinct") {
        terrain.shapes.push(ShapeDesc::new(segment));
    }
    let chassis_at = Vec2::new(0.0, 1.0);
    let wheel_offsets = [-0.9f32, 0.9];
    let mut bodies = vec![
        terrain,
        BodyDesc::dynamic(chassis_at, boxed(1.25, 0.25).density(2.0)),
    ];
    let mut joints = Vec::new();
    for x in wheel_offsets {
        let at = Vec2::new(x, 0.4);
        bodies.push(BodyDesc::dynamic(at, ball(0.4).friction(0.9)));
        let suspension = WheelJoint {
            hertz: 5.0,
            damping_ratio: 0.7,
            enable_motor: true,
            motor_speed: -12.0,
            max_motor_torque: 20.0,
            enable_limit: true,
            lower_translation: -0.25,
            upper_translation: 0.25,
            ..Default::default()
        };
        joints.push(JointDesc::at(
            1,
            bodies.len() - 1,
            at,
            JointKind::Wheel(suspension),
        ));
    }
    scene("car", 600, bodies, joints)
}

/// Two boxes on a 1:1 pulley, the heavier pulling the lighter up. Bodies: ground, left box
/// (2 kg), right box (1 kg).
pub fn pulley() -> Scene {
    let (ga, gb) = (Vec2::new(-3.0, 10.0), Vec2::new(3.0, 10.0));
    // The heavy box lands (4.5 m down) before the light one reaches its wheel (5.5 m up).
    let (pa, pb) = (Vec2::new(-3.0, 5.5), Vec2::new(3.0, 4.5));
    let bodies = vec![
        ground(),
        BodyDesc::dynamic(pa - Vec2::new(0.0, 0.5), boxed(0.5, 0.5).density(2.0)),
        BodyDesc::dynamic(pb - Vec2::new(0.0, 0.5), boxed(0.5, 0.5)),
    ];
    let rope = PulleyJoint::new(ga, gb, pa, pb, 1.0);
    let joints = vec![JointDesc::between(1, 2, pa, pb, JointKind::Pulley(rope))];
    scene("pulley", 600, bodies, joints)
}

/// Hooke's springs with damping between point masses (Szauer).
fn spring(length: f32, hertz: f32) -> JointKind {
    JointKind::Distance(DistanceJoint::spring(length, hertz, 0.5))
}

/// A rope of 30 small beads joined by stiff structural springs and softer bend springs (every
/// second bead), hanging from one end and released horizontally.
pub fn rope() -> Scene {
    let (beads, spacing, top) = (30usize, 0.25f32, Vec2::new(-4.0, 10.0));
    let mut bodies = vec![ground(), BodyDesc::fixed(top, ball(0.05))];
    for i in 0..beads {
        bodies.push(BodyDesc::dynamic(
            top + Vec2::new(spacing * (i + 1) as f32, 0.0),
            ball(0.08).density(5.0).group(-3),
        ));
    }
    let bead = |i: usize| i + 2;
    let mut joints = vec![JointDesc::at(
        1,
        bead(0),
        top + Vec2::new(spacing, 0.0),
        pin(),
    )];
    for i in 0..beads - 1 {
        let (a, b) = (
            top + Vec2::new(spacing * (i + 1) as f32, 0.0),
            top + Vec2::new(spacing * (i + 2) as f32, 0.0),
        );
        joints.push(JointDesc::between(
            bead(i),
            bead(i + 1),
            a,
            b,
            spring(spacing, 30.0),
        ));
    }
    for i in 0..beads - 2 {
        let (a, b) = (
            top + Vec2::new(spacing * (i + 1) as f32, 0.0),
            top + Vec2::new(spacing * (i + 3) as f32, 0.0),
        );
        joints.push(JointDesc::between(
            bead(i),
            bead(i + 2),
            a,
            b,
            spring(2.0 * spacing, 2.0),
        ));
    }
    scene("rope", 600, bodies, joints)
}

/// A 12 x 12 cloth of beads: structural springs to the right and lower neighbours, shear
/// springs along both diagonals, bend springs two apart (Szauer); the top row hangs from
/// pins.
pub fn cloth() -> Scene {
    let (n, spacing) = (12usize, 0.3f32);
    let origin = Vec2::new(-0.5 * spacing * (n - 1) as f32, 9.0);
    let at = |i: usize, j: usize| origin + Vec2::new(spacing * i as f32, -spacing * j as f32);
    let mut bodies = vec![ground()];
    let bead = |i: usize, j: usize| 1 + j * n + i;
    for j in 0..n {
        for i in 0..n {
            bodies.push(BodyDesc::dynamic(
                at(i, j),
                ball(0.06).density(10.0).group(-4),
            ));
        }
    }
    let mut joints = Vec::new();
    let link = |joints: &mut Vec<JointDesc>,
                (i0, j0): (usize, usize),
                (i1, j1): (usize, usize),
                hertz: f32| {
        let (a, b) = (at(i0, j0), at(i1, j1));
        joints.push(JointDesc::between(
            bead(i0, j0),
            bead(i1, j1),
            a,
            b,
            spring(a.distance(b), hertz),
        ));
    };
    for j in 0..n {
        for i in 0..n {
            if i + 1 < n {
                link(&mut joints, (i, j), (i + 1, j), 30.0);
            }
            if j + 1 < n {
                link(&mut joints, (i, j), (i, j + 1), 30.0);
            }
            if i + 1 < n && j + 1 < n {
                link(&mut joints, (i, j), (i + 1, j + 1), 10.0);
                link(&mut joints, (i + 1, j), (i, j + 1), 10.0);
            }
            if i + 2 < n {
                link(&mut joints, (i, j), (i + 2, j), 3.0);
            }
            if j + 2 < n {
                link(&mut joints, (i, j), (i, j + 2), 3.0);
            }
        }
    }
    for i in (0..n).step_by(3) {
        joints.push(JointDesc::at(0, bead(i, 0), at(i, 0), pin()));
    }
    scene("cloth", 600, bodies, joints)
}

/// Box2D's joint_grid benchmark: 100 x 100 circles pinned to their upper and left neighbours,
/// hanging from seven static bodies in the middle of the top row. As in Box2D's, the circles
/// are in category 2 and their mask leaves it out, so they never collide with each other.
pub fn joint_grid() -> Scene {
    let n = 100usize;
    let mut bodies = Vec::with_capacity(n * n);
    let mut joints = Vec::new();
    let index = |k: usize, i: usize| k * n + i;
    for k in 0..n {
        for i in 0..n {
            let position = Vec2::new(k as f32, -(i as f32));
            let shape = ball(0.4).categories(2, !2);
            let fixed = i == 0 && (n / 2 - 3..=n / 2 + 3).contains(&k);
            bodies.push(if fixed {
                BodyDesc::fixed(position, shape)
            } else {
                BodyDesc::dynamic(position, shape)
            });
            if i > 0 {
                let upper = index(k, i - 1);
                joints.push(JointDesc::between(
                    upper,
                    index(k, i),
                    position + Vec2::new(0.0, 0.5),
                    position + Vec2::new(0.0, 0.5),
                    pin(),
                ));
            }
            if k > 0 {
                let left = index(k - 1, i);
                joints.push(JointDesc::between(
                    left,
                    index(k, i),
                    position - Vec2::new(0.5, 0.0),
                    position - Vec2::new(0.5, 0.0),
                    pin(),
                ));
            }
        }
    }
    scene("joint_grid", 500, bodies, joints)
}
