//! Colliders from meshes: a mesh's convex hull, or its triangles for concave static
//! geometry, built by hand (`Collider::convex_hull_from_mesh`) or by component
//! ([`ColliderConstructor`] on one entity, [`ColliderConstructorHierarchy`] on a scene root,
//! built as soon as the meshes are loaded). Feature `mesh` (on by default).

use crate::collision::collider::{Collider, CompoundPart};
use crate::world::warnings::{PhysicsWarning, warn_skipped};
use bevy_asset::{AssetId, Assets};
use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_mesh::{Indices, Mesh, Mesh2d, PrimitiveTopology, VertexAttributeValues};
use bevy_reflect::prelude::*;
use std::collections::HashMap;

/// Why a mesh gave no collider.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MeshColliderError {
    /// The mesh's data lives only in the render world (`RenderAssetUsages::RENDER_WORLD`):
    /// keep it in the main world too to build colliders from it.
    NotInMainWorld,
    /// The mesh has no vertex positions (or not as 2 or 3 floats).
    NoPositions,
    /// A triangle collider needs a triangle list.
    NotTriangles(String),
    /// Every triangle was degenerate (no area), or there were none.
    NoTriangles,
}

impl std::fmt::Display for MeshColliderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MeshColliderError::NotInMainWorld => write!(
                f,
                "the mesh's data is in the render world only (keep RenderAssetUsages::MAIN_WORLD)"
            ),
            MeshColliderError::NoPositions => write!(f, "the mesh has no vertex positions"),
            MeshColliderError::NotTriangles(t) => {
                write!(f, "the mesh is a {t}, not a triangle list")
            }
            MeshColliderError::NoTriangles => write!(f, "the mesh has no triangle with an area"),
        }
    }
}

impl std::error::Error for MeshColliderError {}

/// The x and y of every vertex.
fn positions(mesh: &Mesh) -> Result<Vec<Vec2>, MeshColliderError> {
    let values = mesh
        .try_attribute_option(Mesh::ATTRIBUTE_POSITION)
        .map_err(|_| MeshColliderError::NotInMainWorld)?
        .ok_or(MeshColliderError::NoPositions)?;
    match values {
        VertexAttributeValues::Float32x3(v) => {
            Ok(v.iter().map(|p| Vec2::new(p[0], p[1])).collect())
        }
        VertexAttributeValues::Float32x2(v) => {
            Ok(v.iter().map(|p| Vec2::new(p[0], p[1])).collect())
        }
        _ => Err(MeshColliderError::NoPositions),
    }
}

/// The mesh's triangles as corner triples (indexed or not).
fn triangles(mesh: &Mesh) -> Result<Vec<[Vec2; 3]>, MeshColliderError> {
    if mesh.primitive_topology() != PrimitiveTopology::TriangleList {
        return Err(MeshColliderError::NotTriangles(format!(
            "{:?}",
            mesh.primitive_topology()
        )));
    }
    let points = positions(mesh)?;
    let order: Vec<usize> = match mesh
        .try_indices_option()
        .map_err(|_| MeshColliderError::NotInMainWorld)?
    {
        Some(Indices::U16(i)) => i.iter().map(|&i| i as usize).collect(),
        Some(Indices::U32(i)) => i.iter().map(|&i| i as usize).collect(),
        None => (0..points.len()).collect(),
    };
    Ok(order
        .chunks_exact(3)
        .filter_map(|t| {
            let corner = |i: usize| points.get(t[i]).copied();
            Some([corner(0)?, corner(1)?, corner(2)?])
        })
        .collect())
}

impl Collider {
    /// The convex hull of a mesh's vertices (x and y; any number of hull corners, see
    /// [`Collider::convex_hull`]).
    ///
    /// ```
    /// use bevy_physics2d::prelude::*;
    /// use bevy_math::primitives::RegularPolygon;
    /// use bevy_mesh::Mesh;
    ///
    /// let mesh = Mesh::from(RegularPolygon::new(1.0, 6));
    /// let hexagon = Collider::convex_hull_from_mesh(&mesh).unwrap();
    /// assert_eq!(hexagon.to_shapes(Default::default()).unwrap().len(), 1);
    /// ```
    pub fn convex_hull_from_mesh(mesh: &Mesh) -> Result<Collider, MeshColliderError> {
        Ok(Collider::convex_hull(positions(mesh)?))
    }

