//! Taking in what the chunks read (`parse::parallel`): the header state
//! they start from, and each chunk, merged in file order so that names are
//! interned and functions created in the order the file first names and
//! uses them, however it is cut.

use super::Loader;
use super::in_order::InOrder;
use crate::parse::context::Context;
use crate::parse::idmap::placeholder;
use crate::parse::parallel::local::{Entry, Space};
use crate::parse::parallel::notes::{Note, Notes};
use crate::parse::parallel::{Bail, Blocks, Chunk, Continued, LazyDetail, Sums};
use crate::parse::{IdMap, LoadError, messages};
use crate::profile::{
    Cost, FileId, FnId, Interner, ObjId, Positions, TOUCH_AHEAD, expected_at_end, reserve_toward,
};
use std::sync::Arc;

impl Loader<'_> {
    /// (subpositions, events) of the part the body belongs to, if the header
    /// left the loader ready for a body of cost lines. Until an `events:`
    /// line in this file (or this appended profile) there are none,
    /// whatever the part before had: every cost line is then an error.
    pub(in crate::parse) fn body_shape(&self) -> Option<(usize, usize)> {
        let ready = !self.call_waits && !self.part_has_data;
        let width = if self.events_declared {
            self.part.width()
        } else {
            0
        };
        ready.then(|| (self.part.positions.count(), width))
    }

    /// Where the body before left off, for a body that goes on without a
    /// `fn=` (`parallel::read_header`).
    pub(in crate::parse) fn continued(&self) -> Continued {
        let p = &*self.profile;
        let triple = |_: &mut (), f: FnId| {
            let g = p.functions[f.index()];
            (g.name, g.file.0, g.object.0)
        };
        Continued {
            at: (self.at).map(&mut (), |_, o| o.0, |_, l| l.0, triple, |_, n| n),
            declared: self.declared.map(|(name, file, obj)| (name, file.0, obj.0)),
        }
    }

    pub(in crate::parse) fn part_positions(&self) -> Positions {
        self.part.positions
    }

    /// The name-compression tables (files, objects, functions) of the
    /// section, as they will be at its end.
    pub(in crate::parse) fn section_names(&self) -> super::SectionNames {
        self.section_names.clone()
    }

    pub(in crate::parse) fn set_line_count(&mut self, lines: usize) {
        self.line_no = lines;
    }

    pub(in crate::parse) fn line_count(&self) -> usize {
        self.line_no
    }

    /// Gives the part its detail, read again from the file with the
    /// section's name tables, which keep the names renamed IDs had where
    /// (`IdMap::rename`).
    pub(in crate::parse) fn set_lazy_detail(&mut self, detail: LazyDetail) {
        self.part.detail.set_source(Arc::new(detail));
    }

    /// Moves the name tables out for the parallel merge (`Names`); the
    /// rest of the loader takes in what they resolve meanwhile.
    pub(in crate::parse) fn take_names(&mut self) -> Names {
        let p = &mut *self.profile;
        Names {
            interners: [
                std::mem::take(&mut p.files),
                std::mem::take(&mut p.objects),
                std::mem::take(&mut p.fn_names),
            ],
            tables: [
                std::mem::take(&mut self.files),
                std::mem::take(&mut self.objects),
                std::mem::take(&mut self.fns),
            ],
            obj: self.at.obj,
            fn_file: self.at.fn_file,
        }
    }

    /// Puts back what `take_names` took.
    pub(in crate::parse) fn put_names(&mut self, names: Names) {
        let p = &mut *self.profile;
        let Names {
            interners: [files, objects, fn_names],
            tables: [file_ids, obj_ids, fn_ids],
            ..
        } = names;
        (p.files, p.objects, p.fn_names) = (files, objects, fn_names);
        (self.files, self.objects, self.fns) = (file_ids, obj_ids, fn_ids);
    }

    /// Adds a chunk whose names `Names::resolve` has given their ids; its
    /// first line is line `first_line` of the file. Appends its blocks to
    /// `blocks`.
    /// `rescan`, given for a body read as one chunk, reads it again into
    /// the profile's rows where the chunk's sums may not be exact
    /// (`in_order`).
    pub(in crate::parse) fn merge_resolved(
        &mut self,
        r: Resolved,
        (first_line, blocks): (usize, &mut Blocks),
        rescan: Option<impl FnOnce(InOrder<'_, '_>) -> Rescanned>,
    ) -> Result<Result<(), Bail>, LoadError> {
        // Each piece of the chunk is dropped once used: the chunks and the
        // part being built are in memory together.
        let p = &mut *self.profile;
        let expected = |now| expected_at_end(now, r.share);
        let more = r.functions.len();
        p.reserve_functions(
            more,
            r.names,
            [expected(p.functions.len() + more), expected(r.names)],
        );
        let fns: Vec<_> = (r.functions.iter())
            .map(|&(name, file, obj)| p.function_id(name, file, obj))
            .collect();
        drop(r.functions);
        let Sums {
            rows,
            row_order,
            edges,
            edge_costs,
            blocks: local_blocks,
            has_data,
            careful,
            ..
        } = r.sums;
        let mut notes = r.notes;
        // Looked for only where it matters.
        let duplicates = || has_duplicates(&fns);
        // A careful chunk's sums are in the file's order if its functions
        // are all others (`Sums::negative`): one of two rows is not.
        if careful && duplicates() {
            return Ok(Err(Bail::SUM_BEYOND));
        }
        match rescan.filter(|_| duplicates()) {
            Some(rescan) => {
                // Added in the file's order, a saturated sum said where it is.
                let again = match rescan(InOrder::new(self, &fns))? {
                    Ok(again) => again,
                    Err(bail) => return Ok(Err(bail)),
                };
                let saturated = |n: &Note| n.message == messages::SUM_SATURATED;
                notes.kept.retain(|n| !saturated(n));
                notes.kept.extend(again.kept.into_iter().filter(saturated));
                notes.kept.sort_by_key(|n| n.line);
            }
            None if !self.add_sums(
                &fns,
                (rows, row_order),
                (edges, edge_costs),
                (careful, expected),
            ) =>
            {
                return Ok(Err(Bail::SUM_BEYOND));
            }
            None => {}
        }
        let blocks_expected = expected(blocks.len() + local_blocks.len());
        blocks.append(local_blocks, |f| fns[f as usize], blocks_expected);
        // A trailer line is applied where nothing waits for its first use
        // (an unknown `key=` uses it, and the chunk has made it already).
        self.declared = None;
        self.part_has_data |= has_data;
        // What the chunk's lines make the loader say, in their order; a
        // note at a trailer's line (a `calls=` it ends) comes first.
        if let Some((line, text)) = notes.stray.take() {
            self.stray(first_line + line - 1, text);
        }
        let mut kept = notes.kept.into_iter().peekable();
        for (line, text) in &r.trailer {
            while let Some(note) = kept.next_if(|n| n.line <= *line) {
                self.say(first_line, note, r.lines, r.section)?;
            }
            self.line_no = first_line + line - 2;
            self.line(text)?;
        }
        for note in kept {
            self.say(first_line, note, r.lines, r.section)?;
        }
        // Where the chunk left off, its functions now the profile's.
        let func = |fns: &mut Vec<FnId>, f: u32| fns[f as usize];
        self.at = (r.end).map(&mut { fns }, |_, o| o, |_, l| l, func, |_, n| n);
        self.declared = r.declared;
        if r.waits_at_end {
            // Said if the file ends there (`end_file`).
            self.call_waits = true;
        }
        let p = &mut *self.profile;
        p.dropped_diagnostics += notes.dropped;
        p.skipped_lines += notes.dropped_errors;
        Ok(Ok(()))
    }

    /// Adds a chunk's self costs (`rows`, in `row_order`) and calls to the
    /// profile's, its functions being `fns`; false if a sum saturates, or,
    /// for a `careful` chunk, one it adds to is not within care.
    fn add_sums(
        &mut self,
        fns: &[FnId],
        (rows, row_order): (Vec<Cost>, Vec<u32>),
        (edges, edge_costs): (Vec<(u32, u32, u64)>, Vec<Cost>),
        (careful, expected): (bool, impl Fn(usize) -> usize),
    ) -> bool {
        let w = self.part.width();
        let rows_expected = expected(self.part.self_fns.len() + row_order.len());
        reserve_toward(&mut self.part.self_fns, row_order.len(), rows_expected);
        let self_costs = std::sync::Arc::make_mut(&mut self.part.self_costs);
        reserve_toward(self_costs, row_order.len() * w, rows_expected * w);
        let functions = expected(self.profile.functions.len());
        reserve_toward(&mut self.row_of, fns.len(), functions);
        let mut self_rows = self.self_rows();
        self_rows.careful = careful;
        for &f in &row_order {
            let f = f as usize;
            if self_rows.add(fns[f], &rows[f * w..(f + 1) * w]) {
                return false;
            }
        }
        drop(rows);
        for (e, &(caller, callee, count)) in edges.iter().enumerate() {
            let costs = &edge_costs[e * w..(e + 1) * w];
            let edge = (fns[caller as usize], fns[callee as usize], count);
            if self.add_edge(edge, costs, careful) {
                return false;
            }
        }
        true
    }

    /// Says a chunk's `note` at its line (the chunk's first is
    /// `first_line`, its last `lines` on); gives up on the file as the
    /// loader would after that line. A note at the line after the chunk,
    /// where that line begins a section, waits for the loader to read it
    /// (an `events:` line there makes the file a profile).
    fn say(
        &mut self,
        first_line: usize,
        note: Note,
        lines: usize,
        section: bool,
    ) -> Result<(), LoadError> {
        let header_next = section && note.line > lines;
        self.line_no = first_line + note.line - 1;
        match note.error {
            // Before `events:`, the end of a file that is no profile.
            true if note.message == messages::overlong_line() => {
                self.line_no -= 1;
                return self.overlong_line();
            }
            true => self.error(note.message),
            // Said once in a file, however many chunks saturate.
            false if note.message == messages::SUM_SATURATED => self.sum_saturated(),
            false => self.warn(note.message),
        }
        match header_next {
            true => Ok(()),
            false => self.still_a_profile(),
        }
    }
}

