//! Queries and filters: the early-out ray with predicates, all hits along a shape cast,
//! point projection, ray and shape caster components, named layers and per-material
//! combine rules.

mod support;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemState;
use bevy_math::Quat;
use bevy_math::Vec2;
use bevy_physics2d::prelude::*;
use support::app;
use support::ground;
use support::ground_20m;
use support::spawn_box;
use support::step;

#[derive(PhysicsLayer, Clone, Copy, Debug)]
enum Layer {
    Ground,
    Player,
    Enemy,
}

/// Three 1 m boxes on static bodies centred at x = 2, 4, 6 on y = 0.
fn three_boxes(app: &mut App) -> [Entity; 3] {
    [2.0, 4.0, 6.0].map(|x| {
        app.world_mut()
            .spawn((
                RigidBody::Static,
                Collider::rectangle(1.0, 1.0),
                Transform::from_xyz(x, 0.0, 0.0),
            ))
            .id()
    })
}

fn with_query<R>(app: &mut App, f: impl FnOnce(&SpatialQuery) -> R) -> R {
    let mut state: SystemState<SpatialQuery> = SystemState::new(app.world_mut());
    let query = state.get(app.world()).unwrap();
    f(&query)
}

#[test]
fn a_ray_stops_at_the_first_accepted_collider() {
    let mut app = app();
    let boxes = three_boxes(&mut app);
    step(&mut app, 1);
    let filter = SpatialQueryFilter::default();
    let (first, past_first) = with_query(&mut app, |q| {
        (
            q.cast_ray(Vec2::ZERO, Vec2::X, 100.0, &filter),
            q.cast_ray_predicate(Vec2::ZERO, Vec2::X, 100.0, &filter, &|e| e != boxes[0]),
        )
    });
    let first = first.unwrap();
    assert_eq!(first.entity, boxes[0]);
    assert!((first.distance - 1.5).abs() < 1e-5 && first.normal == Vec2::NEG_X);
    let second = past_first.unwrap();
    assert_eq!(second.entity, boxes[1]);
    assert!((second.distance - 3.5).abs() < 1e-5);
    // Excluded by the filter, the same way.
    let excluded = filter.clone().with_excluded([boxes[0], boxes[1]]);
    let third = with_query(&mut app, |q| {
        q.cast_ray(Vec2::ZERO, Vec2::X, 100.0, &excluded)
    });
    assert_eq!(third.unwrap().entity, boxes[2]);
}

#[test]
fn shape_hits_lists_every_collider_along_the_sweep_nearest_first() {
    let mut app = app();
    let boxes = three_boxes(&mut app);
    step(&mut app, 1);
    let hits = with_query(&mut app, |q| {
        q.shape_hits(
            &Collider::circle(0.25),
            Vec2::ZERO,
            Quat::IDENTITY,
            Vec2::X,
            10.0,
            8,
            &SpatialQueryFilter::default(),
        )
        .unwrap()
    });
    let order: Vec<Entity> = hits.iter().map(|h| h.entity).collect();
    assert_eq!(order, boxes.to_vec());
    // A 0.25 m ball meets each box's near face (x = 1.5, 3.5, 5.5) after x - 0.25, within
    // the cast's tolerance (the linear slop, 5 mm).
    for (hit, face) in hits.iter().zip([1.5f32, 3.5, 5.5]) {
        assert!(
            (hit.distance - (face - 0.25)).abs() < 0.006,
            "{} for the face at {face}",
            hit.distance
        );
    }
    let two = with_query(&mut app, |q| {
        q.shape_hits(
            &Collider::circle(0.25),
            Vec2::ZERO,
            Quat::IDENTITY,
            Vec2::X,
            10.0,
            2,
            &SpatialQueryFilter::default(),
        )
        .unwrap()
    });
    assert_eq!(two.len(), 2);
}

