//! The `key=value` lines of a chunk that set where the next lines are
//! (`fn=`, `fl=`, `cfn=`, ...), as `Loader::spec` reads them: a name that
//! cannot be read is said at its line and sets nothing.

use super::{Scanner, Sink, UNKNOWN_KEY};
use crate::parse::idmap::UNREADABLE_FUNCTION;
use crate::parse::parallel::Bail;
use crate::parse::parallel::local::At;

/// Which name space of `Tables` a name is in.
#[derive(Clone, Copy)]
enum Space {
    Names,
    Files,
    Objects,
}

impl<S: Sink> Scanner<S> {
    pub(super) fn spec(&mut self, offset: u64, key: &[u8], value: &[u8]) -> Result<(), Bail> {
        if !matches!(key, b"fn" | b"fl" | b"fi" | b"fe" | b"ob") {
            self.use_declared();
        }
        let at = At {
            offset,
            line: self.lines,
        };
        let (names, files, objects) = (Space::Names, Space::Files, Space::Objects);
        match key {
            b"calls" => self.calls(value)?,
            b"cfn" => {
                if let Some(name) = self.name(names, value, at)? {
                    let (file, obj) = self.at.callee_place();
                    self.at.callee = Some(self.tables.function(name, file, obj));
                }
            }
            b"cfi" | b"cfl" => {
                let file = self.name(files, value, at)?;
                self.at.call_file(file);
            }
            b"jump" | b"jcnd" => self.jump(key == b"jcnd", value)?,
            b"fi" | b"fe" => {
                if let Some(file) = self.name(files, value, at)? {
                    self.at.line_file = file;
                }
            }
            b"fn" => {
                // An unreadable name still starts a function, named `???`.
                let name = match self.name(names, value, at)? {
                    Some(name) => name,
                    None => (self.name(names, UNREADABLE_FUNCTION.as_bytes(), at)?)
                        .ok_or(Bail("unreadable function name"))?,
                };
                self.declared = Some((name, self.at.fn_file, self.at.obj, offset));
                self.at.func = None;
                self.at.new_function();
            }
            b"fl" => {
                if let Some(file) = self.name(files, value, at)? {
                    self.at.function_file(file);
                }
            }
            b"ob" => {
                if let Some(obj) = self.name(objects, value, at)? {
                    self.at.obj = obj;
                }
            }
            b"cob" => {
                let obj = self.name(objects, value, at)?;
                self.at.call_object(obj);
            }
            b"jfi" => {
                let file = self.name(files, value, at)?;
                self.at.jump_file(file);
            }
            b"jfn" => {
                let name = self.name(names, value, at)?;
                self.at.jump_function(name);
            }
            _ => return Err(UNKNOWN_KEY),
        }
        Ok(())
    }

    /// The local index of the name `value` in `space`; `None` where it
    /// cannot be read, which is said at its line, as the loader says it.
    fn name(&mut self, space: Space, value: &[u8], at: At) -> Result<Option<u32>, Bail> {
        let t = &mut self.tables;
        let space = match space {
            Space::Names => &mut t.names,
            Space::Files => &mut t.files,
            Space::Objects => &mut t.objects,
        };
        Ok(match space.resolve(value, at)? {
            Ok(i) => Some(i),
            Err(message) => {
                self.notes.error(self.lines, message.into());
                None
            }
        })
    }
}
