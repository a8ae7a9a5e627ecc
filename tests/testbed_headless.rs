//! The testbed's headless mode and command line, compiled from the testbed's own files: every
//! scene of the library runs through the plugin (300 steps, 30 for the benchmark crowds) and
//! stays finite and in the world.

#![allow(dead_code)]

#[path = "../examples/testbed/headless.rs"]
mod headless;
#[path = "../examples/testbed/options.rs"]
mod options;
#[path = "../examples/testbed/recordings.rs"]
mod recordings;

use options::Options;
use physics2d_demos::{SCENE_NAMES, scene};

fn args(text: &str) -> Vec<String> {
    text.split_whitespace().map(String::from).collect()
}

#[test]
fn every_scene_runs_through_the_plugin_and_stays_sane() {
    let mut failures = Vec::new();
    for name in SCENE_NAMES {
        let scene = scene(name).unwrap();
        // 300 steps, or 30 for the benchmark crowds (over a thousand bodies): what this test
        // adds is the plugin's path through each scene's kinds of bodies, shapes and joints;
        // their long-run sanity in the core is `scenes_stay_sane.rs`'s, on every scene.
        let steps = if scene.bodies.len() > 1000 { 30 } else { 300 };
        let mut seconds = 0;
        let report = headless::run_scene(&scene, steps, false, |_, _| seconds += 1);
        assert_eq!(report.steps, steps, "{name}");
        // All of them, or for a scene whose bodies come and go (rain), those its timeline
        // has in the world after these steps.
        let count = |present: Vec<bool>| present.iter().filter(|p| **p).count();
        let bodies = count(scene.bodies_present_after(steps as usize));
        let joints = count(scene.joints_present_after(steps as usize));
        assert_eq!(report.bodies, bodies, "{name}: bodies lost");
        assert_eq!(report.joints, joints, "{name}: joints lost");
        assert_eq!(
            seconds as f32,
            (steps as f32 * scene.dt).floor(),
            "{name}: per-second rows"
        );
        // No scene loses a body any more (the spinner's capsules through the bowl were
        // fixed with Box2D's capsule manifolds and spin limit).
        if report.non_finite_bodies > 0 || report.escaped_bodies > 0 {
            failures.push(format!("{name}: {report:?}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn the_block_solver_runs_the_pyramid_too() {
    let scene = scene("pyramid").unwrap();
    let report = headless::run_scene(&scene, 300, true, |_, _| {});
    assert_eq!(report.non_finite_bodies + report.escaped_bodies, 0);
    // A settled pyramid sleeps within 5 s.
    assert!(report.awake_bodies < scene.bodies.len() / 2, "{report:?}");
}

#[test]
fn command_line_options_parse_and_bad_ones_say_why() {
    let parsed = Options::parse(args("--headless --scene car --steps 120 --block")).unwrap();
    assert_eq!(parsed.scene, "car");
    assert_eq!(parsed.steps, Some(120));
    assert!(parsed.headless && parsed.block_solver);
    let shot = Options::parse(args("--screenshot out.png --frames 90")).unwrap();
    assert_eq!(
        shot.screenshot.as_deref(),
        Some(std::path::Path::new("out.png"))
    );
    assert_eq!(shot.frames, Some(90));
    let shown = Options::parse(args("--show contacts,com")).unwrap();
    assert_eq!(
        shown.show,
        [
            options::OverlayPart::Contacts,
            options::OverlayPart::CentersOfMass
        ]
    );
    assert_eq!(Options::parse(Vec::new()).unwrap(), Options::default());

    let error = |text| Options::parse(args(text)).unwrap_err();
    assert!(error("--scene nowhere").contains("no scene nowhere"));
    assert!(error("--steps many").contains("many is not a whole number"));
    assert!(error("--steps").contains("--steps needs a step count"));
    assert!(error("--fly").contains("unknown option --fly"));
    assert!(error("--show sparks").contains("no overlay part sparks"));
    assert!(error("--headless --screenshot a.png").contains("needs a window"));
    let recorded = Options::parse(args("--headless --record run.p2dr")).unwrap();
    assert_eq!(
        recorded.record.as_deref(),
        Some(std::path::Path::new("run.p2dr"))
    );
    assert!(error("--record a --replay b").contains("do not go together"));
}

/// `--record` saves a headless run of a scene with joints, contacts and a timeline;
/// `--replay` reads it back and ends at the run's state hash. A cut file is an error.
#[test]
fn a_recorded_scene_replays_from_its_file_to_the_same_state() {
    let dir = std::env::temp_dir().join(format!("testbed_recording_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, steps) in [("ragdoll", 120), ("rain", 90)] {
        let scene = scene(name).unwrap();
        let path = dir.join(format!("{name}.p2dr"));
        let recorded = recordings::record_headless(&scene, steps, false, &path).unwrap();
        let (replayed_steps, replayed) = recordings::replay_headless(&path).unwrap();
        assert_eq!(replayed_steps, steps, "{name}");
        assert_eq!(replayed, recorded, "{name}: the replay ended elsewhere");
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
        assert!(
            recordings::replay_headless(&path).is_err(),
            "{name}: a cut file"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_missing_display_is_detected_so_the_testbed_can_fall_back_to_headless() {
    assert!(!options::display_reachable(None));
    assert!(!options::display_reachable(Some("")));
    // A local display is its socket; this number has none.
    assert!(!options::display_reachable(Some(":4242.0")));
    // Remote displays cannot be checked without connecting; they are trusted.
    assert!(options::display_reachable(Some("somehost:0")));
}
