//! Errors of reading and building books.

use std::path::Path;
use thiserror::Error;

/// Why a book could not be read or built.
#[derive(Debug, Error)]
pub enum BookError {
    /// The file could not be read.
    #[error("cannot read book {path}: {source}")]
    Io {
        /// The file's path.
        path: String,
        /// The underlying I/O error.
        source: std::io::Error,
    },
    /// The content is not a valid book (truncated, bad size, order or checksum, unreadable PGN);
    /// the message says what is wrong.
    #[error("{0}")]
    Corrupt(String),
    /// A [`BookError::Corrupt`] content error with the file it was found in.
    #[error("book {path}: {message}")]
    InFile {
        /// The file's path.
        path: String,
        /// What is wrong with the content.
        message: String,
    },
}

impl BookError {
    pub(crate) fn corrupt(message: impl Into<String>) -> BookError {
        BookError::Corrupt(message.into())
    }

    /// Names the file in a content error.
    pub(crate) fn in_file(self, path: &Path) -> BookError {
        match self {
            BookError::Corrupt(message) => BookError::InFile {
                path: path.display().to_string(),
                message,
            },
            other => other,
        }
    }
}
