//! The training data's binary format: 32-byte position records ([`record`]) in checksummed
//! blocks behind a header ([`file`](mod@file)).

pub mod file;
pub mod record;

pub use file::{DataError, DataReader, DataWriter, read_all, read_prefix, write_all};
pub use record::{NO_SCORE, Outcome, PackedPosition, RECORD_LEN, RecordError};
