//! The writer: a model out as profile text, with every choice the format
//! leaves open made at random (see the crate root).

use super::*;
use std::collections::{HashMap, HashSet};

#[derive(Clone, Copy, Debug)]
pub enum Names {
    Plain,
    DefineOnFirstUse,
    DefineUpFront,
}

/// Every choice the format leaves to the writer. `tape` drives the small
/// per-line choices; an exhausted tape (and a zero byte) means the plainest.
#[derive(Clone, Debug)]
pub struct Style {
    pub names: [Names; 3],
    pub first_id: u64,
    pub redefine_per_part: bool,
    pub files_per_part: bool,
    pub crlf: bool,
    pub final_newline: bool,
    pub summary: bool,
    pub totals: bool,
    pub tape: Vec<u8>,
}

pub fn style() -> impl Strategy<Value = Style> {
    let names = prop_oneof![
        Just(Names::Plain),
        Just(Names::DefineOnFirstUse),
        Just(Names::DefineUpFront)
    ];
    let first_id = prop_oneof![Just(0u64), Just(1), Just((1 << 22) - 2), Just(1 << 40)];
    (
        [names.clone(), names.clone(), names],
        first_id,
        any::<[bool; 6]>(),
        any::<bool>(),
        prop::collection::vec(any::<u8>(), 0..600),
    )
        .prop_map(|(names, first_id, b, totals, tape)| Style {
            names,
            first_id,
            redefine_per_part: b[0],
            files_per_part: b[1],
            crlf: b[2],
            final_newline: b[3],
            summary: b[4],
            totals,
            tape,
        })
}

const FILE: usize = 0;
const OBJECT: usize = 1;
const FUNCTION: usize = 2;

