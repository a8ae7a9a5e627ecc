//! Bevy's static-tree marking, turned off while the physics moves most of the world.
//!
//! Bevy's transform propagation marks the hierarchy above every changed `Transform`
//! (`mark_dirty_trees`) so that it can skip the trees that did not move. That pays off in a
//! mostly still world and costs in a moving one: on the multi-threaded executor each changed
//! entity goes through two channels, which came to about 5 % of large_pyramid's and
//! joint_grid's whole step in `bench_compare` (5,050 and 10,000 bodies, every one moving,
//! none in a hierarchy), measured by the bevy_floor row with the marking on and off. Bevy
//! leaves the choice to the game (`StaticTransformOptimizations`) and its maintainers advise
//! counting the moving entities and toggling it; the writeback already counts them.
//!
//! With [`TreeMarking::Auto`] (the default) the marking is turned off after a step that wrote
//! at least [`MARKING_OFF_MIN_WRITES`] `Transform`s and more than [`MARKING_OFF_FACTOR`] times
//! as many as there are entities with a parent, and on again after one that did not
//! ([`tree_marking_wanted`]). With the marking off Bevy propagates every hierarchy each frame,
//! moved or not; with few entities in hierarchies that walk costs less than marking every
//! moved body. A game that sets `StaticTransformOptimizations` itself
//! keeps its choice: the first time the resource holds something this system did not put
//! there, it stops touching it. [`TreeMarking::Leave`] never touches it.

use crate::dynamics::body::writeback::LastWriteback;
use bevy_ecs::hierarchy::ChildOf;
use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use bevy_transform::systems::StaticTransformOptimizations;

/// Whether the physics step may turn Bevy's static-tree marking
/// (`StaticTransformOptimizations`) off while it moves most of the world's transforms.
///
/// ```
/// use bevy_app::App;
/// use bevy_physics2d::TreeMarking;
/// // A game that manages `StaticTransformOptimizations` by itself:
/// App::new().insert_resource(TreeMarking::Leave);
/// ```
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Resource, Debug, PartialEq, Default)]
pub enum TreeMarking {
    /// Off after a step that wrote many more `Transform`s than there are entities with a
    /// parent, on after one that did not (the default).
    #[default]
    Auto,
    /// The physics never touches `StaticTransformOptimizations`.
    Leave,
}

/// The marking goes off when a step wrote more than this many times as many `Transform`s as
/// there are entities with a parent: walking every hierarchy each frame then costs well under
/// marking each moved body, whose channel round trip costs about as much as propagating one
/// child.
pub const MARKING_OFF_FACTOR: usize = 2;

/// Steps that wrote fewer `Transform`s than this keep the marking on, Bevy's default: its
/// cost is then too small to matter.
pub const MARKING_OFF_MIN_WRITES: usize = 256;

/// Whether the marking should be on after a step that wrote `written` `Transform`s in a world
/// with `parented` entities that have a parent (see the module docs).
pub fn tree_marking_wanted(written: usize, parented: usize) -> bool {
    written < MARKING_OFF_MIN_WRITES || written <= MARKING_OFF_FACTOR * parented
}

/// What this system last put into `StaticTransformOptimizations`, and whether the game has
/// since taken the resource over.
#[derive(Default)]
pub(crate) struct MarkingControl {
    last_set: Option<bool>,
    handed_over: bool,
}

/// After the body writebacks: sets `StaticTransformOptimizations` from the number of
/// `Transform`s they wrote (see the module docs).
pub(crate) fn tune_tree_marking(
    mode: Option<Res<TreeMarking>>,
    last: Res<LastWriteback>,
    optimizations: Option<ResMut<StaticTransformOptimizations>>,
    in_hierarchy: Query<(), With<ChildOf>>,
    mut control: Local<MarkingControl>,
) {
    let (Some(mut optimizations), false) = (optimizations, control.handed_over) else {
        return;
    };
    if mode.is_some_and(|mode| *mode == TreeMarking::Leave) {
        return;
    }
    let enabled = optimizations.is_enabled();
    if control.last_set.is_some_and(|set| set != enabled) {
        control.handed_over = true;
        bevy_log::info!(
            "StaticTransformOptimizations was set by the game: the physics leaves it alone from now on"
        );
        return;
    }
    // Exact for a query filtered by archetype only: a sum of table lengths.
    let parented = in_hierarchy.iter().size_hint().0;
    let want_enabled = tree_marking_wanted(last.written, parented);
    if want_enabled != enabled {
        *optimizations = if want_enabled {
            StaticTransformOptimizations::Enabled
        } else {
            StaticTransformOptimizations::Disabled
        };
    }
    control.last_set = Some(want_enabled);
}
