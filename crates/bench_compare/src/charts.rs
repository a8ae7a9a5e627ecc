//! SVG charts of the reports' tables, drawn with `plotters`: the markdown tables stay the
//! record, and a chart is drawn from the very table written beside it, so the two cannot
//! disagree.

use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// A table read back from a report: column names and, per row, its label and one number per
/// column (`None` where the cell holds no number, such as `-` or `n/a`).
pub struct Table {
    /// The names of the value columns.
    pub columns: Vec<String>,
    /// Each row's label (the first cell) and values.
    pub rows: Vec<(String, Vec<Option<f64>>)>,
}

impl Table {
    /// The first markdown table of `text` whose header starts with `| scene |`, taking the
    /// value columns named in `wanted` (in that order; a missing name is skipped). A cell's
    /// value is the first number in it: `5.74 ms (1.00x)` gives 5.74.
    pub fn from_markdown(text: &str, wanted: &[&str]) -> Option<Table> {
        let mut lines = text.lines().skip_while(|l| !l.starts_with("| scene |"));
        let header = cells(lines.next()?);
        let picked: Vec<(usize, String)> = wanted
            .iter()
            .filter_map(|w| {
                header
                    .iter()
                    .position(|h| h == w)
                    .map(|i| (i, w.to_string()))
            })
            .collect();
        let rows = lines
            .skip(1)
            .take_while(|l| l.starts_with('|'))
            .map(|l| {
                let c = cells(l);
                let values = picked
                    .iter()
                    .map(|(i, _)| c.get(*i).and_then(|cell| first_number(cell)))
                    .collect();
                (c[0].clone(), values)
            })
            .collect();
        Some(Table {
            columns: picked.into_iter().map(|(_, name)| name).collect(),
            rows,
        })
    }
}

/// The cells of a markdown table row, trimmed.
fn cells(line: &str) -> Vec<String> {
    line.trim()
        .trim_matches('|')
        .split('|')
        .map(|c| c.trim().to_string())
        .collect()
}

/// The first number at the start of `cell` (`0.0116`, `5.74 ms (1.00x)`, `1.85x (...)`).
fn first_number(cell: &str) -> Option<f64> {
    let end = cell
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .unwrap_or(cell.len());
    cell[..end].parse().ok()
}

/// The value axis of a chart (horizontal: the bars run across).
pub enum Axis {
    /// From zero, linear.
    Linear,
    /// Logarithmic from `floor` (values below it are drawn at it).
    Log { floor: f64 },
}

/// Where the charts of a markdown file at `markdown_path` go: `docs/charts/` beside it.
pub fn chart_dir(markdown_path: &str) -> PathBuf {
    Path::new(markdown_path)
        .parent()
        .unwrap_or(Path::new("."))
        .join("docs")
        .join("charts")
}

