//! Formulas over a row of costs: `+ - * /`, parentheses, constants and
//! names, with a number before a name multiplying it (`10 Bm`, as
//! Callgrind's `event:` lines and KCachegrind write them). Parsing gives
//! names as written; `Metrics` resolves them to event columns.

/// A parsed formula.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Number(f64),
    /// A name as written, before resolving.
    Name(String),
    /// An event column of the profile, after resolving.
    Event(usize),
    Neg(Box<Expr>),
    Binary(Op, Box<Expr>, Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
}

/// Where and why a formula could not be read: `column` counts characters
/// from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub column: usize,
    pub message: String,
}

/// A formula longer than this is refused (a real one is a line).
pub const MAX_LEN: usize = 1000;
/// Parentheses nested deeper than this are refused (the parser recurses).
const MAX_NESTING: usize = 64;

/// Parses `text` whole.
pub fn parse(text: &str) -> Result<Expr, SyntaxError> {
    if text.chars().count() > MAX_LEN {
        return Err(SyntaxError {
            column: MAX_LEN + 1,
            message: format!("a formula may be at most {MAX_LEN} characters long"),
        });
    }
    let mut p = Parser {
        chars: text.chars().collect(),
        at: 0,
        nesting: 0,
    };
    let expr = p.sum()?;
    p.skip_space();
    match p.peek() {
        None => Ok(expr),
        Some(')') => Err(p.error("a `)` without its `(`")),
        Some(c) => Err(p.error(&format!("expected an operator, found `{c}`"))),
    }
}

struct Parser {
    chars: Vec<char>,
    at: usize,
    nesting: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    fn error(&self, message: &str) -> SyntaxError {
        SyntaxError {
            column: self.at + 1,
            message: message.to_string(),
        }
    }

    /// `product (("+" | "-") product)*`
    fn sum(&mut self) -> Result<Expr, SyntaxError> {
        let mut left = self.product()?;
        loop {
            self.skip_space();
            let op = match self.peek() {
                Some('+') => Op::Add,
                Some('-') => Op::Sub,
                _ => return Ok(left),
            };
            self.at += 1;
            let right = self.product()?;
            left = Expr::Binary(op, Box::new(left), Box::new(right));
        }
    }

    /// `factor (("*" | "/")? factor)*`: a factor right after a number
    /// multiplies it (`10 Bm`).
    fn product(&mut self) -> Result<Expr, SyntaxError> {
        let mut left = self.factor()?;
        loop {
            self.skip_space();
            let op = match self.peek() {
                Some('*') => Op::Mul,
                Some('/') => Op::Div,
                Some(c) if is_name_start(c) && matches!(left, Expr::Number(_)) => {
                    let right = self.factor()?;
                    left = Expr::Binary(Op::Mul, Box::new(left), Box::new(right));
                    continue;
                }
                _ => return Ok(left),
            };
            self.at += 1;
            let right = self.factor()?;
            left = Expr::Binary(op, Box::new(left), Box::new(right));
        }
    }

    /// A number, a name, `-factor`, or `( sum )`.
    fn factor(&mut self) -> Result<Expr, SyntaxError> {
        self.skip_space();
        match self.peek() {
            None => Err(self.error("the formula ends where a number or a name should be")),
            Some('-') => {
                self.at += 1;
                Ok(Expr::Neg(Box::new(self.factor()?)))
            }
            Some('+') => {
                self.at += 1;
                self.factor()
            }
            Some('(') => {
                if self.nesting == MAX_NESTING {
                    return Err(self.error("parentheses nested too deep"));
                }
                let open = self.at;
                self.at += 1;
                self.nesting += 1;
                let inner = self.sum()?;
                self.nesting -= 1;
                self.skip_space();
                if self.peek() != Some(')') {
                    let mut e = self.error("this `(` is not closed");
                    e.column = open + 1;
                    return Err(e);
                }
                self.at += 1;
                Ok(inner)
            }
            Some(c) if c.is_ascii_digit() || c == '.' => self.number(),
            Some(c) if is_name_start(c) => {
                let start = self.at;
                while self.peek().is_some_and(is_name_char) {
                    self.at += 1;
                }
                Ok(Expr::Name(self.chars[start..self.at].iter().collect()))
            }
            Some(c) => Err(self.error(&format!("expected a number or a name, found `{c}`"))),
        }
    }