struct Writer<'a> {
    m: &'a Model,
    s: &'a Style,
    tape: usize,
    files: Vec<Vec<String>>,
    ids: [HashMap<&'static str, u64>; 3],
    defined: [HashSet<&'static str>; 3],
    /// What the loader holds now; `None` when not known (a new part).
    obj: Option<&'static str>,
    fn_file: Option<&'static str>,
    line_file: Option<&'static str>,
    last: Pos,
}

impl<'a> Writer<'a> {
    /// A choice among `n`, 0 once the tape is used up.
    fn pick(&mut self, n: u8) -> u8 {
        let b = self.s.tape.get(self.tape).copied().unwrap_or(0);
        self.tape += 1;
        b % n
    }

    /// Emits a line, maybe after a comment or a blank line.
    fn line(&mut self, text: String) {
        match self.pick(10) {
            7 => self.raw("# a comment: fn=(1) x\tcalls=1 2".into()),
            8 => self.raw(String::new()),
            9 => self.raw(" \t".into()),
            _ => {}
        }
        self.raw(text);
    }

    fn raw(&mut self, text: String) {
        self.files.last_mut().unwrap().push(text);
    }

    /// `(id) name`, `(id)` or `name` in an ID space.
    fn name(&mut self, space: usize, name: &'static str) -> String {
        match self.s.names[space] {
            Names::Plain => name.to_string(),
            _ if self.defined[space].contains(name) => format!("({})", self.ids[space][name]),
            _ => {
                let next = self.s.first_id + self.ids[space].len() as u64;
                let id = *self.ids[space].entry(name).or_insert(next);
                self.defined[space].insert(name);
                format!("({id}) {name}")
            }
        }
    }

    fn define_up_front(&mut self) {
        let spaces = [
            (FILE, "fl", &FILES[..]),
            (OBJECT, "ob", &OBJECTS[..]),
            (FUNCTION, "fn", &NAMES[..]),
        ];
        for (space, key, names) in spaces {
            if matches!(self.s.names[space], Names::DefineUpFront)
                && (space != OBJECT || self.m.objects)
            {
                for &n in names {
                    if !self.defined[space].contains(n) {
                        let name = self.name(space, n);
                        self.line(format!("{key}={name}"));
                    }
                }
                // Up-front `fl=`/`ob=`/`fn=` lines change the loader's state.
                (self.obj, self.fn_file, self.line_file) = (None, None, None);
            }
        }
    }

    fn blank(&mut self) -> &'static str {
        ["", "", "", " ", "\t", "  "][self.pick(6) as usize]
    }

    fn sep(&mut self) -> &'static str {
        [" ", " ", " ", "\t", "  "][self.pick(5) as usize]
    }

    /// One subposition column, relative to `last`.
    fn column(&mut self, v: u64, last: u64) -> String {
        let (sign, delta) = if v >= last {
            ('+', v - last)
        } else {
            ('-', last - v)
        };
        match self.pick(5) {
            0 => v.to_string(),
            1 => format!("{v:#x}"),
            2 => format!("{sign}{delta}"),
            3 => format!("{sign}{delta:#x}"),
            _ if v == last => "*".into(),
            _ => format!("{sign}{delta}"),
        }
    }

    fn columns(&self, p: Pos) -> Vec<(u64, u64)> {
        let (a, l) = ((p.addr, self.last.addr), (p.line, self.last.line));
        match self.m.kind {
            Kind::Line => vec![l],
            Kind::InstrLine => vec![a, l],
            Kind::Instr => vec![a],
        }
    }

    /// Subpositions of `p`; `short`: trailing columns equal to the last
    /// position may be left out (allowed on `calls=`/jump targets).
    fn position(&mut self, p: Pos, short: bool) -> String {
        let mut cols = self.columns(p);
        while short
            && cols.len() > 1
            && cols.last().is_some_and(|c| c.0 == c.1)
            && self.pick(2) == 1
        {
            cols.pop();
        }
        let mut out = String::new();
        for (v, last) in cols {
            if !out.is_empty() {
                out.push_str(self.sep());
            }
            out.push_str(&self.column(v, last));
        }
        out
    }

    fn costs(&mut self, costs: &[i64]) -> String {
        let mut n = costs.len();
        while n > 0 && costs[n - 1] == 0 && self.pick(2) == 1 {
            n -= 1;
        }
        let mut out = String::new();
        for &c in &costs[..n] {
            out.push_str(self.sep());
            if c >= 0 && self.pick(4) == 3 {
                out.push_str(&format!("{c:#x}"));
            } else {
                out.push_str(&c.to_string());
            }
        }
        out
    }

    fn row(&mut self, p: Pos, costs: &[i64]) {
        let text = format!(
            "{}{}{}",
            self.position(p, false),
            self.costs(costs),
            self.blank()
        );
        self.line(text);
    }

    fn set_line_file(&mut self, file: &'static str) {
        if self.line_file != Some(file) || self.pick(8) == 7 {
            let key = if self.pick(2) == 0 { "fi" } else { "fe" };
            let name = self.name(FILE, file);
            self.line(format!("{key}={name}"));
            self.line_file = Some(file);
        }
    }

    fn header(&mut self, part: usize, first_in_file: bool, sums: &[i64]) {
        if first_in_file {
            if self.pick(2) == 0 {
                self.line("# callgrind format".into());
            }
            if self.pick(2) == 0 {
                self.line("version: 1".into());
            }
            self.line("creator: roundtrip".into());
        }
        if !first_in_file || self.pick(2) == 1 {
            self.line(format!("part: {}", part + 1));
        }
        let positions = match self.m.kind {
            Kind::Line => ["", "positions: line", "positions:"][self.pick(3) as usize],
            Kind::InstrLine => "positions: instr line",
            Kind::Instr => "positions: instr",
        };
        if !positions.is_empty() {
            self.line(positions.into());
        }
        let events = EVENTS[..self.m.events].join(self.sep());
        let (sep, blank) = (self.sep(), self.blank());
        self.line(format!("events:{sep}{events}{blank}"));
        if self.s.summary {
            self.line(format!("summary:{}", all_columns(sums)));
        }
    }

    fn write(mut self) -> Vec<String> {
        let m = self.m;
        for (i, part) in m.parts.iter().enumerate() {
            let new_file = i == 0 || self.s.files_per_part;
            if new_file {
                self.files.push(Vec::new());
                self.defined = Default::default();
            } else if self.s.redefine_per_part {
                self.defined = Default::default();
            }
            (self.obj, self.fn_file, self.line_file) = (None, None, None);
            self.last = Pos { addr: 0, line: 0 };
            let sums = self.m.expected(i).totals;
            self.header(i, new_file, &sums);
            self.define_up_front();
            for block in part {
                self.block(block);
            }
            if self.s.totals {
                self.line(format!("totals:{}", all_columns(&sums)));
            }
        }
        let end = if self.s.crlf { "\r\n" } else { "\n" };
        let mut out: Vec<String> = self.files.iter().map(|lines| lines.join(end)).collect();
        if self.s.final_newline {
            for text in &mut out {
                text.push_str(end);
            }
        }
        out
    }

    fn block(&mut self, block: &Block) {
        let m = self.m;
        let f = &m.functions[block.func];
        let (file, object) = (FILES[f.file], OBJECTS[f.object]);
        if self.m.objects && (self.obj != Some(object) || self.pick(4) == 3) {
            let name = self.name(OBJECT, object);
            self.line(format!("ob={name}"));
            self.obj = Some(object);
        }
        if self.fn_file != Some(file) || self.pick(4) == 3 {
            let name = self.name(FILE, file);
            self.line(format!("fl={name}"));
            self.fn_file = Some(file);
        }
        let name = self.name(FUNCTION, NAMES[f.name]);
        self.line(format!("fn={name}"));
        self.line_file = Some(file);
        for (k, (inlined, item)) in block.items.iter().enumerate() {
            self.set_line_file(FILES[inlined.unwrap_or(f.file)]);
            // A jump's position row may be left out when it is at the last
            // position and no cost line follows (it would be taken as the row).
            let row_optional = !matches!(block.items.get(k + 1), Some((_, Item::Cost { .. })));
            self.item(item, row_optional);
        }
    }

    fn item(&mut self, item: &Item, row_optional: bool) {
        match item {
            Item::Cost { pos, costs } => {
                self.row(*pos, costs);
                self.last = *pos;
            }
            Item::Call {
                callee,
                count,
                target,
                at,
                costs,
            } => {
                let m = self.m;
                let g = &m.functions[*callee];
                let (file, object) = (FILES[g.file], OBJECTS[g.object]);
                if self.m.objects && (self.obj != Some(object) || self.pick(4) == 3) {
                    let name = self.name(OBJECT, object);
                    self.line(format!("cob={name}"));
                }
                if self.line_file != Some(file) || self.pick(4) == 3 {
                    let key = if self.pick(2) == 0 { "cfi" } else { "cfl" };
                    let name = self.name(FILE, file);
                    self.line(format!("{key}={name}"));
                }
                let name = self.name(FUNCTION, NAMES[g.name]);
                self.line(format!("cfn={name}"));
                let (sep, target, blank) = (self.sep(), self.position(*target, true), self.blank());
                self.line(format!("calls={count}{sep}{target}{blank}"));
                self.row(*at, costs);
            }
            Item::Jump {
                executed,
                taken,
                target,
                at,
            } => {
                let target = self.position(*target, true);
                let blank = self.blank();
                let line = match executed {
                    None => format!("jump={taken} {target}{blank}"),
                    Some(e) if self.pick(2) == 0 => format!("jcnd={taken}/{e} {target}{blank}"),
                    Some(e) => format!("jcnd={e} {taken} {target}{blank}"),
                };
                self.line(line);
                if !(row_optional && *at == self.last && self.pick(2) == 1) {
                    self.row(*at, &[]);
                }
            }
        }
    }
}

/// Every column, for `summary:`/`totals:`.
fn all_columns(sums: &[i64]) -> String {
    sums.iter().map(|c| format!(" {c}")).collect()
}

pub fn write(m: &Model, s: &Style) -> Vec<String> {
    Writer {
        m,
        s,
        tape: 0,
        files: Vec::new(),
        ids: Default::default(),
        defined: Default::default(),
        obj: None,
        fn_file: None,
        line_file: None,
        last: Pos { addr: 0, line: 0 },
    }
    .write()
}
