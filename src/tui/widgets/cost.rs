//! How a table writes its costs: which event of a row of costs, absolute
//! or as a share of the event's total, how wide, with a sign or not. The
//! views make one from the app's state per frame, so that the widgets
//! never see `App`.

use crate::format::{
    change_bound, percent_text, thousands, wide_signed_percent, wide_signed_thousands,
};
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
        let text = if self.signed && value > 0 && text.starts_with(|c: char| c.is_ascii_digit()) {
            format!("+{text}")
        } else {
            text
        };
        if !self.signed || change_bound(value).is_empty() || text == "-" {
            return text;
        }
        // A change held at a limit is a bound; as a share of a negative
        // total, the bound turns round.
        let bound = match (value > 0) == (self.percent && self.total < 0) {
            true => "<=",
            false => ">=",
        };
        format!("{bound}{text}")
    }

    /// An exact change (`format::change`), which may need 65 bits: as
    /// `text` writes a cost.
    pub fn wide_text(&self, value: i128) -> String {
        match i64::try_from(value) {
            Ok(v) if change_bound(v).is_empty() => self.text(v),
            _ if self.percent => wide_signed_percent(value, self.total),
            _ => wide_signed_thousands(value),
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
        assert_eq!(nothing.text(i64::MAX), "-");
    }

    #[test]
    fn changes_at_a_limit_are_bounds_and_exact_changes_are_whole() {
        let theme = Theme::plain_colors();
        let abs = CostFormat::new(0, 1_000, false, theme).signed();
        assert_eq!(abs.text(i64::MAX), ">=+9,223,372,036,854,775,807");
        assert_eq!(abs.text(i64::MIN), "<=-9,223,372,036,854,775,808");
        assert_eq!(abs.text(i64::MAX - 1), "+9,223,372,036,854,775,806");
        let unsigned = CostFormat::new(0, 1_000, false, theme);
        assert_eq!(unsigned.text(i64::MAX), "9,223,372,036,854,775,807");
        let pct = CostFormat::new(0, 1 << 62, true, theme).signed();
        assert_eq!(pct.text(i64::MAX), ">=+200.00%");
        let of_negative = CostFormat::new(0, -(1 << 62), true, theme).signed();
        assert_eq!(of_negative.text(i64::MAX), "<=-200.00%");
        assert_eq!(of_negative.text(i64::MIN), ">=200.00%");
        let wide = (1i128 << 64) - 1;
        assert_eq!(abs.wide_text(wide), "+18,446,744,073,709,551,615");
        assert_eq!(abs.wide_text(-wide), "-18,446,744,073,709,551,615");
        assert_eq!(
            abs.wide_text(i128::from(i64::MAX)),
            "+9,223,372,036,854,775,807"
        );
        assert_eq!(abs.wide_text(-3), "-3");
        assert_eq!(pct.wide_text(wide), "+400.00%");
    }
}
