//! The flame graph, drawn as an icicle: the zoomed node across the whole
//! width on the first row, each level below it one row further down, every
//! box as wide as its cost. A box narrower than a cell is not drawn (its
//! cost stays in its parent's uncovered remainder). Boxes are coloured by
//! their function's name (the same function, the same colour) in the 16
//! named colours, or told apart by brackets without colour; the selected
//! box is reversed, boxes of functions matching the search are marked.
//! With `show_self` (`v`), each box's self cost is shaded in the row under
//! it, where its calls leave room (`░`, `:` in ASCII, in the box's colour),
//! so the marks are text with or without colour. The last row says what
//! the selected box is: its inclusive and its self cost.
//!
//! In a comparison it is a differential flame graph (as Brendan Gregg's):
//! the boxes as wide as their cost in the new profile (in the base where
//! the zoomed box is gone in the new one, `TreeView::width_side`), red
//! where the cost grew, green where it shrank, grey where it did not
//! change, and the sign of the change the first character of the name
//! (`+`, `-`), so it reads without colour and in ASCII; the last row
//! says the selected box's cost in both, the change and the self change.

use crate::analysis::diff::Side;
use crate::format::{percent_text, printable};
use crate::tui::app::App;
use crate::tui::layout::Pane;
use crate::tui::views::tree::TreeView;
use crate::tui::views::tree::draw::cut_label;
use crate::tui::widgets::{fit, put_line};
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Span;

/// Background colours of boxes, by name hash.
const COLOURS: [Color; 6] = [
    Color::Red,
    Color::Yellow,
    Color::Green,
    Color::Cyan,
    Color::Blue,
    Color::Magenta,
];

/// One box to draw.
struct Box {
    node: usize,
    x: u16,
    y: u16,
    width: u16,
    /// The cells under the box that its self cost takes (start, end),
    /// right of its children's boxes.
    spent: Option<(u16, u16)>,
}

/// The boxes of the nodes below `view.zoom` that are at least a cell wide,
/// within `rows` levels.
fn layout(view: &TreeView, width: u16, rows: u16) -> Vec<Box> {
    let t = &view.tree;
    let whole = view.extent(view.zoom).max(1) as f64;
    let mut out = Vec::new();
    let shown = view.kept_paths();
    // (node, left edge in cells as a fraction, row)
    let mut stack = vec![(view.zoom, 0.0f64, 0u16)];
    while let Some((n, left, y)) = stack.pop() {
        let value = view.extent(n).max(0) as f64;
        let x0 = left.round() as u16;
        let x1 = (left + value / whole * f64::from(width)).round() as u16;
        if x1 <= x0 || y >= rows || !view.shows(n, &shown) {
            continue;
        }
        let mut at = left;
        for k in t.children_of(n) {
            let v = view.extent(k);
            if v > 0 && !t.node(k).recursive {
                stack.push((k, at, y + 1));
                at += v as f64 / whole * f64::from(width);
            }
        }
        // The children and the self cost add up to the value: the self
        // cost is what is left right of the children.
        let own = match t.sides(n) {
            Some(s) => match view.width_side() {
                Side::Base => s.base_self,
                Side::New => s.new_self,
            },
            None => t.node(n).self_cost(t.direction),
        }
        .unwrap_or(0);
        let s0 = (at.round() as u16).max(x0);
        let spent = (own > 0 && y + 1 < rows && s0 < x1).then_some((s0, x1));
        out.push(Box {
            node: n,
            x: x0,
            y,
            width: x1 - x0,
            spent,
        });
    }
    out
}

fn hash(name: &str) -> usize {
    name.bytes()
        .fold(5381usize, |h, b| h.wrapping_mul(33) ^ usize::from(b))
}

