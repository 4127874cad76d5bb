//! One widget for the tables of costs (the flat list, the callers and
//! callees panes, search results, the parts popup, and trees to come).
//! A table is its columns, declared as data: header, width rule, which
//! give way first on narrow terminals, cell, alignment and style. `draw`
//! lays them out across the pane, writes the header row and only the
//! visible rows, the selected one highlighted, one space between columns.
//!
//! Cells are aligned, never cut here: a cell wider than its column pushes
//! the rest of its row right, and the cells after it are told by how much
//! (`CellContext::overflow`). The fill column's cell is given its width
//! and fits its text itself (names keep their start and end).
//!
//! Knows nothing of `App`: costs are written as a `CostFormat` says.

use super::cost::CostFormat;
use super::{NAME_FIRST, put_line};
use crate::profile::Cost;
use crate::tui::layout::Pane;
use crate::tui::scroll::Scroll;
use ratatui::buffer::Buffer;
use ratatui::style::Style;
use ratatui::text::Span;

/// How wide a column is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// Always this many cells.
    Fixed(usize),
    /// As wide as the format's costs.
    Cost,
    /// What the other columns leave (one fill column per table, the
    /// name's); columns that give way are dropped until it has `min`.
    Fill { min: usize },
}

/// Where a cell's text sits in its column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// What a cell is drawn with.
pub struct CellContext<'f> {
    /// The column's width (the fill column's less the table's margin).
    pub width: usize,
    /// Cells that the cells before this one took beyond their columns.
    pub overflow: usize,
    /// The row's style: the selection's, or none. It is under every cell
    /// already; cells read it to make styles of their own from it.
    pub style: Style,
    pub format: &'f CostFormat,
}

type CellFn<'a, R> = Box<dyn Fn(&R, &CellContext<'_>) -> Vec<Span<'static>> + 'a>;
type HeaderFn<'a> = Box<dyn Fn(usize) -> Vec<Span<'static>> + 'a>;

/// One column: its cells come from a row `R` (built once per visible row).
pub struct Column<'a, R> {
    width: Width,
    align: Align,
    style: Style,
    header: HeaderFn<'a>,
    gives_way: Option<u8>,
    from_width: usize,
    cell: CellFn<'a, R>,
}

impl<'a, R> Column<'a, R> {
    /// A left-aligned column with no header whose cells are `cell`'s spans.
    pub fn new(
        width: Width,
        cell: impl Fn(&R, &CellContext<'_>) -> Vec<Span<'static>> + 'a,
    ) -> Self {
        Column {
            width,
            align: Align::Left,
            style: Style::new(),
            header: Box::new(|_| Vec::new()),
            gives_way: None,
            from_width: 0,
            cell: Box::new(cell),
        }
    }

    /// A left-aligned column of plain text.
    pub fn text(width: Width, text: impl Fn(&R) -> String + 'a) -> Self {
        Column::new(width, move |r, _| vec![Span::raw(text(r))])
    }

    /// A right-aligned column of costs: `costs` gives a row's costs by
    /// event; the format picks the event and writes it.
    pub fn cost(costs: impl Fn(&R) -> &'a [Cost] + 'a) -> Self {
        Column::new(Width::Cost, move |r, cx| {
            vec![Span::raw(cx.format.text(cx.format.at(costs(r))))]
        })
        .right()
    }

    /// A header aligned as the cells are (not cut).
    pub fn header(self, text: impl Into<String>) -> Self {
        let text = text.into();
        self.header_with(move |_| vec![Span::raw(text.clone())])
    }

    /// A header made for the column's width (a name cut to fit, a title).
    pub fn header_with(mut self, header: impl Fn(usize) -> Vec<Span<'static>> + 'a) -> Self {
        self.header = Box::new(header);
        self
    }

    /// Cells (and header) against the right edge: numbers.
    pub fn right(mut self) -> Self {
        self.align = Align::Right;
        self
    }

    /// A style for the cells' text, under the styles the cells give.
    pub fn style(mut self, style: Style) -> Self {
        self.style = style;
        self
    }

    /// On narrow tables this column is dropped to keep the fill column's
    /// minimum: columns of lower `rank` first.
    pub fn gives_way(mut self, rank: u8) -> Self {
        self.gives_way = Some(rank);
        self
    }

    /// Shown only on tables at least `width` cells wide.
    pub fn from_width(mut self, width: usize) -> Self {
        self.from_width = width;
        self
    }
}

/// Columns and how to draw them; see the module's comment.
pub struct Table<'a, R> {
    columns: Vec<Column<'a, R>>,
    format: CostFormat,
    header_text: Style,
    header_line: Style,
    selected: Style,
    margin: usize,
    empty: Option<Span<'static>>,
}

impl<'a, R> Table<'a, R> {
    pub fn new(format: CostFormat, columns: Vec<Column<'a, R>>) -> Self {
        Table {
            columns,
            format,
            header_text: Style::new(),
            header_line: Style::new(),
            selected: Style::new(),
            margin: 0,
            empty: None,
        }
    }

    /// The header's style: of its text (and the spaces in it), and of the
    /// rest of its line.
    pub fn header_style(mut self, text: Style, line: Style) -> Self {
        self.header_text = text;
        self.header_line = line;
        self
    }

    /// The selected row's style.
    pub fn selected_style(mut self, style: Style) -> Self {
        self.selected = style;
        self
    }

    /// Cells that the fill column's cells leave free at their end; the
    /// header's may use them (the call panes' titles do).
    pub fn margin(mut self, cells: usize) -> Self {
        self.margin = cells;
        self
    }