    fn number(&mut self) -> Result<Expr, SyntaxError> {
        let start = self.at;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_digit() || c == '.' || c == '_')
        {
            self.at += 1;
        }
        // An exponent: `1e6`, `2.5E-3`.
        if matches!(self.peek(), Some('e' | 'E')) {
            let mark = self.at;
            self.at += 1;
            if matches!(self.peek(), Some('+' | '-')) {
                self.at += 1;
            }
            if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.at += 1;
                }
            } else {
                self.at = mark;
            }
        }
        let text: String = self.chars[start..self.at]
            .iter()
            .filter(|&&c| c != '_')
            .collect();
        match text.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(Expr::Number(v)),
            _ => {
                let mut e = self.error(&format!("`{text}` is not a number"));
                e.column = start + 1;
                Err(e)
            }
        }
    }
}

fn is_name_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Whether `name` can be a metric's name (what a formula can refer to).
pub fn is_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(is_name_start) && chars.all(is_name_char)
}

impl Expr {
    /// Number of nodes (bounds what resolving may expand to).
    pub fn size(&self) -> usize {
        match self {
            Expr::Number(_) | Expr::Name(_) | Expr::Event(_) => 1,
            Expr::Neg(e) => 1 + e.size(),
            Expr::Binary(_, a, b) => 1 + a.size() + b.size(),
        }
    }

    /// Whether any event column takes part (a constant denominator is not
    /// held to the minimum count).
    pub fn uses_events(&self) -> bool {
        match self {
            Expr::Number(_) => false,
            Expr::Name(_) | Expr::Event(_) => true,
            Expr::Neg(e) => e.uses_events(),
            Expr::Binary(_, a, b) => a.uses_events() || b.uses_events(),
        }
    }

    /// Adds the event columns the formula reads to `out`.
    pub fn events(&self, out: &mut Vec<usize>) {
        match self {
            Expr::Number(_) | Expr::Name(_) => {}
            Expr::Event(i) => out.push(*i),
            Expr::Neg(e) => e.events(out),
            Expr::Binary(_, a, b) => {
                a.events(out);
                b.events(out);
            }
        }
    }

    /// Whether the formula is a sum of events times constants: its value
    /// of a function's callees adds up, so it has a total and can rank
    /// with a threshold as an event does.
    pub fn is_linear(&self) -> bool {
        match self {
            Expr::Number(_) | Expr::Name(_) | Expr::Event(_) => true,
            Expr::Neg(e) => e.is_linear(),
            Expr::Binary(Op::Add | Op::Sub, a, b) => a.is_linear() && b.is_linear(),
            Expr::Binary(Op::Mul, a, b) => {
                (!a.uses_events() && b.is_linear()) || (!b.uses_events() && a.is_linear())
            }
            Expr::Binary(Op::Div, a, b) => !b.uses_events() && a.is_linear(),
        }
    }

    /// The value on `row` (a row of event columns): `None` is blank, where
    /// a denominator that depends on events is smaller in size than
    /// `min_denominator`, or a constant one is zero.
    pub fn eval(&self, row: &[i64], min_denominator: f64) -> Option<f64> {
        let v = match self {
            Expr::Number(v) => *v,
            Expr::Name(_) => return None,
            Expr::Event(i) => *row.get(*i)? as f64,
            Expr::Neg(e) => -e.eval(row, min_denominator)?,
            Expr::Binary(op, a, b) => {
                let x = a.eval(row, min_denominator)?;
                let y = b.eval(row, min_denominator)?;
                match op {
                    Op::Add => x + y,
                    Op::Sub => x - y,
                    Op::Mul => x * y,
                    Op::Div => {
                        let floor = if b.uses_events() {
                            min_denominator
                        } else {
                            0.0
                        };
                        if y == 0.0 || y.abs() < floor {
                            return None;
                        }
                        x / y
                    }
                }
            }
        };
        v.is_finite().then_some(v)
    }
}

