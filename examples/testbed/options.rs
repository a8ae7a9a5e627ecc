//! The testbed's command line.

use physics2d_demos::SCENE_NAMES;
use std::path::PathBuf;

/// What the command line asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The scene to open first.
    pub scene: String,
    /// Steps to run headless (the scene's own count when absent).
    pub steps: Option<usize>,
    /// Run without a window.
    pub headless: bool,
    /// Use the 2-point block solver.
    pub block_solver: bool,
    /// Save a PNG of the window here, then exit.
    pub screenshot: Option<PathBuf>,
    /// Frames to run before the screenshot (or before exiting when there is none).
    pub frames: Option<u32>,
    /// Overlay parts to switch on at start, beyond shapes and joints.
    pub show: Vec<OverlayPart>,
    /// Print the scene names and exit.
    pub list: bool,
    /// Save a recording here: the headless run, or in a window what K starts and stops.
    pub record: Option<PathBuf>,
    /// Open this recording instead of a scene.
    pub replay: Option<PathBuf>,
}

/// A debug overlay part `--show` can switch on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OverlayPart {
    /// Broadphase boxes.
    Aabbs,
    /// Contact points and normals.
    Contacts,
    /// Contact impulses.
    Impulses,
    /// Centres of mass.
    CentersOfMass,
}

impl std::str::FromStr for OverlayPart {
    type Err = String;
    fn from_str(name: &str) -> Result<Self, String> {
        Ok(match name {
            "aabbs" => OverlayPart::Aabbs,
            "contacts" => OverlayPart::Contacts,
            "impulses" => OverlayPart::Impulses,
            "com" => OverlayPart::CentersOfMass,
            other => {
                return Err(format!(
                    "no overlay part {other} (aabbs, contacts, impulses, com)"
                ));
            }
        })
    }
}

/// How to call the testbed.
pub const USAGE: &str = "usage: testbed [--scene NAME] [--list] [--block]
               [--headless [--steps N]] [--record FILE] [--replay FILE]
               [--screenshot PATH] [--frames N] [--show aabbs,contacts,impulses,com]";

impl Default for Options {
    fn default() -> Self {
        Options {
            scene: "pyramid".into(),
            steps: None,
            headless: false,
            block_solver: false,
            screenshot: None,
            frames: None,
            show: Vec::new(),
            list: false,
            record: None,
            replay: None,
        }
    }
}

impl Options {
    /// Parses the arguments after the program name.
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Options, String> {
        let mut options = Options::default();
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            let mut value = |what: &str| args.next().ok_or(format!("{arg} needs {what}"));
            match arg.as_str() {
                "--scene" => options.scene = value("a scene name")?,
                "--steps" => options.steps = Some(number(&value("a step count")?)?),
                "--frames" => options.frames = Some(number(&value("a frame count")?)?),
                "--screenshot" => options.screenshot = Some(value("a file path")?.into()),
                "--record" => options.record = Some(value("a file path")?.into()),
                "--replay" => options.replay = Some(value("a file path")?.into()),
                "--show" => {
                    for part in value("overlay parts")?.split(',') {
                        options.show.push(part.parse()?);
                    }
                }
                "--headless" => options.headless = true,
                "--block" => options.block_solver = true,
                "--list" => options.list = true,
                "--help" | "-h" => return Err(USAGE.into()),
                other => return Err(format!("unknown option {other}\n{USAGE}")),
            }
        }
        if !SCENE_NAMES.contains(&options.scene.as_str()) {
            return Err(format!("no scene {}; --list shows them", options.scene));
        }
        if options.record.is_some() && options.replay.is_some() {
            return Err("--record and --replay do not go together".into());
        }
        if options.headless && options.screenshot.is_some() {
            return Err("--screenshot needs a window; drop --headless".into());
        }
        Ok(options)
    }
}

fn number<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{text} is not a whole number"))
}

/// Whether an X display can be reached: `DISPLAY` is set and, for a local display, its socket
/// exists. Without one, opening a window would abort, so the testbed runs headless instead.
pub fn display_available() -> bool {
    display_reachable(std::env::var("DISPLAY").ok().as_deref())
}

/// [`display_available`] for a given value of `DISPLAY`.
pub fn display_reachable(display: Option<&str>) -> bool {
    let Some(display) = display else {
        return false;
    };
    // ":N" or ":N.S" is the local socket /tmp/.X11-unix/XN; "host:N" is remote, trust it.
    match display.strip_prefix(':') {
        Some(rest) => {
            let number = rest.split('.').next().unwrap_or_default();
            std::path::Path::new(&format!("/tmp/.X11-unix/X{number}")).exists()
        }
        None => !display.is_empty(),
    }
}
