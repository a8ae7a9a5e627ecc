//! Box2D's rain benchmark, built from the project's ragdoll: groups of ragdolls dropped every
//! eight steps on five floors of small static boxes; once every column has its groups, the
//! oldest column's groups are destroyed and dropped again.

use super::joints::{RAGDOLL_BONES, RAGDOLL_HIP_HEIGHT, RAGDOLL_JOINTS, ragdoll_parts};
use crate::scene::{BodyDesc, Scene, ShapeDesc};
use crate::timeline::{BodyGroup, GroupChange, TimedChange};
use physics_core::prelude::*;

/// Floors, one above another, and rows of groups (one row dropped onto each floor).
pub const RAIN_ROWS: usize = 5;
/// Columns of groups along each floor.
pub const RAIN_COLUMNS: usize = 40;
/// Ragdolls in a group.
pub const RAIN_GROUP_SIZE: usize = 5;
/// Steps between two drops of a column's groups.
pub const RAIN_DROP_INTERVAL: usize = 8;
/// Steps the timeline covers (Box2D's benchmark runs 1000; a longer run keeps raining).
pub const RAIN_TIMELINE_STEPS: usize = 10_000;

/// Edge of the square boxes the floors are made of.
const CELL: f32 = 0.5;
/// Boxes in a floor, less one (Box2D's grid count).
const CELLS: usize = 500;
/// Height between two floors.
const FLOOR_SPACING: f32 = 45.0;
/// How far above its floor a group is dropped (the feet's height).
const DROP_HEIGHT: f32 = 40.0;
/// Sideways distance between the ragdolls of a group. Box2D puts its narrower humans 0.5 m
/// apart; the project's ragdoll holds its arms 0.6 m apart, so at 0.5 m neighbours would start
/// overlapping.
const RAGDOLL_SPACING: f32 = 0.8;

/// Box2D's rain: one static body holding five floors of 501 boxes of 0.5 m, 45 m apart, and
/// 200 groups of five ragdolls (12,000 bones, 11,000 hinges). Every eight steps, one column
/// of five groups (one above each floor) is dropped from 40 m above its floor; after the 40
/// columns are in, each drop first destroys the column it replaces. Ragdoll `i` of every group
/// is in collision category `2 << i` and leaves that category out of its mask: its own bones
/// never collide, nor do they with ragdoll `i` of another group, as Box2D's collision groups
/// `-(i + 1)` have it, in filters every engine maps.
pub fn rain() -> Scene {
    let mut ground: Option<BodyDesc> = None;
    let left = -0.5 * CELLS as f32 * CELL;
    for floor in 0..RAIN_ROWS {
        let y = FLOOR_SPACING * floor as f32;
        for k in 0..=CELLS {
            let x = left + CELL * k as f32;
            let cell =
                Polygon::new_offset_box(0.5 * CELL, 0.5 * CELL, Vec2::new(x, y), Rot::IDENTITY)
                    .expect("floor cells have positive extents");
            let shape = ShapeDesc::new(cell);
            ground = Some(match ground {
                None => BodyDesc::fixed(Vec2::ZERO, shape),
                Some(body) => body.with_shape(shape),
            });
        }
    }
    let mut bodies = vec![ground.expect("the floors have cells")];
    let mut joints = Vec::new();
    let mut groups = Vec::with_capacity(RAIN_ROWS * RAIN_COLUMNS);
    let span = CELLS as f32 * CELL;
    let column_width = span / RAIN_COLUMNS as f32;
    for row in 0..RAIN_ROWS {
        for column in 0..RAIN_COLUMNS {
            let (first_body, first_joint) = (bodies.len(), joints.len());
            let feet = Vec2::new(
                -0.5 * span + column_width * (column as f32 + 0.5),
                DROP_HEIGHT + FLOOR_SPACING * row as f32,
            );
            for i in 0..RAIN_GROUP_SIZE {
                let category = 2u64 << i;
                let filter = Filter {
                    category_bits: category,
                    mask_bits: !category,
                    group_index: 0,
                };
                let hip = feet + Vec2::new(RAGDOLL_SPACING * i as f32, RAGDOLL_HIP_HEIGHT);
                let (bones, hinges) = ragdoll_parts(hip, filter, bodies.len());
                bodies.extend(bones);
                joints.extend(hinges);
            }
            groups.push(BodyGroup {
                bodies: first_body..bodies.len(),
                joints: first_joint..joints.len(),
            });
        }
    }
    debug_assert_eq!(
        bodies.len(),
        1 + groups.len() * RAIN_GROUP_SIZE * RAGDOLL_BONES
    );
    debug_assert_eq!(
        joints.len(),
        groups.len() * RAIN_GROUP_SIZE * RAGDOLL_JOINTS
    );
    Scene {
        name: "rain",
        gravity: Vec2::new(0.0, -10.0),
        dt: 1.0 / 60.0,
        steps: 1000,
        bodies,
        joints,
        groups,
        timeline: rain_timeline(),
    }
}

/// The drops: before every eighth step, a column of groups (column `k` of each row at the
/// `k`-th drop), and once all columns are in, the oldest column destroyed and dropped again.
fn rain_timeline() -> Vec<TimedChange> {
    let mut timeline = Vec::new();
    for (drop, step) in (0..RAIN_TIMELINE_STEPS)
        .step_by(RAIN_DROP_INTERVAL)
        .enumerate()
    {
        let column = drop % RAIN_COLUMNS;
        for row in 0..RAIN_ROWS {
            let group = row * RAIN_COLUMNS + column;
            if drop >= RAIN_COLUMNS {
                timeline.push(TimedChange {
                    step,
                    change: GroupChange::Destroy(group),
                });
            }
            timeline.push(TimedChange {
                step,
                change: GroupChange::Create(group),
            });
        }
    }
    timeline
}