/// Draws `table` as grouped bars, one group per row and one bar per column, into the SVG
/// file `path` (its folder is created).
pub fn grouped_bars(
    path: &Path,
    title: &str,
    value_label: &str,
    table: &Table,
    axis: Axis,
) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let largest = table
        .rows
        .iter()
        .flat_map(|(_, v)| v.iter().flatten())
        .fold(0.0f64, |m, v| m.max(*v));
    let top = match axis {
        // Headroom above the tallest bar for the legend.
        Axis::Linear => largest * 1.45,
        Axis::Log { .. } => largest * 300.0,
    }
    .max(1e-3);
    let groups = table.rows.len();
    let series = table.columns.len().max(1);
    // Horizontal bars: the scene names read across, however many there are.
    let height = 140 + (groups * (series * 9 + 14)) as u32;
    let root = SVGBackend::new(path, (960, height)).into_drawing_area();
    let fail = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let y_range = -0.5f64..groups as f64 - 0.5;
    // The first row on top.
    let labels = |y: &f64| {
        let i = (groups as f64 - 1.0 - y).round();
        if (groups as f64 - 1.0 - y - i).abs() < 1e-6 && i >= 0.0 {
            table
                .rows
                .get(i as usize)
                .map_or(String::new(), |(l, _)| l.clone())
        } else {
            String::new()
        }
    };
    // One bar of group `g`, series `s`, from `low` to `value`.
    let bar = |g: usize, s: usize, low: f64, value: f64| {
        let width = 0.8 / series as f64;
        let y0 = (groups - 1 - g) as f64 + 0.4 - (s + 1) as f64 * width;
        let color = Palette99::pick(s).mix(0.9);
        Rectangle::new([(low, y0), (value, y0 + width * 0.9)], color.filled())
    };
    macro_rules! draw {
        ($chart:expr, $low:expr, $clamp:expr) => {{
            let mut chart = $chart;
            chart
                .configure_mesh()
                .disable_y_mesh()
                .y_labels(groups)
                .y_label_formatter(&labels)
                .y_label_style(("sans-serif", 14))
                .x_desc(value_label)
                .draw()
                .map_err(|e| fail(&e))?;
            for (s, name) in table.columns.iter().enumerate() {
                let bars = table.rows.iter().enumerate().filter_map(|(g, (_, v))| {
                    v.get(s)
                        .copied()
                        .flatten()
                        .map(|v| bar(g, s, $low, $clamp(v)))
                });
                chart
                    .draw_series(bars)
                    .map_err(|e| fail(&e))?
                    .label(name.as_str())
                    .legend(move |(x, y)| {
                        Rectangle::new([(x, y - 5), (x + 12, y + 5)], Palette99::pick(s).filled())
                    });
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperRight)
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .draw()
                .map_err(|e| fail(&e))?;
        }};
    }
    match axis {
        Axis::Linear => {
            let chart = builder(&root, title)
                .build_cartesian_2d(0.0..top, y_range)
                .map_err(|e| fail(&e))?;
            draw!(chart, 0.0, |v: f64| v);
        }
        Axis::Log { floor } => {
            let chart = builder(&root, title)
                .build_cartesian_2d((floor..top.max(floor * 10.0)).log_scale(), y_range)
                .map_err(|e| fail(&e))?;
            draw!(chart, floor, |v: f64| v.max(floor));
        }
    }
    root.present().map_err(|e| fail(&e))?;
    Ok(())
}

/// The chart frame every chart shares: the title, margins and label areas.
fn builder<'a, 'b>(
    root: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
    title: &str,
) -> ChartBuilder<'a, 'b, SVGBackend<'b>> {
    let mut b = ChartBuilder::on(root);
    b.caption(title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(50)
        .y_label_area_size(170);
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = "Some text.\n\n\
        | scene | steps | Box2D v3 | physics_core |\n\
        |---|---|---|---|\n\
        | large_pyramid | 500 | 5.74 ms (1.00x) | 5.11 ms (0.89x) |\n\
        | rain | 1000 | n/a | 12.69 ms (0.90x) |\n\
        \nAfter.";

    #[test]
    fn a_report_table_reads_back_as_numbers() {
        let t = Table::from_markdown(REPORT, &["Box2D v3", "physics_core", "absent"]).unwrap();
        assert_eq!(t.columns, vec!["Box2D v3", "physics_core"]);
        assert_eq!(t.rows.len(), 2);
        assert_eq!(t.rows[0].0, "large_pyramid");
        assert_eq!(t.rows[0].1, vec![Some(5.74), Some(5.11)]);
        assert_eq!(t.rows[1].1, vec![None, Some(12.69)]);
    }

    #[test]
    fn a_chart_names_every_scene_and_engine() {
        let t = Table::from_markdown(REPORT, &["Box2D v3", "physics_core"]).unwrap();
        let dir = std::env::temp_dir().join(format!("bench_charts_{}", std::process::id()));
        let path = dir.join("ms.svg");
        grouped_bars(&path, "ms per step", "ms", &t, Axis::Linear).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        for name in ["large_pyramid", "rain", "Box2D v3", "physics_core"] {
            assert!(svg.contains(name), "{name} is not in the chart");
        }
        // Three bars (rain has no Box2D figure) and two legend swatches, filled.
        let filled = svg.matches("<rect").count();
        assert!(filled >= 5, "{filled} rectangles");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