/// What a body read again (`parallel::rescan`) notes.
pub(in crate::parse) type Rescanned = Result<Result<Notes, Bail>, LoadError>;

/// Whether two of a chunk's functions are one of the profile's.
fn has_duplicates(fns: &[FnId]) -> bool {
    let mut sorted = fns.to_vec();
    sorted.sort_unstable();
    sorted.windows(2).any(|w| w[0] == w[1])
}

/// The name tables of a profile being loaded in parallel, apart from the
/// rest of the loader, so that one thread can give the names of a chunk
/// their ids while another adds the chunk before it to the profile: for
/// millions of functions that are each named once, interning is most of
/// the merge.
pub(in crate::parse) struct Names {
    /// Files, objects, function names.
    interners: [Interner; 3],
    /// Their name-compression tables, in the same order.
    tables: [IdMap; 3],
    /// The object and function file current at the next chunk's start.
    obj: ObjId,
    fn_file: FileId,
}

/// A chunk whose names have the profile's ids.
pub(in crate::parse) struct Resolved {
    /// (name, file, object) of each of the chunk's functions.
    functions: Vec<(u32, FileId, ObjId)>,
    /// Function names interned by the end of the chunk.
    names: usize,
    /// The part of the file read up to the chunk's end (0 to 1).
    share: f64,
    /// The chunk's lines.
    pub(in crate::parse) lines: usize,
    sums: Sums,
    trailer: Vec<(usize, Vec<u8>)>,
    notes: Notes,
    /// Where the chunk leaves off: the context (its functions still the
    /// chunk's), and a `fn=` no line used yet.
    end: Context<ObjId, FileId, u32, u32>,
    declared: Option<(u32, FileId, ObjId)>,
    /// A `calls=` line waits for its cost line at the file's end.
    waits_at_end: bool,
    /// The chunk ends before a line that begins another section.
    section: bool,
}

