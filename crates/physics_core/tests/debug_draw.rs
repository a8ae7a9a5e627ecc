//! The world's debug drawing: every selected element reaches the renderer with the colour
//! kind that says what it is, and nothing unselected does.

use physics_core::debug_draw::{DebugColor, DebugDraw, DebugDrawOptions};
use physics_core::prelude::*;

/// Records each primitive's colour kind.
#[derive(Default)]
struct Recorder(Vec<(&'static str, DebugColor)>);

impl DebugDraw for Recorder {
    fn polygon(&mut self, vertices: &[Vec2], _radius: f32, color: DebugColor) {
        assert!(vertices.len() >= 3);
        self.0.push(("polygon", color));
    }
    fn circle(&mut self, _c: Vec2, radius: f32, axis: Vec2, color: DebugColor) {
        assert!(radius > 0.0 && (axis.length() - 1.0).abs() < 1e-5);
        self.0.push(("circle", color));
    }
    fn capsule(&mut self, _p1: Vec2, _p2: Vec2, _radius: f32, color: DebugColor) {
        self.0.push(("capsule", color));
    }
    fn segment(&mut self, _p1: Vec2, _p2: Vec2, color: DebugColor) {
        self.0.push(("segment", color));
    }
    fn point(&mut self, _p: Vec2, _size: f32, color: DebugColor) {
        self.0.push(("point", color));
    }
}

fn count(r: &Recorder, kind: &str, color: DebugColor) -> usize {
    r.0.iter()
        .filter(|(k, c)| *k == kind && *c == color)
        .count()
}

#[test]
fn shapes_contacts_joints_and_sleep_are_drawn_as_selected() {
    let mut world = World::new(WorldDef::default()).unwrap();
    let ground = world.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
    let ground_box = Shape::Polygon(Polygon::new_box(5.0, 0.5).unwrap());
    world
        .create_shape(ground, &ShapeDef::default(), ground_box)
        .unwrap();
    let ball = world
        .create_body(&BodyDef::dynamic(Vec2::new(0.0, 1.0)))
        .unwrap();
    let disk = Shape::Circle(Circle::new(Vec2::ZERO, 0.5).unwrap());
    world
        .create_shape(ball, &ShapeDef::default(), disk)
        .unwrap();
    let (la, lb) = world
        .local_anchors(ground, ball, Vec2::new(0.0, 1.0))
        .unwrap();
    let revolute = JointKind::Revolute(RevoluteJoint::default());
    let mut def = JointDef::new(ground, ball, la, lb, revolute);
    def.collide_connected = true;
    world.create_joint(&def).unwrap();
    world.step(1.0 / 60.0).unwrap();

    let mut shapes_only = Recorder::default();
    let options = DebugDrawOptions {
        joints: false,
        ..Default::default()
    };
    world.debug_draw(&mut shapes_only, &options);
    assert_eq!(count(&shapes_only, "polygon", DebugColor::Static), 1);
    assert_eq!(count(&shapes_only, "circle", DebugColor::Dynamic), 1);
    assert_eq!(shapes_only.0.len(), 2, "{:?}", shapes_only.0);

    let mut everything = Recorder::default();
    let all = DebugDrawOptions {
        shapes: true,
        aabbs: true,
        contacts: true,
        contact_impulses: true,
        joints: true,
        centers_of_mass: true,
        ..Default::default()
    };
    world.debug_draw(&mut everything, &all);
    assert_eq!(
        count(&everything, "point", DebugColor::Joint),
        2,
        "two anchors"
    );
    // Two boxes of four sides.
    assert_eq!(count(&everything, "segment", DebugColor::Aabb), 8);
    // The ball rests on the ground: one contact point with its normal.
    assert_eq!(count(&everything, "segment", DebugColor::ContactNormal), 1);
    // Centre of mass of the one moving body: two axes.
    assert_eq!(count(&everything, "segment", DebugColor::CenterOfMass), 2);

    let mut nothing = Recorder::default();
    let none = DebugDrawOptions {
        shapes: false,
        joints: false,
        ..Default::default()
    };
    world.debug_draw(&mut nothing, &none);
    assert!(nothing.0.is_empty());

    // Asleep after resting: drawn in the sleeping colour.
    for _ in 0..120 {
        world.step(1.0 / 60.0).unwrap();
    }
    assert!(!world.is_awake(ball).unwrap());
    let mut asleep = Recorder::default();
    world.debug_draw(&mut asleep, &options);
    assert_eq!(count(&asleep, "circle", DebugColor::Sleeping), 1);
}