pub fn draw(app: &App, buf: &mut Buffer, pane: Pane, view: &TreeView) {
    let t = app.theme;
    let g = t.glyphs();
    let legend = if view.show_self {
        format!("; {} self", g.shade)
    } else {
        String::new()
    };
    let compared = view.tree.is_compared();
    let what = if compared {
        "Differential flame graph"
    } else {
        "Flame graph"
    };
    let legend = if compared {
        let widths = match view.width_side() {
            Side::New => "new",
            Side::Base => "base (gone in new)",
        };
        let colours = if t.color {
            "red + slower, green - faster"
        } else {
            "+ slower, - faster"
        };
        format!("; widths: {widths}, {colours}{legend}")
    } else {
        legend
    };
    let title = if view.zoom == 0 {
        format!(" {what} {} the whole program{legend}", g.dash)
    } else {
        let name = view.tree.node(view.zoom).func.map_or(String::new(), |f| {
            printable(&crate::tui::view::shown_name(app, f)).into_owned()
        });
        format!(
            " {what} {} zoomed into {name} (Esc: whole graph){legend}",
            g.dash
        )
    };
    put_line(
        buf,
        pane.title,
        0,
        vec![Span::styled(
            fit(&title, pane.title.width as usize, g),
            t.title(true),
        )],
        t.title(true),
    );
    let body = pane.body;
    if body.height < 2 {
        return;
    }
    let rows = body.height - 1;
    let searching = !app.search.query().is_empty();
    let boxes = layout(view, body.width, rows);
    let by_name = |name: &str| COLOURS[hash(name) % COLOURS.len()];
    // A comparison: by the sign of the change.
    let by_change = |n: usize| {
        let paint = match view.tree.node(n).value.signum() {
            1 => t.palette.grown.0,
            -1 => t.palette.shrunk.0,
            _ => None,
        };
        paint.unwrap_or(Color::Gray)
    };
    let colour = |n: usize, name: &str| {
        if compared {
            by_change(n)
        } else {
            by_name(name)
        }
    };
    if view.show_self {
        // Under the boxes first: a rounded cell of a child's box wins.
        for b in &boxes {
            if let Some((x0, x1)) = b.spent {
                let style = if t.color {
                    Style::new().fg(colour(b.node, &box_name(app, view, b.node)))
                } else {
                    Style::new()
                };
                let area = ratatui::layout::Rect::new(body.x + x0, body.y + b.y + 1, x1 - x0, 1);
                let text = g.shade.repeat(usize::from(x1 - x0));
                put_line(buf, area, 0, vec![Span::styled(text, style)], style);
            }
        }
    }
    for b in boxes {
        let node = view.tree.node(b.node);
        let mut name = box_name(app, view, b.node);
        if compared {
            name.insert_str(0, sign(node.value));
        }
        let matched = searching
            && node
                .func
                .is_some_and(|f| app.search.tier(&app.name(f)).is_some());
        let mut style = if t.color {
            Style::new().fg(Color::Black).bg(colour(b.node, &name))
        } else {
            Style::new()
        };
        if matched {
            style = style.add_modifier(Modifier::BOLD | Modifier::UNDERLINED);
        }
        if b.node == view.selected {
            style = style.add_modifier(Modifier::REVERSED);
        }
        // Too narrow for a name: the box's colour only. Without colour,
        // brackets show where boxes meet.
        let text = if b.width < 3 {
            " ".repeat(b.width as usize)
        } else if t.color {
            fit(&name, b.width as usize, g)
        } else {
            format!("[{}]", fit(&name, b.width as usize - 2, g))
        };
        let area = ratatui::layout::Rect::new(body.x + b.x, body.y + b.y, b.width, 1);
        put_line(buf, area, 0, vec![Span::styled(text, style)], style);
    }
    // What the selected box is.
    let sel = view.tree.node(view.selected);
    let name = match (sel.func, sel.cut) {
        (Some(f), _) => printable(app.function_name(f)).into_owned(),
        (None, Some(c)) => cut_label(c, &view.tree),
        (None, None) => "the whole program".to_string(),
    };
    let mark = if sel.exact { "" } else { g.approx };
    let cf = crate::tui::view::cost_format(app);
    if let Some(s) = view.tree.sides(view.selected) {
        let plain = crate::tui::widgets::CostFormat {
            signed: false,
            ..cf
        };
        let (base, new, change) = (plain.text(s.base), plain.text(s.new), cf.text(s.change()));
        let pct = crate::format::wide_signed_percent(i128::from(s.change()), s.base);
        let own = s.self_change().map_or(String::new(), |c| cf.text(c));
        let status = s.status().map_or(String::new(), |s| format!(" ({s})"));
        let statuses = [
            format!(
                "{name}{status}: base {mark}{base}, new {mark}{new}, change {mark}{change} ({pct}), self change {mark}{own}"
            ),
            format!("{name}{status}: base {base}, new {new}, change {change}, self {own}"),
            format!("{name}: {base} {} {new}, {change}, self {own}", g.arrow),
            format!("{name}: {change}, self {own}"),
        ];
        return put_status(app, buf, body, &with_metrics(app, view, &statuses));
    }
    let (incl, incl_pct) = (cf.text(sel.value), percent_text(sel.value, cf.total));
    let own = sel
        .self_cost(view.tree.direction)
        .map(|own| (cf.text(own), percent_text(own, cf.total)));
    // The longest that fits: the shares give way before the self cost.
    let statuses = match &own {
        Some((own, own_pct)) => vec![
            format!("{name}: {mark}{incl} ({incl_pct} of the total), self {mark}{own} ({own_pct})"),
            format!("{name}: {mark}{incl} ({incl_pct}), self {mark}{own} ({own_pct})"),
            format!("{name}: {mark}{incl}, self {mark}{own}"),
        ],
        None => vec![format!("{name}: {mark}{incl} ({incl_pct} of the total)")],
    };
    put_status(app, buf, body, &with_metrics(app, view, &statuses));
}