impl std::fmt::Display for Expr {
    /// The formula with names of columns as `#N` (for debugging and tests).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Expr::Number(v) => write!(f, "{v}"),
            Expr::Name(n) => write!(f, "{n}"),
            Expr::Event(i) => write!(f, "#{i}"),
            Expr::Neg(e) => write!(f, "-({e})"),
            Expr::Binary(op, a, b) => {
                let op = match op {
                    Op::Add => '+',
                    Op::Sub => '-',
                    Op::Mul => '*',
                    Op::Div => '/',
                };
                write!(f, "({a} {op} {b})")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(text: &str) -> String {
        parse(text).unwrap().to_string()
    }

    fn error(text: &str) -> (usize, String) {
        let e = parse(text).unwrap_err();
        (e.column, e.message)
    }

    #[test]
    fn precedence_parentheses_and_juxtaposition() {
        assert_eq!(shown("a + b * c"), "(a + (b * c))");
        assert_eq!(shown("(a + b) * c"), "((a + b) * c)");
        assert_eq!(shown("a - b - c"), "((a - b) - c)");
        assert_eq!(shown("a / b / c"), "((a / b) / c)");
        assert_eq!(shown("Ir + 10 Bm"), "(Ir + (10 * Bm))");
        assert_eq!(shown("-a * 2"), "(-(a) * 2)");
        assert_eq!(shown("1e3 * x"), "(1000 * x)");
        assert_eq!(shown("1_000 / 4"), "(1000 / 4)");
        assert_eq!(shown("100*D1mr/Dr"), "((100 * D1mr) / Dr)");
    }

    #[test]
    fn errors_name_the_column() {
        assert_eq!(error("Ir +").0, 5);
        assert_eq!(error("Ir + * Dr").0, 6);
        assert_eq!(error("(Ir + Dr").0, 1);
        assert_eq!(error("Ir + Dr)").0, 8);
        assert_eq!(
            error("Ir Dr"),
            (4, "expected an operator, found `D`".into())
        );
        assert_eq!(error("Ir % 2").1, "expected an operator, found `%`");
        assert_eq!(error("1.2.3 * Ir").0, 1);
        assert_eq!(error("").0, 1);
        assert_eq!(error(&"(".repeat(100)).0, 65);
        assert!(error(&"a+".repeat(600)).1.contains("at most"));
    }

    #[test]
    fn division_is_never_an_error_and_small_denominators_are_blank() {
        let e = |t: &str| {
            let mut x = parse(t).unwrap();
            resolve_test(&mut x);
            x
        };
        let row = [10, 0, 500, 2000];
        assert_eq!(e("a / b").eval(&row, 1000.0), None);
        assert_eq!(e("a / c").eval(&row, 1000.0), None);
        assert_eq!(e("a / c").eval(&row, 0.0), Some(0.02));
        assert_eq!(e("d / d").eval(&row, 1000.0), Some(1.0));
        assert_eq!(e("a / 4").eval(&row, 1000.0), Some(2.5));
        assert_eq!(e("a / 0").eval(&row, 0.0), None);
        assert_eq!(e("(a + d) - 2 * a").eval(&row, 0.0), Some(1990.0));
    }

    #[test]
    fn linearity() {
        for (t, linear) in [
            ("a + 10 b", true),
            ("(a - b) / 4", true),
            ("a * b", false),
            ("a / b", false),
            ("2 * (a + 3 * b)", true),
            ("-a", true),
        ] {
            assert_eq!(parse(t).unwrap().is_linear(), linear, "{t}");
        }
    }

    /// Names `a`, `b`, `c`, `d` as columns 0 to 3.
    fn resolve_test(e: &mut Expr) {
        match e {
            Expr::Name(n) => *e = Expr::Event((n.as_bytes()[0] - b'a') as usize),
            Expr::Neg(x) => resolve_test(x),
            Expr::Binary(_, a, b) => {
                resolve_test(a);
                resolve_test(b);
            }
            _ => {}
        }
    }
}
