//! Large fitness inputs (positions with labels, suites, opening lists) stored by content hash:
//! the leader writes each once, Ray ships it once per node, and a worker reads it from the
//! node's cache folder, checking the hash, so a job carries only the 64-character name.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The SHA-256 of `bytes`, lower-case hex (Python: `hashlib.sha256(b).hexdigest()`).
pub fn content_hash(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// A folder of blobs named by their content hash.
#[derive(Clone, Debug)]
pub struct BlobStore {
    dir: PathBuf,
}

impl BlobStore {
    /// A store in `dir` (created on first write).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        BlobStore { dir: dir.into() }
    }

    /// The default per-node cache: `$TMPDIR/kestrel-blobs`.
    pub fn default_dir() -> PathBuf {
        std::env::temp_dir().join("kestrel-blobs")
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where the blob with `hash` lives.
    pub fn path(&self, hash: &str) -> PathBuf {
        self.dir.join(hash)
    }

    /// Stores `bytes` (atomically, once) and returns their hash.
    pub fn put(&self, bytes: &[u8]) -> Result<String, String> {
        let hash = content_hash(bytes);
        let path = self.path(&hash);
        if !path.exists() {
            std::fs::create_dir_all(&self.dir)
                .map_err(|e| format!("cannot create {}: {e}", self.dir.display()))?;
            kestrel_params::atomic::write_atomic(&path, bytes)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        Ok(hash)
    }

    /// The blob with `hash`, checked against it (a damaged or missing blob is an error).
    pub fn get(&self, hash: &str) -> Result<Vec<u8>, String> {
        if hash.len() != 64 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!("'{hash}' is not a blob hash"));
        }
        let path = self.path(hash);
        let bytes = std::fs::read(&path).map_err(|e| {
            format!(
                "blob {hash} is not in this node's cache {} ({e})",
                self.dir.display()
            )
        })?;
        if content_hash(&bytes) != hash {
            return Err(format!("blob {} is damaged (hash differs)", path.display()));
        }
        Ok(bytes)
    }
}

/// Stores text lines (FENs, EPD records, ...) as one blob; returns its hash.
pub fn put_lines(store: &BlobStore, lines: &[String]) -> Result<String, String> {
    let mut text = String::new();
    for line in lines {
        text.push_str(line);
        text.push('\n');
    }
    store.put(text.as_bytes())
}

/// The lines of a blob stored by [`put_lines`].
pub fn get_lines(store: &BlobStore, hash: &str) -> Result<Vec<String>, String> {
    let text =
        String::from_utf8(store.get(hash)?).map_err(|_| format!("blob {hash} is not UTF-8"))?;
    Ok(text.lines().map(str::to_string).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_digest_round_trip_and_damage() {
        assert_eq!(
            content_hash(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let dir = std::env::temp_dir().join(format!("kestrel-blob-test-{}", std::process::id()));
        let store = BlobStore::new(&dir);
        let h = store.put(b"positions").unwrap();
        assert_eq!(store.get(&h).unwrap(), b"positions");
        std::fs::write(store.path(&h), b"tampered").unwrap();
        assert!(store.get(&h).unwrap_err().contains("damaged"));
        assert!(store.get("../etc/passwd").is_err());
        let missing = content_hash(b"never stored");
        assert!(
            store
                .get(&missing)
                .unwrap_err()
                .contains("not in this node's cache")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
