//! Charts as SVG (the `plotters` crate, SVG backend only): the simulator's dominant shares
//! over time, one step plot per policy, and static allocations as stacked bars, so an
//! engineer sees at a glance who starves.
//!
//! Plotting is the one place where the exact numbers become floating point: the figures are
//! pictures of the exact results printed beside them, never an input to anything.

use leontief_hdrf::simulate::Simulation;
use leontief_hdrf::{NodeId, Tree, TreeAllocation};
use leontief_solver::Rational;
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::cli::CliError;

/// Width of a chart, pixels.
const WIDTH: u32 = 960;
/// Height of one panel, pixels.
const PANEL: u32 = 360;

fn f(x: &Rational) -> f64 {
    x.to_f64_lossy()
}

/// Writes a chart to the file `--svg` names.
pub fn write_svg(path: &str, drawn: String) -> Result<(), CliError> {
    std::fs::write(path, drawn).map_err(|e| {
        CliError::Input(leontief_solver::SolverError::invalid(
            "--svg",
            format!("{path}: {e}"),
        ))
    })
}

fn drawing<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> CliError {
    CliError::Internal(format!("drawing the chart: {e}"))
}

/// The series' legend, in the upper right corner.
fn draw_legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
) -> Result<(), CliError> {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(drawing)
}

/// Every node's dominant share over time as a step plot (the share holds between two
/// recorded states), one panel per run, captioned with the policy and its tie-break; a series
/// is labelled with the node's path. The runs must share the tree.
///
/// # Errors
/// [`CliError::Internal`] if the chart cannot be drawn.
///
/// # Example
/// ```
/// use leontief::hdrf::simulate::{simulate, Scenario, SimConfig, SimPolicy};
/// let s = Scenario::from_json_str(r#"{"capacity": [1], "horizon": 4, "tree": {"children": [
///     {"name": "x", "demand": ["1/2"]}, {"name": "y", "demand": ["1/2"]}]}}"#).unwrap();
/// let run = simulate(&s, &SimConfig::new(SimPolicy::Tree(leontief_hdrf::Policy::Naive))).unwrap();
/// let svg = leontief::plot::shares_over_time(&s.tree, &[run]).unwrap();
/// assert!(svg.starts_with("<svg") && svg.contains("root/y"));
/// ```
pub fn shares_over_time(tree: &Tree, runs: &[Simulation]) -> Result<String, CliError> {
    // Every node but the root, in pre-order.
    let nodes: Vec<NodeId> = tree.nodes().filter(|&v| v != tree.root()).collect();
    svg(PANEL * runs.len().max(1) as u32, |root| {
        let panels = root.split_evenly((runs.len().max(1), 1));
        for (panel, run) in panels.iter().zip(runs) {
            share_panel(panel, tree, &nodes, run)?;
        }
        Ok(())
    })
}

/// A chart `height` pixels high, drawn by `draw` on a white canvas, as SVG text.
fn svg(
    height: u32,
    draw: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), CliError>,
) -> Result<String, CliError> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        draw(&root)?;
        root.present().map_err(drawing)?;
    }
    Ok(out)
}

fn share_panel(
    panel: &DrawingArea<SVGBackend<'_>, Shift>,
    tree: &Tree,
    nodes: &[NodeId],
    run: &Simulation,
) -> Result<(), CliError> {
    let horizon = f(&run.horizon);
    let caption = format!(
        "{} (ties: {}): dominant share over time",
        run.policy.name(),
        run.tie
    );
    let mut chart = ChartBuilder::on(panel)
        .caption(caption, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(32)
        .y_label_area_size(48)
        .build_cartesian_2d(0f64..horizon, 0f64..1.3f64)
        .map_err(drawing)?;
    chart
        .configure_mesh()
        .x_desc("time")
        .y_desc("dominant share")
        .draw()
        .map_err(drawing)?;
    for (i, &v) in nodes.iter().enumerate() {
        let k = v.index();
        let mut points: Vec<(f64, f64)> = Vec::with_capacity(2 * run.series.len() + 1);
        let mut last: Option<f64> = None;
        for sample in &run.series {
            let t = f(&sample.time);
            let y = f(&sample.shares[k]);
            if let Some(prev) = last {
                points.push((t, prev));
            }
            points.push((t, y));
            last = Some(y);
        }
        if let Some(prev) = last {
            points.push((horizon, prev));
        }
        let color = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(points, color.stroke_width(2)))
            .map_err(drawing)?
            .label(tree.path(v))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
    }
    draw_legend(&mut chart)
}

