//! Errors of reading and building books.

use std::path::Path;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum BookError {
    #[error("cannot read book {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{0}")]
    Corrupt(String),
    #[error("book {path}: {message}")]
    InFile { path: String, message: String },
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
