//! Taking in what the parallel path read (`parse::parallel`): the header
//! state it starts from, and each chunk, merged in file order so that names
//! are interned and functions created in the order the sequential loader
//! would have met them.

use super::{Loader, Pending};
use crate::parse::IdMap;
use crate::parse::parallel::local::{Entry, Space};
use crate::parse::parallel::{Bail, Blocks, Chunk, LazyDetail, Sums};
use crate::profile::{FileId, Interner, ObjId, Positions};
use std::sync::Arc;

impl Loader<'_> {
    /// (subpositions, events) of the part the body belongs to, if the header
    /// left the loader ready for a body of cost lines.
    pub(in crate::parse) fn body_shape(&self) -> Option<(usize, usize)> {
        let ready = self.events_declared
            && matches!(self.pending, Pending::None)
            && !self.part_has_data
            && self.part.width() > 0;
        ready.then(|| (self.part.positions.count(), self.part.width()))
    }

    pub(in crate::parse) fn part_positions(&self) -> Positions {
        self.part.positions
    }

    /// The name-compression tables (files, objects, functions) as they stand.
    pub(in crate::parse) fn name_tables(&self) -> [&IdMap; 3] {
        [&self.files, &self.objects, &self.fns]
    }

    pub(in crate::parse) fn set_line_count(&mut self, lines: usize) {
        self.line_no = lines;
    }

    pub(in crate::parse) fn set_lazy_detail(&mut self, detail: LazyDetail) {
        self.part.detail.set_source(Arc::new(detail));
    }

    /// Adds chunk `c`, whose first line is line `first_line` of the file, and
    /// appends its blocks to `blocks`. `share` is the part of the file read
    /// up to the chunk's end (0 to 1), to guess how many names are to come.
    pub(in crate::parse) fn merge_chunk(
        &mut self,
        c: Chunk,
        first_line: usize,
        blocks: &mut Blocks,
        share: f64,
    ) -> Result<(), Bail> {
        // Each piece of the chunk is dropped once used: the chunks and the
        // part being built are in memory together.
        let Chunk {
            tables,
            sums,
            lines: _,
            end: _,
            trailer,
            end_obj,
            end_fn_file,
        } = c;
        let p = &mut *self.profile;
        let objs = resolve(
            &tables.objects,
            self.obj.0,
            &mut self.objects,
            &mut p.objects,
            share,
        )?;
        let files = resolve(
            &tables.files,
            self.fn_file.0,
            &mut self.files,
            &mut p.files,
            share,
        )?;
        let names = resolve(
            &tables.names,
            u32::MAX,
            &mut self.fns,
            &mut p.fn_names,
            share,
        )?;
        p.reserve_functions(tables.functions.len());
        let fns: Vec<_> = tables
            .functions
            .iter()
            .map(|&(n, f, o)| {
                p.function_id(
                    names[n as usize],
                    FileId(files[f as usize]),
                    ObjId(objs[o as usize]),
                )
            })
            .collect();
        drop(tables);
        let Sums {
            rows,
            row_order,
            edges,
            edge_costs,
            blocks: local_blocks,
            has_data,
            ..
        } = sums;
        let w = self.part.width();
        self.part.self_fns.reserve(row_order.len());
        std::sync::Arc::make_mut(&mut self.part.self_costs).reserve(row_order.len() * w);
        for &f in &row_order {
            let f = f as usize;
            if self.add_self(fns[f], &rows[f * w..(f + 1) * w]) {
                return Err(Bail("cost beyond 64 bits"));
            }
        }
        drop(rows);
        for (e, &(caller, callee, count)) in edges.iter().enumerate() {
            let costs = &edge_costs[e * w..(e + 1) * w];
            if self.add_edge(fns[caller as usize], fns[callee as usize], count, costs) {
                return Err(Bail("cost beyond 64 bits"));
            }
        }
        drop((edges, edge_costs));
        blocks.append(local_blocks, |f| fns[f as usize]);
        self.obj = ObjId(objs[end_obj as usize]);
        self.fn_file = FileId(files[end_fn_file as usize]);
        self.line_file = self.fn_file;
        self.part_has_data |= has_data;
        for (line, text) in &trailer {
            self.line_no = first_line + line - 2;
            if self.line_with_fields(text, None).is_err() {
                return Err(Bail("trailer line"));
            }
        }
        Ok(())
    }
}

/// Global ids of a chunk's local names, in the order the chunk first saw
/// them (so new names are interned in file order). `inherited` stands for
/// entry `Inherited`.
fn resolve(
    space: &Space,
    inherited: u32,
    table: &mut IdMap,
    interner: &mut Interner,
    share: f64,
) -> Result<Vec<u32>, Bail> {
    // As many names in the rest of the file as in what was read, at most.
    let expected = ((interner.len() + space.len()) as f64 / share.max(1e-3)) as usize;
    interner.reserve(space.len(), space.text_len(), expected);
    space
        .entries()
        .map(|entry| match entry {
            Entry::Inherited => Ok(inherited),
            Entry::Literal(name) => Ok(interner.intern_bytes(name)),
            Entry::Defined(id, name) => {
                let interned = interner.intern_bytes(name);
                match table.get(id) {
                    Some(other) if other != interned => Err(Bail("name ID redefined")),
                    _ => {
                        table.define(id, interned);
                        Ok(interned)
                    }
                }
            }
            Entry::External(id) => table.get(id).ok_or(Bail("name ID used before defined")),
        })
        .collect()
}