    /// A mesh's triangles as one compound collider (x and y; triangles without area are
    /// left out): concave level geometry from the mesh that draws it. Best on static bodies;
    /// for a moving body prefer [`Collider::convex_hull_from_mesh`] or a compound of a few
    /// convex parts (every triangle is a shape to collide).
    ///
    /// ```
    /// use bevy_physics2d::prelude::*;
    /// use bevy_mesh::{Indices, Mesh, PrimitiveTopology};
    /// use bevy_asset::RenderAssetUsages;
    ///
    /// // An L: two triangles for the floor, two for the wall.
    /// let corners = [[0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [4.0, 1.0, 0.0], [0.0, 1.0, 0.0],
    ///                [0.0, 4.0, 0.0], [1.0, 4.0, 0.0], [1.0, 1.0, 0.0]];
    /// let mesh = Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default())
    ///     .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, corners.to_vec())
    ///     .with_inserted_indices(Indices::U32(vec![0, 1, 2, 0, 2, 3, 3, 6, 5, 3, 5, 4]));
    /// let level = Collider::trimesh_from_mesh(&mesh).unwrap();
    /// assert_eq!(level.to_shapes(Default::default()).unwrap().len(), 4);
    /// ```
    pub fn trimesh_from_mesh(mesh: &Mesh) -> Result<Collider, MeshColliderError> {
        let parts: Vec<CompoundPart> = triangles(mesh)?
            .into_iter()
            .filter(|[a, b, c]| {
                // Twice the smallest area a core polygon accepts (a sliver would be refused
                // when built and take the whole collider with it).
                (*b - *a).perp_dot(*c - *a).abs() > 1e-6
                    && a.distance(*b).max(b.distance(*c)).max(c.distance(*a))
                        > physics_core::shape::MIN_POLYGON_SIZE
            })
            .map(|t| CompoundPart {
                position: Vec2::ZERO,
                angle: 0.0,
                collider: Collider::convex_hull(t.to_vec()),
            })
            .collect();
        if parts.is_empty() {
            return Err(MeshColliderError::NoTriangles);
        }
        Ok(Collider::Compound { parts })
    }
}

/// How [`ColliderConstructor`] and [`ColliderConstructorHierarchy`] turn an entity's
/// `Mesh2d` into a collider.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Reflect)]
#[reflect(Debug, PartialEq, Default)]
pub enum MeshShape {
    /// The convex hull of the mesh ([`Collider::convex_hull_from_mesh`]).
    #[default]
    ConvexHull,
    /// The mesh's triangles ([`Collider::trimesh_from_mesh`]).
    Trimesh,
}

impl MeshShape {
    fn build(self, mesh: &Mesh) -> Result<Collider, MeshColliderError> {
        match self {
            MeshShape::ConvexHull => Collider::convex_hull_from_mesh(mesh),
            MeshShape::Trimesh => Collider::trimesh_from_mesh(mesh),
        }
    }
}

/// Builds this entity's [`Collider`] from its `Mesh2d` as soon as the mesh is loaded, then
/// removes itself. A mesh that gives no collider is a warning and the entity is skipped.
///
/// ```
/// use bevy_physics2d::prelude::*;
/// use bevy_ecs::prelude::*;
/// use bevy_asset::Assets;
/// use bevy_math::primitives::RegularPolygon;
/// use bevy_mesh::{Mesh, Mesh2d};
///
/// fn spawn(mut commands: Commands, mut meshes: ResMut<Assets<Mesh>>) {
///     let rock = meshes.add(RegularPolygon::new(1.0, 5));
///     commands.spawn((RigidBody::Dynamic, Mesh2d(rock), ColliderConstructor(MeshShape::ConvexHull)));
/// }
/// # bevy_ecs::system::assert_is_system(spawn);
/// ```
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Component, Debug, PartialEq, Default)]
pub struct ColliderConstructor(pub MeshShape);

