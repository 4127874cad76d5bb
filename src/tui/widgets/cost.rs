//! How a table writes its costs: which event of a row of costs, absolute
//! or as a share of the event's total, how wide, with a sign or not. The
//! views make one from the app's state per frame, so that the widgets
//! never see `App`.

use crate::format::{percent_text, thousands};
use crate::profile::Cost;
use crate::tui::theme::Theme;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CostFormat {
    /// The event's column in a row of costs.
    pub event: usize,
    /// The event's total over the selected parts: what shares are of.
    pub total: Cost,
    /// Costs as a share of `total` rather than absolute.
    pub percent: bool,
    /// A `+` before positive costs (differences between profiles).
    pub signed: bool,
    /// Cells a cost takes: room for the total (or `100.00%`), and the sign.
    pub width: usize,
    /// Styles and glyphs for the cells that draw costs (the bar).
    pub theme: Theme,
}

impl CostFormat {
    /// Unsigned costs of `event`, as wide as the total needs.
    pub fn new(event: usize, total: Cost, percent: bool, theme: Theme) -> Self {
        let width = if percent {
            7
        } else {
            thousands(total).len().max(5)
        };
        CostFormat {
            event,
            total,
            percent,
            signed: false,
            width,
            theme,
        }
    }

    /// The same with a `+` before positive costs, one cell wider for it.
    pub fn signed(self) -> Self {
        if self.signed {
            return self;
        }
        CostFormat {
            signed: true,
            width: self.width + 1,
            ..self
        }
    }

    /// The event's cost in a row of costs (0 where the row has none).
    pub fn at(&self, row: &[Cost]) -> Cost {
        row.get(self.event).copied().unwrap_or(0)
    }

    /// A cost as the user asked: absolute, or percent of the total.
    pub fn text(&self, value: Cost) -> String {
        let text = if self.percent {
            percent_text(value, self.total)
        } else {
            thousands(value)
        };
        // No sign on the `-` of a share of nothing.
        if self.signed && value > 0 && text.starts_with(|c: char| c.is_ascii_digit()) {
            format!("+{text}")
        } else {
            text
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn costs_are_written_as_asked() {
        let theme = Theme::plain_colors();
        let abs = CostFormat::new(1, 1_234_567, false, theme);
        assert_eq!(abs.width, 9);
        assert_eq!(abs.at(&[5, 42]), 42);
        assert_eq!(abs.at(&[5]), 0);
        assert_eq!(abs.text(1234), "1,234");
        assert_eq!(CostFormat::new(0, 12, false, theme).width, 5);
        let pct = CostFormat::new(0, 200, true, theme);
        assert_eq!((pct.width, pct.text(50)), (7, "25.00%".to_string()));
        let signed = abs.signed();
        assert_eq!(signed.width, 10);
        assert_eq!(signed.signed().width, 10);
        assert_eq!(signed.text(1234), "+1,234");
        assert_eq!(signed.text(-1234), "-1,234");
        assert_eq!(signed.text(0), "0");
        let nothing = CostFormat::new(0, 0, true, theme).signed();
        assert_eq!(nothing.text(5), "-");
    }
}