/// Static allocations as stacked bars: for every policy and resource, one bar stacked with
/// each leaf's share of that resource (`x_l · d_l,j / R_j`, summing to at most 1); a leaf's
/// segments share a colour and the legend names the leaf by path.
///
/// # Errors
/// [`CliError::Internal`] if the chart cannot be drawn.
///
/// # Example
/// ```
/// use leontief::hdrf::{allocate, Policy, Tree};
/// let tree = Tree::from_json_str(r#"{"resources": ["cpu", "mem"], "capacity": [1, 1],
///   "tree": {"children": [{"name": "a", "demand": [1, 0]}, {"name": "b", "demand": [0, 1]}]}}"#).unwrap();
/// let allocs = vec![allocate(&tree, Policy::Hdrf).unwrap()];
/// let svg = leontief::plot::stacked_allocations(&tree, &allocs).unwrap();
/// assert!(svg.contains("root/a") && svg.contains("hdrf: mem"));
/// ```
pub fn stacked_allocations(tree: &Tree, allocs: &[TreeAllocation]) -> Result<String, CliError> {
    let leaves: Vec<NodeId> = tree.leaves().collect();
    let resources = tree.resources();
    let bars: Vec<(usize, usize)> = (0..allocs.len())
        .flat_map(|p| (0..resources.len()).map(move |j| (p, j)))
        .collect();
    svg(PANEL + 80, |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(
                "static allocation: each leaf's share of each resource",
                ("sans-serif", 18),
            )
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(48)
            .build_cartesian_2d((0..bars.len()).into_segmented(), 0f64..1.3f64)
            .map_err(drawing)?;
        let names: Vec<String> = bars
            .iter()
            .map(|&(p, j)| format!("{}: {}", allocs[p].policy.name(), resources[j]))
            .collect();
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(bars.len())
            .x_label_style(("sans-serif", 11))
            .x_label_formatter(&|x| match x {
                SegmentValue::CenterOf(i) => names.get(*i).cloned().unwrap_or_default(),
                _ => String::new(),
            })
            .y_desc("share of the resource")
            .draw()
            .map_err(drawing)?;
        let capacity = tree.capacity();
        for (i, &leaf) in leaves.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            let mut rects = Vec::with_capacity(bars.len());
            for (b, &(p, j)) in bars.iter().enumerate() {
                // The bar's height below this leaf: the earlier leaves' shares of resource j.
                let below: Rational = leaves[..i]
                    .iter()
                    .map(|&l| &allocs[p].node(l).allocation[j] / &capacity[j])
                    .fold(Rational::ZERO, |acc, x| acc + x);
                let mine = &allocs[p].node(leaf).allocation[j] / &capacity[j];
                let (y0, y1) = (f(&below), f(&(&below + &mine)));
                let mut bar = Rectangle::new(
                    [
                        (SegmentValue::Exact(b), y0),
                        (SegmentValue::Exact(b + 1), y1),
                    ],
                    color.filled(),
                );
                bar.set_margin(0, 0, 8, 8);
                rects.push(bar);
            }
            chart
                .draw_series(rects)
                .map_err(drawing)?
                .label(tree.path(leaf))
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled())
                });
        }
        draw_legend(&mut chart)
    })
}