/// Builds a collider for every entity below this one (itself included) that has a `Mesh2d`
/// and no collider, as soon as the meshes are loaded: a level or prop scene gets colliders
/// the moment it is spawned. Entities are matched by their `Name` in `by_name` (`None`
/// there: no collider); the others get `default`. It removes itself once it has built every
/// mesh it found (and found at least one), so a scene spawned later is waited for.
///
/// ```
/// use bevy_physics2d::prelude::*;
/// use bevy_ecs::prelude::*;
///
/// fn spawn_level(mut commands: Commands, level: Res<LevelScene>) {
///     commands.spawn((
///         level.root(),
///         RigidBody::Static,
///         // Ground and walls as drawn; the decorative "Clouds" mesh without a collider.
///         ColliderConstructorHierarchy::new(MeshShape::Trimesh).without("Clouds"),
///     ));
/// }
/// # #[derive(Resource)] struct LevelScene;
/// # impl LevelScene { fn root(&self) -> Transform { Transform::default() } }
/// # bevy_ecs::system::assert_is_system(spawn_level);
/// ```
#[derive(Component, Clone, Debug, Default, PartialEq, Reflect)]
#[reflect(Component, Debug, PartialEq, Default)]
pub struct ColliderConstructorHierarchy {
    /// The shape for meshes not named in `by_name`.
    pub default: MeshShape,
    /// Shapes by entity `Name`; `None` leaves that entity without a collider.
    pub by_name: HashMap<String, Option<MeshShape>>,
}

impl ColliderConstructorHierarchy {
    /// Every mesh below gets a collider of `shape`.
    pub fn new(shape: MeshShape) -> Self {
        ColliderConstructorHierarchy {
            default: shape,
            by_name: HashMap::new(),
        }
    }

    /// The entity named `name` gets a collider of `shape` instead.
    pub fn with(mut self, name: impl Into<String>, shape: MeshShape) -> Self {
        self.by_name.insert(name.into(), Some(shape));
        self
    }

    /// The entity named `name` gets no collider.
    pub fn without(mut self, name: impl Into<String>) -> Self {
        self.by_name.insert(name.into(), None);
        self
    }
}

/// What building a collider from a mesh came to.
enum Built {
    Done(Result<Collider, MeshColliderError>),
    /// The mesh asset is not loaded yet.
    Waiting,
}

fn build_from(meshes: &Assets<Mesh>, id: AssetId<Mesh>, shape: MeshShape) -> Built {
    match meshes.get(id) {
        Some(mesh) => Built::Done(shape.build(mesh)),
        None => Built::Waiting,
    }
}

/// Builds the colliders asked for by [`ColliderConstructor`] and
/// [`ColliderConstructorHierarchy`] whose meshes are loaded (in `PreUpdate`, so a scene
/// that finished loading has its colliders at the next physics step).
pub(crate) fn build_mesh_colliders(
    mut commands: Commands,
    meshes: Option<Res<Assets<Mesh>>>,
    mut warnings: MessageWriter<PhysicsWarning>,
    single: Query<(Entity, &ColliderConstructor, &Mesh2d)>,
    roots: Query<(Entity, &ColliderConstructorHierarchy)>,
    children: Query<&bevy_ecs::hierarchy::Children>,
    meshed: Query<(&Mesh2d, Option<&bevy_ecs::name::Name>), Without<Collider>>,
) {
    let Some(meshes) = meshes else {
        return;
    };
    for (entity, constructor, mesh) in &single {
        match build_from(&meshes, mesh.0.id(), constructor.0) {
            Built::Waiting => {}
            Built::Done(result) => {
                let mut e = commands.entity(entity);
                e.remove::<ColliderConstructor>();
                match result {
                    Ok(collider) => {
                        e.insert(collider);
                    }
                    Err(error) => warn_skipped(
                        &mut warnings,
                        entity,
                        format_args!("collider from mesh: {error}"),
                    ),
                }
            }
        }
    }
    for (root, config) in &roots {
        let (mut found, mut waiting) = (0usize, false);
        let mut stack = vec![root];
        while let Some(e) = stack.pop() {
            if let Ok(kids) = children.get(e) {
                stack.extend(kids.iter());
            }
            let Ok((mesh, name)) = meshed.get(e) else {
                continue;
            };
            found += 1;
            let shape = match name.and_then(|n| config.by_name.get(n.as_str())) {
                Some(None) => continue,
                Some(Some(shape)) => *shape,
                None => config.default,
            };
            match build_from(&meshes, mesh.0.id(), shape) {
                Built::Waiting => waiting = true,
                Built::Done(Ok(collider)) => {
                    commands.entity(e).insert(collider);
                }
                Built::Done(Err(error)) => warn_skipped(
                    &mut warnings,
                    e,
                    format_args!("collider from mesh (hierarchy of {root}): {error}"),
                ),
            }
        }
        if found > 0 && !waiting {
            commands
                .entity(root)
                .remove::<ColliderConstructorHierarchy>();
        }
    }
}
