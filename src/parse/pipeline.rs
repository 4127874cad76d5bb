//! Loading on two threads: a reader thread reads, splits lines and
//! tokenizes cost lines (`fields`) into batches; the loading thread applies
//! them in order (`Loader::line_with_fields`). The meaning of every line
//! stays in the loader; the reader only does the work that needs no state.

use super::fields::{Field, tokenize};
use super::input::{Line, LineReader};
use std::io::{self, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

/// Lines and bytes per batch: large enough to make the hand-over cheap,
/// small enough that progress is reported often and little is held in flight
/// (memory must stay within the size of the file).
const BATCH_LINES: usize = 4 * 1024;
const BATCH_BYTES: usize = 1 << 18;
/// Batches waiting between the threads.
const QUEUE: usize = 2;

/// Field count meaning "not tokenized: read the line in full".
const RAW: u8 = u8::MAX;

pub enum Entry {
    Text {
        start: u32,
        end: u32,
        first_field: u32,
        fields: u8,
    },
    TooLong,
}

/// A run of lines with their bytes and the fields of their cost lines.
#[derive(Default)]
pub struct Batch {
    pub bytes: Vec<u8>,
    pub entries: Vec<Entry>,
    pub fields: Vec<Field>,
    /// Bytes read from the stream so far.
    pub bytes_read: u64,
    /// Set on the last batch: whether the stream ended in the middle of a line.
    pub end: Option<bool>,
}

impl Batch {
    /// The text and fields of entry `i`.
    pub fn line(&self, e: &Entry) -> Option<(&[u8], Option<&[Field]>)> {
        match *e {
            Entry::Text {
                start,
                end,
                first_field,
                fields,
            } => {
                let text = &self.bytes[start as usize..end as usize];
                let fields = (fields != RAW).then(|| {
                    &self.fields[first_field as usize..first_field as usize + fields as usize]
                });
                Some((text, fields))
            }
            Entry::TooLong => None,
        }
    }
}

/// Starts the reader thread on `reader`; batches arrive on the receiver. Set
/// `cancel` when no more are wanted: the reader then stops between chunks.
pub fn spawn<'scope, R: Read + Send + 'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    reader: R,
    cancel: Arc<AtomicBool>,
) -> Receiver<io::Result<Batch>> {
    let (tx, rx) = sync_channel(QUEUE);
    scope.spawn(move || produce(reader, &tx, &cancel));
    rx
}

fn produce<R: Read>(reader: R, tx: &SyncSender<io::Result<Batch>>, cancel: &AtomicBool) {
    let mut lines = LineReader::new(reader);
    lines.cancel = Some(cancel);
    let mut batch = Batch::default();
    loop {
        if cancel.load(Ordering::Relaxed) {
            return;
        }
        let line = match lines.next_line() {
            Ok(line) => line,
            Err(e) => {
                let _ = tx.send(Err(e));
                return;
            }
        };
        let done = match line {
            None => true,
            Some(Line::TooLong) => {
                batch.entries.push(Entry::TooLong);
                false
            }
            Some(Line::Text(text)) => {
                let start = batch.bytes.len() as u32;
                batch.bytes.extend_from_slice(text);
                let first_field = batch.fields.len() as u32;
                let line = text.strip_suffix(b"\r").unwrap_or(text);
                let is_cost = matches!(line.first(), Some(b'0'..=b'9' | b'+' | b'-' | b'*'));
                let fields = if is_cost && tokenize(line, &mut batch.fields) {
                    (batch.fields.len() as u32 - first_field) as u8
                } else {
                    RAW
                };
                batch.entries.push(Entry::Text {
                    start,
                    end: batch.bytes.len() as u32,
                    first_field,
                    fields,
                });
                false
            }
        };
        let too_long = matches!(batch.entries.last(), Some(Entry::TooLong));
        if done
            || too_long
            || batch.entries.len() >= BATCH_LINES
            || batch.bytes.len() >= BATCH_BYTES
        {
            batch.bytes_read = lines.bytes_read;
            if done {
                batch.end = Some(lines.ended_mid_line);
            }
            let full = std::mem::take(&mut batch);
            if tx.send(Ok(full)).is_err() || done {
                return;
            }
        }
    }
}
