//! The data file (`.kpos`), little-endian throughout:
//!
//! | bytes | field |
//! | --- | --- |
//! | 8 | magic `KSTRLPOS` |
//! | 4 | format version (1) |
//! | 4 | record length (32) |
//! | then blocks, each: | |
//! | 4 | records in the block, 1 to [`MAX_BLOCK_RECORDS`] |
//! | 4 | zero (reserved) |
//! | 8 | FNV-1a 64 checksum of the block's record bytes |
//! | 32 × n | the records ([`PackedPosition`]) |
//!
//! The reader refuses a file whose header, block header, length (a truncated block) or checksum
//! is wrong, or whose records fail [`PackedPosition::validate`], naming the block and record.

use super::record::{PackedPosition, RECORD_LEN, RecordError};
use kestrel_nnue::file::fnv1a64;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The first eight bytes of every data file.
pub const MAGIC: &[u8; 8] = b"KSTRLPOS";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
/// Bytes of the file header.
pub const HEADER_LEN: u64 = 16;
/// Bytes of a block header.
pub const BLOCK_HEADER_LEN: usize = 16;
/// The most records a block may hold.
pub const MAX_BLOCK_RECORDS: usize = 1 << 20;

/// Why a data file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// The operating system refused.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The bytes are not a valid data file.
    #[error("{path}: not a valid Kestrel position file: {why}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong, and where.
        why: String,
    },
}

fn header_bytes() -> [u8; HEADER_LEN as usize] {
    let mut h = [0u8; HEADER_LEN as usize];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(RECORD_LEN as u32).to_le_bytes());
    h
}