impl Names {
    /// Gives chunk `c`'s names their ids. `share` is the part of the file
    /// read up to the chunk's end (0 to 1), to guess how many names are to
    /// come.
    pub(in crate::parse) fn resolve(&mut self, c: Chunk, share: f64) -> Result<Resolved, Bail> {
        let Chunk {
            tables,
            sums,
            lines,
            end: _,
            section,
            trailer,
            notes,
            left: (end, declared),
            waits_at_end,
        } = c;
        let [files, objects, fn_names] = &mut self.interners;
        let [file_ids, obj_ids, fn_ids] = &mut self.tables;
        let mut said = Vec::new();
        let mut ids = |space: &Space, inherited, table: &mut IdMap, interner: &mut Interner| {
            resolve(space, (inherited, table, interner), share, &mut said)
        };
        let objs = ids(&tables.objects, self.obj.0, obj_ids, objects)?;
        let fls = ids(&tables.files, self.fn_file.0, file_ids, files)?;
        let names = ids(&tables.names, u32::MAX, fn_ids, fn_names)?;
        // In line order, after what the chunk says at the same line (a call
        // the line ends comes first).
        let mut notes = notes;
        if !said.is_empty() {
            notes.kept.append(&mut said);
            notes.kept.sort_by_key(|note| note.line);
        }
        let functions = (tables.functions.iter())
            .map(|&(n, f, o)| {
                let file = FileId(fls[f as usize]);
                (names[n as usize], file, ObjId(objs[o as usize]))
            })
            .collect();
        let end = end.map(
            &mut (),
            |_, o| ObjId(objs[o as usize]),
            |_, l| FileId(fls[l as usize]),
            |_, f| f,
            |_, n| names[n as usize],
        );
        let declared = declared.map(|(n, f, o)| {
            let at = |ids: &[u32], i: u32| ids[i as usize];
            (at(&names, n), FileId(at(&fls, f)), ObjId(at(&objs, o)))
        });
        (self.obj, self.fn_file) = (end.obj, end.fn_file);
        Ok(Resolved {
            functions,
            names: fn_names.len(),
            share,
            lines,
            sums,
            trailer,
            notes,
            end,
            declared,
            waits_at_end,
            section: section.is_some(),
        })
    }
}