    /// What the first row says when there are no rows.
    pub fn empty(mut self, message: Span<'static>) -> Self {
        self.empty = Some(message);
        self
    }

    /// Each column's width on a table `width` cells wide, `None` for the
    /// columns not shown: those shown only from a width are left out,
    /// then those that give way, until the fill column has its minimum.
    pub fn widths(&self, width: usize) -> Vec<Option<usize>> {
        let mut shown: Vec<bool> = self.columns.iter().map(|c| width >= c.from_width).collect();
        let min = self
            .columns
            .iter()
            .find_map(|c| match c.width {
                Width::Fill { min } => Some(min),
                _ => None,
            })
            .unwrap_or(0);
        let mut ranked: Vec<usize> = (0..self.columns.len())
            .filter(|&i| self.columns[i].gives_way.is_some())
            .collect();
        ranked.sort_by_key(|&i| self.columns[i].gives_way);
        for i in ranked {
            if width.saturating_sub(self.used(&shown)) >= min {
                break;
            }
            shown[i] = false;
        }
        let fill = width.saturating_sub(self.used(&shown));
        self.columns
            .iter()
            .zip(shown)
            .map(|(c, shown)| {
                shown.then_some(match c.width {
                    Width::Fixed(n) => n,
                    Width::Cost => self.format.width,
                    Width::Fill { .. } => fill,
                })
            })
            .collect()
    }

    /// Cells the shown columns other than the fill one take, with the
    /// spaces between all shown columns.
    fn used(&self, shown: &[bool]) -> usize {
        let mut count = 0usize;
        let mut cells = 0;
        for (c, _) in self.columns.iter().zip(shown).filter(|(_, s)| **s) {
            count += 1;
            cells += match c.width {
                Width::Fixed(n) => n,
                Width::Cost => self.format.width,
                Width::Fill { .. } => 0,
            };
        }
        cells + count.saturating_sub(1)
    }

    /// Draws the header on the pane's title line and the rows of `len`
    /// that `scroll` shows in its body; `row(i)` builds row `i`.
    pub fn draw(
        &self,
        buf: &mut Buffer,
        pane: Pane,
        scroll: &Scroll,
        len: usize,
        row: impl Fn(usize) -> R,
    ) {
        let widths = self.widths(pane.body.width as usize);
        let header = self.line(&widths, self.header_text, |col, width, _| {
            let mut spans = (col.header)(width);
            for s in &mut spans {
                s.style = self.header_text.patch(s.style);
            }
            spans
        });
        put_line(buf, pane.title, 0, header, self.header_line);
        let (selected, range) = scroll.window(pane.body.height as usize, len);
        for (y, i) in range.enumerate() {
            let r = row(i);
            let style = if i == selected {
                self.selected
            } else {
                Style::new()
            };
            let spans = self.line(&widths, Style::new(), |col, width, overflow| {
                let cx = CellContext {
                    width: match col.width {
                        Width::Fill { .. } => width.saturating_sub(self.margin),
                        _ => width,
                    },
                    overflow,
                    style,
                    format: &self.format,
                };
                let mut spans = (col.cell)(&r, &cx);
                for s in &mut spans {
                    s.style = col.style.patch(s.style);
                }
                spans
            });
            put_line(buf, pane.body, y as u16, spans, style);
        }
        if len == 0
            && let Some(message) = &self.empty
        {
            put_line(buf, pane.body, 0, vec![message.clone()], Style::new());
        }
    }

    /// One line: the shown columns' cells (from `cell(column, width,
    /// overflow)`) aligned in their widths, a space between them; spaces
    /// added in `pad` style. The last column is not padded at its end.
    fn line(
        &self,
        widths: &[Option<usize>],
        pad: Style,
        cell: impl Fn(&Column<'a, R>, usize, usize) -> Vec<Span<'static>>,
    ) -> Vec<Span<'static>> {
        let shown: Vec<(&Column<'a, R>, usize)> = self
            .columns
            .iter()
            .zip(widths)
            .filter_map(|(c, w)| w.map(|w| (c, w)))
            .collect();
        let spaces = |n: usize| Span::styled(" ".repeat(n), pad);
        let mut out = Vec::new();
        let mut overflow = 0;
        for (i, &(col, width)) in shown.iter().enumerate() {
            if i > 0 {
                out.push(spaces(1));
            }
            let spans = cell(col, width, overflow);
            let used: usize = spans.iter().map(Span::width).sum();
            overflow += used.saturating_sub(width);
            let gap = width.saturating_sub(used);
            match col.align {
                Align::Right => {
                    out.push(spaces(gap));
                    out.extend(spans);
                }
                Align::Left => {
                    out.extend(spans);
                    if i + 1 < shown.len() {
                        out.push(spaces(gap));
                    }
                }
            }
        }
        out
    }
}

/// A name cell `width` cells wide: `prefix` (a tree's indent and expand
/// marker), the name that `name` makes in the cells `prefix` and `suffix`
/// leave, then `suffix` (the marks after a name: cycle, recursion).
pub fn name_cell(
    width: usize,
    prefix: Vec<Span<'static>>,
    suffix: Vec<Span<'static>>,
    name: impl FnOnce(usize) -> Vec<Span<'static>>,
) -> Vec<Span<'static>> {
    let before: usize = prefix.iter().map(Span::width).sum();
    let after: usize = suffix.iter().map(Span::width).sum();
    let room = width.saturating_sub(before);
    let keep_suffix = room.saturating_sub(after) >= NAME_FIRST.min(room);
    let mut spans = prefix;
    spans.extend(name(if keep_suffix { room - after } else { room }));
    if keep_suffix {
        spans.extend(suffix);
    }
    spans
}

#[cfg(test)]
mod tests;
