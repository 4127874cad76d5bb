//! Where each line of a profile's body is: the object, files and function
//! current there, the names a `calls=` or jump line will use, and the
//! association waiting for the line that completes it. The scanner keeps
//! this with a chunk's local ids, the loader with the profile's where a
//! chunk leaves off; what each line changes is decided here, once.

use crate::profile::{FileId, FnId, Jump, Positions};

/// An association line (`calls=`, `jump=`, `jcnd=`) waiting for the line
/// after it: a call's cost line, a jump's position row. `F` is a function
/// id, `L` a file id.
#[derive(Clone, Copy, Debug)]
pub enum Pending<F, L> {
    None,
    Call {
        callee: F,
        count: u64,
        target: [u64; 3],
    },
    Jump {
        target_func: F,
        target_file: L,
        target: [u64; 3],
        taken: u64,
        executed: Option<u64>,
    },
    /// A `calls=` line that could not be used: its cost line must not
    /// become self cost. (The scanner gives up instead.)
    SkipNext,
    /// A jump that could not be used: its position row (a row without
    /// costs) is skipped; a row with costs is an ordinary cost line.
    SkipJumpRow,
}

/// A jump made from position `at` of `func`, whose lines there are in
/// `file`, to `target`.
#[derive(Clone, Copy, Debug)]
pub struct JumpMade<F, L> {
    pub func: F,
    pub file: L,
    pub at: [u64; 3],
    pub target_func: F,
    pub target_file: L,
    pub target: [u64; 3],
    pub taken: u64,
    pub executed: Option<u64>,
}

impl JumpMade<FnId, FileId> {
    /// The jump as the profile keeps it, in a part of `positions`.
    pub fn record(self, positions: Positions) -> Jump {
        let (addr, line) = positions.addr_line(self.at);
        let (target_addr, target_line) = positions.addr_line(self.target);
        Jump {
            func: self.func,
            file: self.file,
            line,
            addr,
            target_func: self.target_func,
            target_file: self.target_file,
            target_line,
            target_addr,
            taken: self.taken,
            executed: self.executed,
        }
    }
}

/// The object (`O`), files (`L`), function (`F`) and function name (`N`)
/// ids current at a line.
#[derive(Clone, Copy, Debug)]
pub struct Context<O, L, F, N> {
    pub obj: O,
    /// The file of the current function (`fl=`).
    pub fn_file: L,
    /// The file of the lines that follow (`fi=`/`fe=` move it to inlined
    /// code; `fn=` and `fl=` bring it back).
    pub line_file: L,
    pub func: Option<F>,
    /// The callee of the next `calls=` (`cfn=`).
    pub callee: Option<F>,
    call_obj: Option<O>,
    call_file: Option<L>,
    jump_file: Option<L>,
    jump_fn: Option<N>,
}

impl<O: Copy + Default, L: Copy + Default, F: Copy, N: Copy> Default for Context<O, L, F, N> {
    fn default() -> Self {
        Context {
            obj: O::default(),
            fn_file: L::default(),
            line_file: L::default(),
            func: None,
            callee: None,
            call_obj: None,
            call_file: None,
            jump_file: None,
            jump_fn: None,
        }
    }
}

impl<O: Copy, L: Copy, F: Copy, N: Copy> Context<O, L, F, N> {
    /// The same context in other ids: each object, file, function and
    /// name mapped by its function, which all get `state`.
    pub fn map<S, O2, L2, F2, N2>(
        self,
        state: &mut S,
        obj: impl Fn(&mut S, O) -> O2,
        file: impl Fn(&mut S, L) -> L2,
        func: impl Fn(&mut S, F) -> F2,
        name: impl Fn(&mut S, N) -> N2,
    ) -> Context<O2, L2, F2, N2> {
        Context {
            obj: obj(state, self.obj),
            fn_file: file(state, self.fn_file),
            line_file: file(state, self.line_file),
            func: self.func.map(|f| func(state, f)),
            callee: self.callee.map(|f| func(state, f)),
            call_obj: self.call_obj.map(|o| obj(state, o)),
            call_file: self.call_file.map(|l| file(state, l)),
            jump_file: self.jump_file.map(|l| file(state, l)),
            jump_fn: self.jump_fn.map(|n| name(state, n)),
        }
    }

    /// `fl=`: the next function's file, and the file of the lines after it.
    pub fn function_file(&mut self, file: L) {
        self.fn_file = file;
        self.line_file = file;
    }

    /// `fn=`: its lines start in its own file (KCachegrind does the same),
    /// and nothing said for a call or jump of the function before carries
    /// over.
    pub fn new_function(&mut self) {
        self.line_file = self.fn_file;
        self.callee = None;
        self.call_obj = None;
        self.call_file = None;
        self.jump_file = None;
        self.jump_fn = None;
    }

    /// `cob=`, `cfi=`/`cfl=`, `jfi=`, `jfn=`.
    pub fn call_object(&mut self, obj: Option<O>) {
        self.call_obj = obj;
    }
    pub fn call_file(&mut self, file: Option<L>) {
        self.call_file = file;
    }
    pub fn jump_file(&mut self, file: Option<L>) {
        self.jump_file = file;
    }
    pub fn jump_function(&mut self, name: Option<N>) {
        self.jump_fn = name;
    }

    /// `cfn=`: the callee's file and object, each said for this callee
    /// alone. Without `cfi=` the callee is in the current (possibly
    /// inlined) file, which is what Valgrind's writer leaves out; without
    /// `cob=`, in the current object.
    pub fn callee_place(&mut self) -> (L, O) {
        (
            self.call_file.take().unwrap_or(self.line_file),
            self.call_obj.take().unwrap_or(self.obj),
        )
    }

    /// A jump of `func` to subpositions `target`, taken `taken` times (of
    /// `executed`, for `jcnd=`), waiting for its position row. Its target
    /// is in the file of `jfi=`, else the current line's, and in the
    /// function `jfn=` names (made by `function(name, file, object)`, in
    /// the current object), else `func`; both are said for this jump alone.
    pub fn jump(
        &mut self,
        func: F,
        (target, taken, executed): ([u64; 3], u64, Option<u64>),
        function: impl FnOnce(N, L, O) -> F,
    ) -> Pending<F, L> {
        let target_file = self.jump_file.take().unwrap_or(self.line_file);
        let target_func = match self.jump_fn.take() {
            Some(name) => function(name, target_file, self.obj),
            None => func,
        };
        Pending::Jump {
            target_func,
            target_file,
            target,
            taken,
            executed,
        }
    }

    /// The jump `pending` holds, if any, made from position `at` of the
    /// current function (whose row it was waiting for, or the last position
    /// where that row never comes); `pending` is then `None`.
    pub fn take_jump(&self, pending: &mut Pending<F, L>, at: [u64; 3]) -> Option<JumpMade<F, L>> {
        let Pending::Jump {
            target_func,
            target_file,
            target,
            taken,
            executed,
        } = *pending
        else {
            return None;
        };
        *pending = Pending::None;
        Some(JumpMade {
            func: self.func?,
            file: self.line_file,
            at,
            target_func,
            target_file,
            target,
            taken,
            executed,
        })
    }
}