/// The bytes of one block holding `records` (at least one).
pub fn block_bytes(records: &[PackedPosition]) -> Vec<u8> {
    assert!(!records.is_empty() && records.len() <= MAX_BLOCK_RECORDS);
    let mut body = Vec::with_capacity(records.len() * RECORD_LEN);
    for r in records {
        body.extend_from_slice(&r.0);
    }
    let mut out = Vec::with_capacity(BLOCK_HEADER_LEN + body.len());
    out.extend_from_slice(&(records.len() as u32).to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&fnv1a64(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// Appends blocks to a data file.
pub struct DataWriter {
    path: PathBuf,
    file: BufWriter<File>,
    bytes: u64,
}

impl DataWriter {
    /// Creates (or replaces) `path` holding just the header.
    pub fn create(path: &Path) -> Result<DataWriter, DataError> {
        let io = |source| DataError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = File::create(path).map_err(io)?;
        file.write_all(&header_bytes()).map_err(io)?;
        file.sync_data().map_err(io)?;
        Ok(DataWriter {
            path: path.to_path_buf(),
            file: BufWriter::new(file),
            bytes: HEADER_LEN,
        })
    }

    /// Opens `path` to append after its first `bytes` bytes, cutting off anything after them
    /// (the torn tail of a killed run). The header is checked.
    pub fn resume(path: &Path, bytes: u64) -> Result<DataWriter, DataError> {
        let io = |source| DataError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        if len < bytes || bytes < HEADER_LEN {
            return Err(DataError::Invalid {
                path: path.to_path_buf(),
                why: format!("{len} bytes, but the progress file says {bytes} were written"),
            });
        }
        let mut header = [0u8; HEADER_LEN as usize];
        file.read_exact(&mut header).map_err(io)?;
        if header != header_bytes() {
            return Err(DataError::Invalid {
                path: path.to_path_buf(),
                why: "wrong header".into(),
            });
        }
        file.set_len(bytes).map_err(io)?;
        file.seek(SeekFrom::Start(bytes)).map_err(io)?;
        Ok(DataWriter {
            path: path.to_path_buf(),
            file: BufWriter::new(file),
            bytes,
        })
    }

    /// Writes one block and flushes it to the disk; an empty slice writes nothing.
    pub fn write_block(&mut self, records: &[PackedPosition]) -> Result<(), DataError> {
        let io = |source| DataError::Io {
            path: self.path.clone(),
            source,
        };
        for chunk in records.chunks(MAX_BLOCK_RECORDS) {
            let bytes = block_bytes(chunk);
            self.file.write_all(&bytes).map_err(io)?;
            self.bytes += bytes.len() as u64;
        }
        self.file.flush().map_err(io)?;
        self.file.get_ref().sync_data().map_err(io)
    }

    /// Bytes in the file so far.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
}

/// Reads a data file's blocks one by one, checking each.
pub struct DataReader {
    path: PathBuf,
    file: BufReader<File>,
    offset: u64,
    len: u64,
    block: usize,
}

impl DataReader {
    /// Opens `path` and checks its header.
    pub fn open(path: &Path) -> Result<DataReader, DataError> {
        DataReader::open_prefix(path, None)
    }

    /// Opens `path` to read only its first `len` bytes (the complete blocks of a file another
    /// process is still appending to; `None`: the whole file).
    pub fn open_prefix(path: &Path, len: Option<u64>) -> Result<DataReader, DataError> {
        let io = |source| DataError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = File::open(path).map_err(io)?;
        let size = file.metadata().map_err(io)?.len();
        if len.is_some_and(|n| n > size) {
            return Err(DataError::Invalid {
                path: path.to_path_buf(),
                why: format!(
                    "{size} bytes, shorter than the {} its run recorded",
                    len.unwrap_or(0)
                ),
            });
        }
        let len = len.unwrap_or(size);
        let mut reader = DataReader {
            path: path.to_path_buf(),
            file: BufReader::with_capacity(1 << 20, file),
            offset: 0,
            len,
            block: 0,
        };
        if len < HEADER_LEN {
            return Err(reader.invalid(format!("{len} bytes is shorter than the header")));
        }
        let mut header = [0u8; HEADER_LEN as usize];
        reader.file.read_exact(&mut header).map_err(io)?;
        if &header[..8] != MAGIC {
            return Err(reader.invalid("wrong magic (not a .kpos file)".into()));
        }
        let version = u32::from_le_bytes(header[8..12].try_into().unwrap());
        let record_len = u32::from_le_bytes(header[12..16].try_into().unwrap());
        if version != VERSION || record_len != RECORD_LEN as u32 {
            return Err(reader.invalid(format!(
                "format version {version} with {record_len}-byte records; this build reads \
                 version {VERSION} with {RECORD_LEN}-byte records"
            )));
        }
        reader.offset = HEADER_LEN;
        Ok(reader)
    }

    fn invalid(&self, why: String) -> DataError {
        DataError::Invalid {
            path: self.path.clone(),
            why,
        }
    }

    /// The next block's records (`None` at the end of the file), each validated.
    pub fn next_block(&mut self) -> Result<Option<Vec<PackedPosition>>, DataError> {
        if self.offset == self.len {
            return Ok(None);
        }
        let block = self.block;
        let left = self.len - self.offset;
        if left < BLOCK_HEADER_LEN as u64 {
            return Err(self.invalid(format!("block {block} is truncated ({left} bytes left)")));
        }
        let mut head = [0u8; BLOCK_HEADER_LEN];
        self.read_exact(&mut head)?;
        let count = u32::from_le_bytes(head[0..4].try_into().unwrap()) as usize;
        let reserved = u32::from_le_bytes(head[4..8].try_into().unwrap());
        let sum = u64::from_le_bytes(head[8..16].try_into().unwrap());
        if count == 0 || count > MAX_BLOCK_RECORDS || reserved != 0 {
            return Err(self.invalid(format!("block {block} has a corrupt header")));
        }
        let body_len = (count * RECORD_LEN) as u64;
        if self.len - self.offset < body_len {
            return Err(self.invalid(format!(
                "block {block} is truncated: {count} records need {body_len} bytes, {} left",
                self.len - self.offset
            )));
        }
        let mut body = vec![0u8; body_len as usize];
        self.read_exact(&mut body)?;
        if fnv1a64(&body) != sum {
            return Err(self.invalid(format!("block {block}: checksum mismatch (corrupt data)")));
        }
        let records = body
            .chunks_exact(RECORD_LEN)
            .map(|c| PackedPosition(c.try_into().unwrap()))
            .collect::<Vec<_>>();
        for (i, r) in records.iter().enumerate() {
            r.validate().map_err(|RecordError(why)| {
                self.invalid(format!("block {block}, record {i}: {why}"))
            })?;
        }
        self.block += 1;
        Ok(Some(records))
    }

    fn read_exact(&mut self, buf: &mut [u8]) -> Result<(), DataError> {
        self.file.read_exact(buf).map_err(|source| DataError::Io {
            path: self.path.clone(),
            source,
        })?;
        self.offset += buf.len() as u64;
        Ok(())
    }
}

/// Every record of a data file, checked.
pub fn read_all(path: &Path) -> Result<Vec<PackedPosition>, DataError> {
    read_prefix(path, None)
}

/// Every record in the first `len` bytes of a data file (`None`: all), checked.
pub fn read_prefix(path: &Path, len: Option<u64>) -> Result<Vec<PackedPosition>, DataError> {
    let mut reader = DataReader::open_prefix(path, len)?;
    let mut out = Vec::new();
    while let Some(block) = reader.next_block()? {
        out.extend(block);
    }
    Ok(out)
}

/// Writes `records` to a new data file atomically (one block per [`MAX_BLOCK_RECORDS`]).
pub fn write_all(path: &Path, records: &[PackedPosition]) -> Result<(), DataError> {
    let mut bytes = header_bytes().to_vec();
    for chunk in records.chunks(MAX_BLOCK_RECORDS) {
        bytes.extend(block_bytes(chunk));
    }
    kestrel_params::atomic::write_atomic(path, &bytes).map_err(|source| DataError::Io {
        path: path.to_path_buf(),
        source,
    })
}
