//! A comparison's metric columns, for every view that has rows of both
//! sides (the list, the call trees): per chosen column (`m`) its value in
//! the base, in the new profile and the change. One place says their
//! headers, cells and the order in which they give way.

use super::App;
use crate::profile::Cost;
use crate::tui::columns::{Columns, MetricColumn};
use crate::tui::widgets::{Column, Width};

/// A row's self and inclusive costs in the base and in the new profile
/// (`None`: blank cells).
pub type Both = [(Vec<Cost>, Vec<Cost>); 2];

/// At most this many chosen columns are compared (three columns each).
const MOST: usize = 60;

/// The ranks (`Column::gives_way`) the values take, 1 to this: a view's
/// own columns that give way after them start above it.
pub fn value_ranks(app: &App) -> u8 {
    2 * app.columns.chosen.len().min(MOST) as u8
}

/// The columns, as `(changes, values)`: the values (base and new) give
/// way first, the last chosen first (ranks 1 to 2k); the changes after
/// every column ranked up to `after` + 2k (the view's own columns).
/// `sorted`: the list is sorted by that column's change (its header is
/// marked).
pub fn columns<'a, R: 'a>(
    app: &'a App,
    after: u8,
    sorted: Option<MetricColumn>,
    rows: impl Fn(&R, MetricColumn) -> Option<Both> + Copy + 'a,
) -> (Vec<Column<'a, R>>, Vec<Column<'a, R>>) {
    let columns = &app.columns;
    let g = app.theme.glyphs();
    let k = columns.chosen.len().min(MOST);
    let (mut changes, mut values) = (Vec::new(), Vec::new());
    for (i, &c) in columns.chosen.iter().enumerate().take(k) {
        let name = columns.header(c);
        let later = (k - i) as u8;
        for (side, label) in [(0, "base"), (1, "new")] {
            let header = format!("{name} {label}");
            let width = Columns::width(&header);
            let column = Column::text(Width::Fixed(width), move |r: &R| {
                rows(r, c).map_or(String::new(), |both| {
                    let (own, incl) = &both[side];
                    columns.text(c, own, incl)
                })
            });
            values.push(
                column
                    .right()
                    .header(header)
                    .gives_way(2 * later - 1 + side as u8),
            );
        }
        let mut header = format!("{name} chg");
        if sorted == Some(c) {
            header.push_str(if app.browse.reversed {
                g.sort_up
            } else {
                g.sort_down
            });
        }
        let width = Columns::width(&header);
        let column = Column::new(Width::Fixed(width), move |r: &R, _| {
            let Some([b, n]) = rows(r, c) else {
                return vec![];
            };
            super::metric_change(app, c, (&b.0, &b.1), (&n.0, &n.1))
        });
        changes.push(
            column
                .right()
                .header(header)
                .gives_way(after + value_ranks(app) + later),
        );
    }
    (changes, values)
}
