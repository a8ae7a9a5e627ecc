//! Colliders from Bevy's primitives, from meshes (by hand, per entity and for a whole
//! hierarchy), convex outlines past eight corners, and heightfield terrain.

mod support;

use bevy_app::prelude::*;
use bevy_asset::{AssetApp, AssetPlugin, Assets, RenderAssetUsages};
use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_math::primitives::{
    Capsule2d, Circle, ConvexPolygon, Rectangle, RegularPolygon, Segment2d, Triangle2d,
};
use bevy_mesh::{Indices, Mesh, Mesh2d, PrimitiveTopology};
use bevy_physics2d::prelude::*;
use bevy_physics2d::{PhysicsBody, PhysicsWarning};
use physics_core::shape::Shape;
use std::f32::consts::PI;
use support::{app, step};

use bevy_physics2d::physics_core;

fn area_of(collider: &Collider) -> f32 {
    collider
        .to_shapes(Default::default())
        .unwrap()
        .iter()
        .map(|s| s.mass_data(1.0).mass)
        .sum()
}

#[test]
fn bevy_primitives_become_the_same_shapes() {
    let close = |a: f32, b: f32| (a - b).abs() < 1e-4 * b.max(1.0);
    assert!(close(area_of(&Circle::new(0.5).into()), PI * 0.25));
    assert!(close(area_of(&Rectangle::new(2.0, 3.0).into()), 6.0));
    // A capsule of radius r and half length h: a 2r by 2h box and a disc.
    assert!(close(
        area_of(&Capsule2d::new(0.5, 2.0).into()),
        1.0 * 2.0 + PI * 0.25
    ));
    assert!(close(
        area_of(&Triangle2d::new(Vec2::ZERO, Vec2::X, Vec2::Y).into()),
        0.5
    ));
    let segment: Collider = Segment2d::new(Vec2::ZERO, Vec2::new(3.0, 0.0)).into();
    assert!(matches!(
        segment.to_shapes(Default::default()).unwrap()[0],
        Shape::Segment(_)
    ));
    // A regular 12-gon: 12 corners on the circumcircle, area n r^2 sin(2 pi / n) / 2, one
    // collider of two convex pieces.
    let dodecagon: Collider = RegularPolygon::new(1.0, 12).into();
    assert_eq!(dodecagon.to_shapes(Default::default()).unwrap().len(), 2);
    assert!(close(area_of(&dodecagon), 6.0 * (PI / 6.0).sin()));
    // A 16-sided convex polygon from Bevy: a compound of three pieces, the same area.
    let corners: Vec<Vec2> = (0..16)
        .map(|i| 2.0 * Vec2::from_angle(2.0 * PI * i as f32 / 16.0))
        .collect();
    let polygon: Collider = ConvexPolygon::new(corners).unwrap().into();
    assert_eq!(polygon.to_shapes(Default::default()).unwrap().len(), 3);
    assert!(close(area_of(&polygon), 8.0 * 4.0 * (PI / 8.0).sin()));
}

#[test]
fn a_ball_rests_on_a_many_sided_static_polygon_at_its_inradius() {
    let mut app = app();
    // A 20-gon of circumradius 3: its flat top is at the inradius r cos(pi / 20) when a
    // side faces up (20 sides: a vertex at angle 0, so sides face 9 degrees apart... the
    // side around 90 degrees lies between the corners at 81 and 99 degrees).
    let corners: Vec<Vec2> = (0..20)
        .map(|i| 3.0 * Vec2::from_angle(2.0 * PI * i as f32 / 20.0 + PI / 20.0))
        .collect();
    app.world_mut().spawn((
        RigidBody::Static,
        Collider::convex_hull(corners),
        Transform::default(),
    ));
    let ball = support::spawn_dynamic(&mut app, Collider::circle(0.25), 0.0, 5.0);
    step(&mut app, 120);
    let inradius = 3.0 * (PI / 20.0).cos();
    let y = app.world().get::<Transform>(ball).unwrap().translation.y;
    assert!(
        (y - (inradius + 0.25)).abs() < 0.01,
        "ball at {y}, top face at {inradius}"
    );
}

#[test]
fn heightfield_terrain_carries_a_ball_along_its_surface() {
    let mut app = app();
    // Gentle hills: h(x) = 0.5 sin(x / 4), 129 samples over 64 m.
    let heights: Vec<f32> = (0..=128)
        .map(|i| 0.5 * ((i as f32 * 0.5 - 32.0) / 4.0).sin())
        .collect();
    app.world_mut().spawn((
        RigidBody::Static,
        Collider::heightfield(heights, Vec2::new(64.0, 1.0)),
        Transform::default(),
    ));
    let ball = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.3),
            LinearVelocity(Vec2::new(4.0, 0.0)),
            Transform::from_xyz(-20.0, 2.0, 0.0),
        ))
        .id();
    let mut lowest_clearance = f32::INFINITY;
    for _ in 0..300 {
        step(&mut app, 1);
        let p = app.world().get::<Transform>(ball).unwrap().translation;
        let ground = 0.5 * (p.x / 4.0).sin();
        lowest_clearance = lowest_clearance.min(p.y - ground);
    }
    // Never below the surface by more than the contact slop (plus the chord error of the
    // samples, under 1 mm at this spacing).
    assert!(
        lowest_clearance > 0.3 - 0.02,
        "sank into the terrain: {lowest_clearance}"
    );
    let x = app.world().get::<Transform>(ball).unwrap().translation.x;
    assert!(x > -10.0, "it rolled along: x = {x}");
}