#[test]
fn a_point_projects_onto_the_nearest_collider() {
    let mut app = app();
    let boxes = three_boxes(&mut app);
    step(&mut app, 1);
    let filter = SpatialQueryFilter::default();
    let (above, inside, far) = with_query(&mut app, |q| {
        (
            q.project_point(Vec2::new(4.2, 3.0), &filter),
            q.project_point(Vec2::new(6.1, 0.1), &filter),
            q.project_point_predicate(Vec2::new(4.2, 3.0), &filter, &|e| e != boxes[1]),
        )
    });
    let above = above.unwrap();
    assert_eq!(above.entity, boxes[1]);
    assert!(
        (above.point - Vec2::new(4.2, 0.5)).length() < 1e-4,
        "{}",
        above.point
    );
    assert!(!above.inside && (above.distance - 2.5).abs() < 1e-4);
    let inside = inside.unwrap();
    assert!(inside.inside && inside.entity == boxes[2]);
    assert_eq!(inside.point, Vec2::new(6.1, 0.1));
    // Without the middle box, the nearest is the right one's top corner (5.5, 0.5).
    let far = far.unwrap();
    assert_eq!(far.entity, boxes[2]);
    assert!(
        (far.point - Vec2::new(5.5, 0.5)).length() < 1e-4,
        "{}",
        far.point
    );
}

#[test]
fn caster_components_follow_their_entity_and_skip_it() {
    let mut app = app();
    let floor = ground(&mut app);
    // A ball falling onto the floor with a 3 m probe downwards from its centre and a shape
    // caster sweeping a small box to the right, towards a wall 4 m away.
    let wall = app
        .world_mut()
        .spawn((
            RigidBody::Static,
            Collider::rectangle(1.0, 6.0),
            Transform::from_xyz(4.5, 3.0, 0.0),
        ))
        .id();
    let ball = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.5),
            RayCaster::new(Vec2::ZERO, Vec2::NEG_Y).with_max_distance(3.0),
            ShapeCaster::new(Collider::rectangle(0.2, 0.2), Vec2::X).with_max_distance(10.0),
            Transform::from_xyz(0.0, 2.0, 0.0),
        ))
        .id();
    step(&mut app, 1);
    let ray = |app: &App| app.world().get::<RayHits>(ball).unwrap().clone();
    let first = ray(&app);
    assert_eq!(
        first.first().unwrap().entity,
        floor,
        "its own collider is skipped"
    );
    let high = first.first().unwrap().distance;
    step(&mut app, 90);
    let low = ray(&app).first().unwrap().distance;
    // Resting on the floor: the centre is 0.5 m up.
    assert!((low - 0.5).abs() < 0.01 && high > 1.5, "{high} then {low}");
    let swept = app.world().get::<ShapeHits>(ball).unwrap();
    assert_eq!(swept.iter().next().unwrap().entity, wall);
    // The box's right face starts at 0.1, the wall's face is at 4.0.
    let d = swept.iter().next().unwrap().distance;
    assert!((d - 3.9).abs() < 0.01, "{d}");
}

#[test]
fn derived_layers_decide_who_collides_and_what_queries_see() {
    let mut app = app();
    app.world_mut().spawn((
        RigidBody::Static,
        Collider::rectangle(40.0, 1.0),
        CollisionLayers::new(Layer::Ground, [Layer::Player, Layer::Enemy]),
        Transform::from_xyz(0.0, -0.5, 0.0),
    ));
    let player = |app: &mut App, y: f32, layer: Layer| {
        // Players meet the ground and enemies; enemies meet everything.
        let layers = match layer {
            Layer::Enemy => CollisionLayers::new(layer, Layer::all_bits()),
            _ => CollisionLayers::new(layer, [Layer::Ground, Layer::Enemy]),
        };
        app.world_mut()
            .spawn((
                RigidBody::Dynamic,
                Collider::circle(0.5),
                layers,
                Transform::from_xyz(0.0, y, 0.0),
            ))
            .id()
    };
    // Two players stacked: they pass through each other and both rest on the ground; an
    // enemy dropped on them lands on top.
    let (low, high) = (
        player(&mut app, 0.5, Layer::Player),
        player(&mut app, 3.0, Layer::Player),
    );
    step(&mut app, 120);
    let y = |app: &App, e| app.world().get::<Transform>(e).unwrap().translation.y;
    assert!((y(&app, low) - 0.5).abs() < 0.01 && (y(&app, high) - 0.5).abs() < 0.01);
    let enemy = player(&mut app, 4.0, Layer::Enemy);
    step(&mut app, 120);
    assert!((y(&app, enemy) - 1.5).abs() < 0.02, "{}", y(&app, enemy));
    // A query for enemies only sees the enemy.
    let filter = SpatialQueryFilter::default().with_mask(Layer::Enemy);
    let hit = with_query(&mut app, |q| {
        q.cast_ray(Vec2::new(0.0, 10.0), Vec2::NEG_Y, 20.0, &filter)
    });
    assert_eq!(hit.unwrap().entity, enemy);
    assert_eq!(Layer::all_bits(), 0b111);
}

