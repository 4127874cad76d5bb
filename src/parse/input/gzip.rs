//! Gzip members one after another (as `cat a.gz b.gz` and `pigz` make),
//! read by flate2, which decodes a member header and all; anything else
//! after a member is an error, not a header to misread.

use super::Compression;
use super::fault::{self, Fault};
use flate2::bufread::GzDecoder;
use std::io::{self, BufRead, Read};

pub struct GzipMembers<R: BufRead> {
    member: Option<GzDecoder<R>>,
}

impl<R: BufRead> GzipMembers<R> {
    pub fn new(inner: R) -> Self {
        GzipMembers {
            member: Some(GzDecoder::new(inner)),
        }
    }
}

impl<R: BufRead> Read for GzipMembers<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let gzip = Compression::Gzip;
        loop {
            let Some(member) = self.member.as_mut() else {
                return Ok(0);
            };
            let n = member.read(buf).map_err(|e| fault::of_reader(gzip, e))?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            let Some(mut inner) = self.member.take().map(GzDecoder::into_inner) else {
                return Ok(0);
            };
            let rest = inner.fill_buf()?;
            if rest.is_empty() {
                return Ok(0);
            }
            if !gzip.may_start(rest) {
                return Err(fault::error(gzip, Fault::After));
            }
            self.member = Some(GzDecoder::new(inner));
        }
    }
}
