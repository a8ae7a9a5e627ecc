//! The UI: a scene list to click, a stats panel fed by `PhysicsDiagnostics`, the key help.

use crate::scene_switching::Testbed;
use crate::sim_controls::HELP;
use bevy::gizmos::config::GizmoConfigStore;
use bevy::prelude::*;
use bevy_physics2d::{Physics, PhysicsDiagnostics, PhysicsGizmos, PhysicsTime};
use physics2d_demos::SCENE_NAMES;

/// Whether the pointer is over a panel, so clicks and scrolls there do not reach the world.
#[derive(Resource, Default)]
pub struct PointerOverPanel(pub bool);

/// A panel, or a button on one, that the pointer can be over.
#[derive(Component)]
pub struct Panel;

/// A scene button, by index in [`SCENE_NAMES`].
#[derive(Component)]
pub struct SceneButton(usize);

/// The stats text.
#[derive(Component)]
pub struct StatsText;

const PANEL_COLOR: Color = Color::srgba(0.08, 0.08, 0.1, 0.85);
const BUTTON_COLOR: Color = Color::srgba(0.0, 0.0, 0.0, 0.0);
const HOVER_COLOR: Color = Color::srgb(0.2, 0.2, 0.26);
const CURRENT_COLOR: Color = Color::srgb(0.3, 0.38, 0.6);

fn font(size: f32) -> TextFont {
    TextFont::from_font_size(size)
}

/// Builds the panels.
pub fn spawn_panels(mut commands: Commands) {
    commands
        .spawn((
            Panel,
            Interaction::None,
            Node {
                position_type: PositionType::Absolute,
                left: px(8),
                top: px(8),
                flex_direction: FlexDirection::Column,
                padding: UiRect::all(px(6)),
                ..default()
            },
            BackgroundColor(PANEL_COLOR),
        ))
        .with_children(|panel| {
            panel.spawn((Text::new("Scenes"), font(15.0)));
            for (index, name) in SCENE_NAMES.iter().enumerate() {
                panel
                    .spawn((
                        Panel,
                        Button,
                        SceneButton(index),
                        Node {
                            padding: UiRect::axes(px(6), px(1)),
                            ..default()
                        },
                        BackgroundColor(BUTTON_COLOR),
                    ))
                    .with_child((Text::new(*name), font(13.0)));
            }
        });
    commands.spawn((
        Panel,
        Interaction::None,
        StatsText,
        Text::new(""),
        font(13.0),
        Node {
            position_type: PositionType::Absolute,
            right: px(8),
            top: px(8),
            padding: UiRect::all(px(6)),
            ..default()
        },
        BackgroundColor(PANEL_COLOR),
    ));
    commands.spawn((
        Text::new(HELP),
        font(12.0),
        TextColor(Color::srgb(0.75, 0.75, 0.8)),
        Node {
            position_type: PositionType::Absolute,
            left: px(8),
            bottom: px(8),
            padding: UiRect::axes(px(6), px(3)),
            ..default()
        },
        BackgroundColor(PANEL_COLOR),
    ));
}

/// Scene buttons: a click loads the scene; the shown one is highlighted.
pub fn scene_buttons(
    mut testbed: ResMut<Testbed>,
    mut buttons: Query<(&Interaction, &SceneButton, &mut BackgroundColor)>,
) {
    for (interaction, button, mut color) in &mut buttons {
        if *interaction == Interaction::Pressed && button.0 != testbed.scene {
            testbed.scene = button.0;
            testbed.reload = true;
        }
        color.0 = match interaction {
            _ if button.0 == testbed.scene => CURRENT_COLOR,
            Interaction::Hovered | Interaction::Pressed => HOVER_COLOR,
            Interaction::None => BUTTON_COLOR,
        };
    }
}

/// Notes whether the pointer is over a panel or one of its buttons.
pub fn track_pointer(mut over: ResMut<PointerOverPanel>, panels: Query<&Interaction, With<Panel>>) {
    over.0 = panels.iter().any(|i| *i != Interaction::None);
}

/// Writes the stats panel.
pub fn update_stats(
    diagnostics: Res<PhysicsDiagnostics>,
    physics_time: Res<Time<Physics>>,
    testbed: Res<Testbed>,
    gizmos: Res<GizmoConfigStore>,
    mut text: Single<&mut Text, With<StatsText>>,
) {
    let d = &*diagnostics;
    let (config, parts) = gizmos.config::<PhysicsGizmos>();
    let on = |flag: bool| if flag { "on" } else { "off" };
    let state = match (physics_time.is_paused(), testbed.slow_motion) {
        (true, _) => "paused",
        (false, true) => "slow motion (1/5)",
        (false, false) => "running",
    };
    text.0 = format!(
        "{scene}  {state}\n\
         solver       {solver}\n\
         bodies       {bodies}\n\
         awake        {awake}\n\
         contacts     {contacts} ({touching} touching)\n\
         joints       {joints}\n\
         \n\
         ms per step\n\
         prepare      {prepare:7.3}\n\
         broadphase   {broad:7.3}\n\
         narrowphase  {narrow:7.3}\n\
         solve        {solve:7.3}\n\
         integrate    {integrate:7.3}\n\
         writeback    {writeback:7.3}\n\
         total        {total:7.3}\n\
         \n\
         overlay {overlay}: shapes {shapes}, AABBs {aabbs},\n\
         contacts {contact_points}, impulses {impulses}, joints {joint_parts},\n\
         centres of mass {com}, sleep colours {sleep}",
        scene = testbed.scene_name(),
        solver = if testbed.block_solver {
            "block (2-point)"
        } else {
            "points together"
        },
        bodies = d.bodies,
        awake = d.awake_bodies,
        contacts = d.contacts,
        touching = d.touching,
        joints = d.joints,
        prepare = d.prepare_ms,
        broad = d.broadphase_ms,
        narrow = d.narrowphase_ms,
        solve = d.solve_ms,
        integrate = d.integrate_ms,
        writeback = d.writeback_ms,
        total = d.total_ms(),
        overlay = on(config.enabled),
        shapes = on(parts.shapes),
        aabbs = on(parts.aabbs),
        contact_points = on(parts.contacts),
        impulses = on(parts.contact_impulses),
        joint_parts = on(parts.joints),
        com = on(parts.centers_of_mass),
        sleep = on(parts.sleep_colors),
    );
}