/// Global ids of a chunk's local names, in the order the chunk first saw
/// them (so new names are interned in file order). `inherited` stands for
/// entry `Inherited`. An ID used before any definition is named
/// `idmap::placeholder`, said at its line in `said`.
fn resolve(
    space: &Space,
    (inherited, table, interner): (u32, &mut IdMap, &mut Interner),
    share: f64,
    said: &mut Vec<Note>,
) -> Result<Vec<u32>, Bail> {
    // As many names in the rest of the file as in what was read, at most.
    let expected = expected_at_end(interner.len() + space.len(), share);
    interner.reserve(space.len(), space.text_len(), expected);
    (0..space.len())
        .map(|i| {
            if let Some(ahead) = space.hash(i + TOUCH_AHEAD) {
                interner.touch(ahead);
            }
            match space.entry(i) {
                Entry::Inherited => Ok(inherited),
                Entry::Global(id) => Ok(id),
                Entry::Literal(name, hash) => Ok(interner.intern_hashed(name, hash)),
                Entry::Defined(id, name, hash) => {
                    let interned = interner.intern_hashed(name, hash);
                    table.rename(id, interned, space.first_at(i).offset);
                    Ok(interned)
                }
                Entry::External(id) => Ok(table.get(id).unwrap_or_else(|| {
                    let named = interner.intern(&placeholder(id));
                    table.define(id, named);
                    let line = space.first_at(i).line;
                    let message = messages::used_before_defined(id);
                    said.push(Note::warning(line, message));
                    named
                })),
            }
        })
        .collect()
}
