//! Atomic file writes on a background thread, so a run does not wait for the disk after every
//! generation. Writes to the same path coalesce: when a newer version of a file arrives before
//! the older one reached the disk, only the newer one is written. Every file on disk is always
//! a complete version (atomic rename), at most one write behind; `finish` writes the last ones.

use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

#[derive(Default)]
struct Queue {
    pending: Vec<(PathBuf, Vec<u8>)>,
    closed: bool,
    error: Option<String>,
}

/// Writes files atomically on its own thread, coalescing writes to the same path.
pub struct BackgroundWriter {
    shared: Arc<(Mutex<Queue>, Condvar)>,
    thread: Option<JoinHandle<()>>,
}

impl Default for BackgroundWriter {
    fn default() -> Self {
        Self::new()
    }
}

impl BackgroundWriter {
    /// Starts the writer thread.
    pub fn new() -> BackgroundWriter {
        let shared = Arc::new((Mutex::new(Queue::default()), Condvar::new()));
        let worker = shared.clone();
        let thread = std::thread::spawn(move || {
            let (lock, ready) = &*worker;
            loop {
                let batch = {
                    let mut q = lock.lock().expect("writer lock");
                    while q.pending.is_empty() && !q.closed {
                        q = ready.wait(q).expect("writer lock");
                    }
                    if q.pending.is_empty() {
                        return;
                    }
                    std::mem::take(&mut q.pending)
                };
                for (path, bytes) in batch {
                    if let Err(e) = kestrel_params::atomic::write_atomic(&path, &bytes) {
                        let mut q = lock.lock().expect("writer lock");
                        q.error
                            .get_or_insert(format!("cannot write {}: {e}", path.display()));
                    }
                }
            }
        });
        BackgroundWriter {
            shared,
            thread: Some(thread),
        }
    }

    /// Queues a write (replacing a queued older version of the same file); reports the first
    /// failure of an earlier write.
    pub fn write(&self, path: PathBuf, bytes: Vec<u8>) -> Result<(), String> {
        let (lock, ready) = &*self.shared;
        let mut q = lock.lock().expect("writer lock");
        if let Some(e) = &q.error {
            return Err(e.clone());
        }
        match q.pending.iter_mut().find(|(p, _)| *p == path) {
            Some(slot) => slot.1 = bytes,
            None => q.pending.push((path, bytes)),
        }
        ready.notify_one();
        Ok(())
    }

    /// Writes everything queued and stops; reports the first failure.
    pub fn finish(mut self) -> Result<(), String> {
        self.close()
    }

    fn close(&mut self) -> Result<(), String> {
        let (lock, ready) = &*self.shared;
        lock.lock().expect("writer lock").closed = true;
        ready.notify_one();
        if let Some(t) = self.thread.take() {
            t.join()
                .map_err(|_| "the file writer thread panicked".to_string())?;
        }
        match lock.lock().expect("writer lock").error.clone() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

impl Drop for BackgroundWriter {
    fn drop(&mut self) {
        let _ = self.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_version_wins_and_failures_are_reported() {
        let dir = std::env::temp_dir().join(format!("kestrel-writer-{}", std::process::id()));
        let path = dir.join("f.txt");
        let other = dir.join("g.txt");
        let w = BackgroundWriter::new();
        for i in 0..50 {
            w.write(path.clone(), format!("{i}").into_bytes()).unwrap();
            w.write(other.clone(), format!("g{i}").into_bytes())
                .unwrap();
        }
        w.finish().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "49");
        assert_eq!(std::fs::read_to_string(&other).unwrap(), "g49");
        // A path below a regular file cannot be written.
        let w = BackgroundWriter::new();
        w.write(path.join("below"), b"x".to_vec()).unwrap();
        assert!(w.finish().unwrap_err().contains("cannot write"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
