//! Kestrel's compiled book format (`.kbk`), little-endian:
//!
//! ```text
//! magic "KESTBOOK" | version u32 = 1 | entry count u32 | name count u32
//! entries: key u64, weight u32, move u16 (Polyglot encoding), reserved u16   (sorted)
//! names:   key u64, eco length u8, eco bytes, name length u16, name bytes (UTF-8)
//! checksum u64: FNV-1a of every byte before it
//! ```
//! The checksum lets a truncated or damaged file be rejected with a clear message.

use super::{Book, BookEntry, BookError, BookFormat, OpeningName};
use std::collections::HashMap;

/// The 8 bytes a `.kbk` file starts with; a file without them is read as Polyglot.
pub const KBK_MAGIC: &[u8; 8] = b"KESTBOOK";
const VERSION: u32 = 1;
const HEADER: usize = 20;
const ENTRY: usize = 16;

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Serialises entries and names (deterministically: entries and names sorted by key).
pub fn encode_kbk(entries: &[BookEntry], names: &HashMap<u64, OpeningName>) -> Vec<u8> {
    let mut sorted = entries.to_vec();
    sorted.sort_unstable();
    let mut named: Vec<(&u64, &OpeningName)> = names.iter().collect();
    named.sort_by_key(|(k, _)| **k);
    let mut out = Vec::with_capacity(HEADER + sorted.len() * ENTRY + named.len() * 40 + 8);
    out.extend_from_slice(KBK_MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(sorted.len() as u32).to_le_bytes());
    out.extend_from_slice(&(named.len() as u32).to_le_bytes());
    for e in &sorted {
        out.extend_from_slice(&e.key.to_le_bytes());
        out.extend_from_slice(&e.weight.to_le_bytes());
        out.extend_from_slice(&e.mv.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
    }
    for (key, n) in named {
        let eco = &n.eco.as_bytes()[..n.eco.len().min(u8::MAX as usize)];
        let name = truncate_utf8(&n.name, u16::MAX as usize);
        out.extend_from_slice(&key.to_le_bytes());
        out.push(eco.len() as u8);
        out.extend_from_slice(eco);
        out.extend_from_slice(&(name.len() as u16).to_le_bytes());
        out.extend_from_slice(name.as_bytes());
    }
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

fn truncate_utf8(s: &str, max: usize) -> &str {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// A bounds-checked reader over the file body.
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], BookError> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| BookError::corrupt("kbk book is truncated"))?;
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, BookError> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, BookError> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().expect("2")))
    }
    fn u32(&mut self) -> Result<u32, BookError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4")))
    }
    fn u64(&mut self) -> Result<u64, BookError> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8")))
    }
}

pub(crate) fn decode_kbk(bytes: &[u8]) -> Result<Book, BookError> {
    if bytes.len() < HEADER + 8 {
        return Err(BookError::corrupt("kbk book is truncated"));
    }
    let (body, tail) = bytes.split_at(bytes.len() - 8);
    let stored = u64::from_le_bytes(tail.try_into().expect("8"));
    if fnv1a(body) != stored {
        return Err(BookError::corrupt(
            "kbk book is damaged (checksum mismatch); rebuild it with `kestrel book build`",
        ));
    }
    let mut c = Cursor {
        bytes: body,
        pos: KBK_MAGIC.len(),
    };
    let version = c.u32()?;
    if version != VERSION {
        return Err(BookError::corrupt(format!(
            "kbk version {version} is not supported (expected {VERSION})"
        )));
    }
    let n_entries = c.u32()? as usize;
    let n_names = c.u32()? as usize;
    if n_entries > body.len() / ENTRY {
        return Err(BookError::corrupt("kbk book is truncated"));
    }
    let mut entries = Vec::with_capacity(n_entries);
    for i in 0..n_entries {
        let key = c.u64()?;
        let weight = c.u32()?;
        let mv = c.u16()?;
        c.u16()?;
        let e = BookEntry { key, mv, weight };
        if entries.last().is_some_and(|p: &BookEntry| *p > e) || mv >> 12 > 4 {
            return Err(BookError::corrupt(format!(
                "kbk entry {i} is invalid (out of order or bad move code)"
            )));
        }
        entries.push(e);
    }
    let mut names = HashMap::with_capacity(n_names);
    for _ in 0..n_names {
        let key = c.u64()?;
        let eco_len = c.u8()? as usize;
        let eco = c.take(eco_len)?;
        let name_len = c.u16()? as usize;
        let name = c.take(name_len)?;
        let text = |b: &[u8]| {
            String::from_utf8(b.to_vec())
                .map_err(|_| BookError::corrupt("kbk opening name is not valid UTF-8"))
        };
        names.insert(
            key,
            OpeningName {
                eco: text(eco)?,
                name: text(name)?,
            },
        );
    }
    if c.pos != body.len() {
        return Err(BookError::corrupt("kbk book has trailing bytes"));
    }
    Ok(Book::new(BookFormat::Kestrel, entries, names))
}