/// `statuses` with the chosen columns of the selected box after each,
/// then without them: the columns are kept before the shares.
fn with_metrics(app: &App, view: &TreeView, statuses: &[String]) -> Vec<String> {
    let metrics = metric_texts(app, view, view.selected);
    if metrics.is_empty() {
        return statuses.to_vec();
    }
    let sep = app.theme.glyphs().separator;
    (statuses.iter().map(|s| format!("{s} {sep} {metrics}")))
        .chain(statuses.iter().cloned())
        .collect()
}

/// The chosen metric columns (`m`) of box `n`: `NAME value` each, blank
/// values left out.
fn metric_texts(app: &App, view: &TreeView, n: usize) -> String {
    let columns = &app.columns;
    if let Some([base, new]) = view.tree.compared_costs(n) {
        return compared_metric_texts(app, base, new);
    }
    let Some(costs) = view.tree.costs(n, app.analysis.width) else {
        return String::new();
    };
    let mut out = Vec::new();
    for &c in &columns.chosen {
        let Some(own) = pick_own(c, &costs) else {
            continue;
        };
        let text = columns.text(c, &own, &costs.inclusive);
        if !text.is_empty() {
            out.push(format!("{} {text}", columns.header(c)));
        }
    }
    out.join(", ")
}

/// A comparison's box: `NAME base→new (change)` of each chosen column.
fn compared_metric_texts(
    app: &App,
    base: crate::analysis::tree::NodeCosts,
    new: crate::analysis::tree::NodeCosts,
) -> String {
    let columns = &app.columns;
    let mut out = Vec::new();
    for &c in &columns.chosen {
        let (Some(b), Some(n)) = (pick_own(c, &base), pick_own(c, &new)) else {
            continue;
        };
        let (bs, ns) = ((&b[..], &base.inclusive[..]), (&n[..], &new.inclusive[..]));
        let change = columns.change_text(c, bs, ns);
        if !change.is_empty() {
            let g = app.theme.glyphs();
            out.push(format!(
                "{} {}{}{} ({change})",
                columns.header(c),
                columns.text(c, bs.0, bs.1),
                g.arrow,
                columns.text(c, ns.0, ns.1),
            ));
        }
    }
    out.join(", ")
}

/// A node's self costs for column `c`: `None` where `c` is a self column
/// and they are not known yet.
fn pick_own(
    c: crate::tui::columns::MetricColumn,
    x: &crate::analysis::tree::NodeCosts,
) -> Option<Vec<crate::profile::Cost>> {
    match (c.scope, &x.own) {
        (crate::tui::columns::Scope::Own, None) => None,
        (_, own) => Some(own.clone().unwrap_or_default()),
    }
}

/// The longest of `statuses` that fits (else the last, cut) on the last
/// line of `body`.
fn put_status(app: &App, buf: &mut Buffer, body: ratatui::layout::Rect, statuses: &[String]) {
    let width = body.width as usize;
    let Some(last) = statuses.last() else {
        return;
    };
    let status = (statuses.iter())
        .find(|s| crate::tui::widgets::cells(s) <= width)
        .unwrap_or(last);
    let (t, g) = (app.theme, app.theme.glyphs());
    put_line(
        buf,
        body,
        body.height - 1,
        vec![Span::styled(fit(status, width, g), t.key())],
        Style::new(),
    );
}

/// The name a box shows: its function's, or what a marker stands for.
fn box_name(app: &App, view: &TreeView, n: usize) -> String {
    let node = view.tree.node(n);
    match (node.func, node.cut) {
        (Some(f), _) => printable(&crate::tui::view::shown_name(app, f)).into_owned(),
        (None, Some(c)) => cut_label(c, &view.tree),
        (None, None) => "all".to_string(),
    }
}

/// The mark of a change's sign in a differential flame graph's box.
fn sign(change: crate::profile::Cost) -> &'static str {
    match change.signum() {
        1 => "+",
        -1 => "-",
        _ => "",
    }
}