/// An L-shaped mesh: a floor 4 m wide and 1 m thick, a wall 1 m wide and 4 m tall.
fn l_mesh() -> Mesh {
    let corners: Vec<[f32; 3]> = [
        [0.0, 0.0],
        [4.0, 0.0],
        [4.0, 1.0],
        [0.0, 1.0],
        [0.0, 4.0],
        [1.0, 4.0],
        [1.0, 1.0],
    ]
    .iter()
    .map(|p| [p[0], p[1], 0.0])
    .collect();
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, corners)
    .with_inserted_indices(Indices::U32(vec![0, 1, 2, 0, 2, 3, 3, 6, 5, 3, 5, 4]))
}

fn app_with_meshes() -> App {
    let mut app = app();
    app.add_plugins(AssetPlugin::default()).init_asset::<Mesh>();
    app
}

#[test]
fn a_trimesh_keeps_the_concave_corner_that_a_hull_fills() {
    let mesh = l_mesh();
    let hull = Collider::convex_hull_from_mesh(&mesh).unwrap();
    let trimesh = Collider::trimesh_from_mesh(&mesh).unwrap();
    // The L's area is 4 + 3 = 7 m^2; its hull's (the pentagon over the corner) 11.5.
    assert!((area_of(&trimesh) - 7.0).abs() < 1e-4);
    assert!((area_of(&hull) - 11.5).abs() < 1e-4);
    // A ball dropped into the corner lands on the floor (y = 1) by the wall.
    let mut app = app();
    app.world_mut()
        .spawn((RigidBody::Static, trimesh, Transform::default()));
    let ball = support::spawn_dynamic(&mut app, Collider::circle(0.25), 2.0, 3.0);
    step(&mut app, 120);
    let y = app.world().get::<Transform>(ball).unwrap().translation.y;
    assert!((y - 1.25).abs() < 0.01, "ball at {y}");
    // A mesh without triangles is refused with a reason.
    let points = Mesh::new(PrimitiveTopology::PointList, RenderAssetUsages::default())
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, vec![[0.0f32, 0.0, 0.0]; 3]);
    assert!(Collider::trimesh_from_mesh(&points).is_err());
}

#[test]
fn constructors_build_colliders_once_the_meshes_are_loaded() {
    let mut app = app_with_meshes();
    let handle = app.world_mut().resource_mut::<Assets<Mesh>>().add(l_mesh());
    let single = app
        .world_mut()
        .spawn((
            RigidBody::Static,
            Mesh2d(handle.clone()),
            ColliderConstructor(MeshShape::Trimesh),
            Transform::from_xyz(-10.0, 0.0, 0.0),
        ))
        .id();
    // A scene: a root with a static body, two meshed children (one named to be skipped).
    let root = app
        .world_mut()
        .spawn((
            RigidBody::Static,
            Transform::from_xyz(10.0, 0.0, 0.0),
            ColliderConstructorHierarchy::new(MeshShape::Trimesh).without("Decoration"),
        ))
        .id();
    let floor = app
        .world_mut()
        .spawn((Mesh2d(handle.clone()), Transform::default(), ChildOf(root)))
        .id();
    let decoration = app
        .world_mut()
        .spawn((
            Mesh2d(handle),
            bevy_ecs::name::Name::new("Decoration"),
            Transform::from_xyz(0.0, 5.0, 0.0),
            ChildOf(root),
        ))
        .id();
    step(&mut app, 2);
    assert!(app.world().get::<Collider>(single).is_some());
    assert!(app.world().get::<ColliderConstructor>(single).is_none());
    assert!(app.world().get::<Collider>(floor).is_some());
    assert!(app.world().get::<Collider>(decoration).is_none());
    assert!(
        app.world()
            .get::<ColliderConstructorHierarchy>(root)
            .is_none()
    );
    // The hierarchy's collider belongs to the root's body: a ball lands on its floor.
    let ball = support::spawn_dynamic(&mut app, Collider::circle(0.25), 12.0, 3.0);
    step(&mut app, 120);
    let y = app.world().get::<Transform>(ball).unwrap().translation.y;
    assert!((y - 1.25).abs() < 0.01, "ball at {y}");
    let body = app.world().get::<PhysicsBody>(root).unwrap().id();
    let shapes = app
        .world()
        .resource::<PhysicsWorld>()
        .core()
        .body_shapes(body)
        .unwrap()
        .len();
    assert_eq!(
        shapes, 4,
        "the floor's four triangles, none for the decoration"
    );
}

#[test]
fn a_constructor_waits_for_its_mesh_and_warns_for_a_useless_one() {
    let mut app = app_with_meshes();
    let handle = bevy_asset::Handle::<Mesh>::default();
    let waiting = app
        .world_mut()
        .spawn((
            RigidBody::Static,
            Mesh2d(handle.clone()),
            ColliderConstructor(MeshShape::ConvexHull),
            Transform::default(),
        ))
        .id();
    step(&mut app, 3);
    assert!(app.world().get::<ColliderConstructor>(waiting).is_some());
    assert!(app.world().get::<Collider>(waiting).is_none());
    // The mesh arrives: built at the next update.
    let lines = Mesh::new(PrimitiveTopology::LineList, RenderAssetUsages::default())
        .with_inserted_attribute(
            Mesh::ATTRIBUTE_POSITION,
            vec![[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0]],
        );
    let mut cursor = bevy_ecs::message::MessageCursor::<PhysicsWarning>::default();
    let useless = app.world_mut().resource_mut::<Assets<Mesh>>().add(lines);
    app.world_mut()
        .entity_mut(waiting)
        .insert((Mesh2d(useless), ColliderConstructor(MeshShape::Trimesh)));
    step(&mut app, 2);
    let warned = support::read(&mut app, &mut cursor);
    assert!(
        warned
            .iter()
            .any(|w| w.entity == waiting && w.message.contains("not a triangle list")),
        "{warned:?}"
    );
    assert!(app.world().get::<ColliderConstructor>(waiting).is_none());
}