#[test]
fn per_material_combine_rules_set_the_sliding_distance() {
    // A flat box (1 m by 0.25 m: it would tip only above mu = 4) sliding at 3 m/s on flat
    // ground stops after v^2 / (2 mu g): friction 1 on the box, 0.1 on the ground. The world's geometric mean gives mu = 0.316 (1.42 m); the
    // ground's Min rule 0.1 (4.5 m); Max on the box outranks Min: 1 (0.45 m).
    let slide = |ground_rule: Option<MixRule>, box_rule: Option<MixRule>| -> f32 {
        let mut app = app();
        let mut floor = app.world_mut().spawn((
            RigidBody::Static,
            Collider::rectangle(40.0, 1.0),
            Friction(0.1),
            Transform::from_xyz(0.0, -0.5, 0.0),
        ));
        if let Some(rule) = ground_rule {
            floor.insert(FrictionCombine(rule));
        }
        let mut sliding = app.world_mut().spawn((
            RigidBody::Dynamic,
            Collider::rectangle(1.0, 0.25),
            Friction(1.0),
            LinearVelocity(Vec2::new(3.0, 0.0)),
            Transform::from_xyz(-10.0, 0.125, 0.0),
        ));
        if let Some(rule) = box_rule {
            sliding.insert(FrictionCombine(rule));
        }
        let sliding = sliding.id();
        step(&mut app, 300);
        app.world().get::<Transform>(sliding).unwrap().translation.x + 10.0
    };
    let g = 10.0;
    let stop = |mu: f32| 9.0 / (2.0 * mu * g);
    let mean = slide(None, None);
    let min = slide(Some(MixRule::Min), None);
    let max_wins = slide(Some(MixRule::Min), Some(MixRule::Max));
    // Within 5 %: the first step's contact and the friction's softness shift the stop a
    // little.
    for (measured, mu) in [(mean, 0.1f32.sqrt()), (min, 0.1), (max_wins, 1.0)] {
        assert!(
            (measured - stop(mu)).abs() < 0.05 * stop(mu),
            "slid {measured} m, expected {} for mu {mu}",
            stop(mu)
        );
    }
}

#[test]
fn spatial_queries_find_colliders_by_ray_point_and_box() {
    let mut app = app();
    let ground = ground_20m(&mut app);
    let body = spawn_box(&mut app, 3.0, 0.5);
    step(&mut app, 1);
    let mut state = bevy_ecs::system::SystemState::<SpatialQuery>::new(app.world_mut());
    let query = state.get(app.world()).unwrap();
    let hit = query
        .cast_ray(
            bevy_math::Vec2::new(3.0, 10.0),
            bevy_math::Vec2::NEG_Y,
            100.0,
            &Default::default(),
        )
        .expect("the box is below");
    assert_eq!(hit.entity, body);
    assert!((hit.distance - 9.0).abs() < 0.02, "{hit:?}");
    let filter = SpatialQueryFilter::default().with_excluded([body]);
    let hit = query
        .cast_ray(
            bevy_math::Vec2::new(3.0, 10.0),
            bevy_math::Vec2::NEG_Y,
            100.0,
            &filter,
        )
        .unwrap();
    assert_eq!(hit.entity, ground);
    assert_eq!(
        query.point_intersections(bevy_math::Vec2::new(3.0, 0.5), &Default::default()),
        vec![body]
    );
    let mut both = query.aabb_intersections(
        bevy_math::Vec2::new(2.0, -1.0),
        bevy_math::Vec2::new(4.0, 1.0),
        &Default::default(),
    );
    both.sort();
    let mut expected = vec![ground, body];
    expected.sort();
    assert_eq!(both, expected);
    let cast = query
        .cast_shape(
            &Collider::circle(0.25),
            bevy_math::Vec2::new(-3.0, 0.5),
            bevy_math::Quat::IDENTITY,
            bevy_math::Vec2::X,
            10.0,
            &Default::default(),
        )
        .unwrap()
        .expect("the disk slides into the box");
    assert_eq!(cast.entity, body);
    // The box's left face is at x = 2.5; the disk's centre stops 0.25 before it.
    assert!((cast.distance - 5.25).abs() < 0.02, "{cast:?}");
}
