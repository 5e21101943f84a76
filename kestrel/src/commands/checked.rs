//! Shared clap value parsers, so that every command refuses the same nonsense the same way:
//! before any work, with clap's one-line `invalid value 'X' for '--FLAG': WHY` (docs/params.md).
//! Use them as `#[arg(long, value_parser = checked::hash_mb)]`.

use kestrel_tools::{Limit, Sprt};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The bound of every `--hash` (MB), the same as the UCI option `Hash`.
pub const HASH_MB: RangeInclusive<usize> = 1..=65536;

/// A whole number of type `T`, or a clear error.
fn whole<T: FromStr>(text: &str) -> Result<T, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a whole number of the right size"))
}

/// A finite number, or a clear error (`nan`, `inf` and `1e999` are refused).
fn finite(text: &str) -> Result<f64, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number"))?;
    if value.is_finite() {
        Ok(value)
    } else {
        Err(format!("{value} is not a finite number"))
    }
}

/// A hash table size in MB within [`HASH_MB`], checked before anything is allocated.
pub fn hash_mb(text: &str) -> Result<usize, String> {
    let mb: usize = whole(text)?;
    if HASH_MB.contains(&mb) {
        Ok(mb)
    } else {
        Err(format!(
            "{mb} MB is not in {}..={} (the UCI option Hash's bound)",
            HASH_MB.start(),
            HASH_MB.end()
        ))
    }
}

/// A count that must be at least 1 (positions, games, organisms, rounds, ...).
pub fn positive(text: &str) -> Result<usize, String> {
    match whole(text)? {
        0 => Err("must be at least 1".into()),
        n => Ok(n),
    }
}

/// A 64-bit count that must be at least 1 (nodes, generations, seconds, ...).
pub fn positive_u64(text: &str) -> Result<u64, String> {
    match whole(text)? {
        0 => Err("must be at least 1".into()),
        n => Ok(n),
    }
}

/// A probability or a share: finite, within [0, 1].
pub fn probability(text: &str) -> Result<f64, String> {
    let value = finite(text)?;
    if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(format!("{value} is not within [0, 1]"))
    }
}

/// A share that must leave something: finite, within [0, 1).
pub fn share_below_one(text: &str) -> Result<f64, String> {
    let value = finite(text)?;
    if (0.0..1.0).contains(&value) {
        Ok(value)
    } else {
        Err(format!("{value} is not within [0, 1)"))
    }
}

/// A finite number above zero (a step, a radius, a rate, seconds).
pub fn positive_f64(text: &str) -> Result<f64, String> {
    let value = finite(text)?;
    if value > 0.0 {
        Ok(value)
    } else {
        Err(format!("{value} is not above 0"))
    }
}

/// [`positive_f64`] as an `f32` (the network trainer's learning rate).
pub fn positive_f32(text: &str) -> Result<f32, String> {
    let value = positive_f64(text)? as f32;
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(format!("'{text}' does not fit a 32-bit float above 0"))
    }
}

/// A finite number at or above zero (a margin, a tolerance, a penalty weight).
pub fn non_negative_f64(text: &str) -> Result<f64, String> {
    let value = finite(text)?;
    if value >= 0.0 {
        Ok(value)
    } else {
        Err(format!("{value} is below 0"))
    }
}

/// An SPRT `elo0,elo1[,alpha,beta]`, checked as the match will read it (finite, elo0 < elo1,
/// error rates in (0, 1)); the text is kept for the command's own parsing.
pub fn sprt(text: &str) -> Result<String, String> {
    Sprt::parse(text).map(|_| text.to_string())
}

/// A clock `BASE+INC` in seconds, checked as the games will read it; the text is kept.
pub fn time_control(text: &str) -> Result<String, String> {
    Limit::parse_tc(text).map(|_| text.to_string())
}

/// A comma-separated list without empty or repeated items (names, files, engines); the text
/// is kept for the command's own parsing. A repeat is named as a repeat.
pub fn distinct_list(text: &str) -> Result<String, String> {
    let mut seen: Vec<&str> = Vec::new();
    for item in text.split(',').map(str::trim) {
        if item.is_empty() {
            return Err(format!("'{text}' has an empty item"));
        }
        if seen.contains(&item) {
            return Err(format!("'{item}' is listed twice (duplicate)"));
        }
        seen.push(item);
    }
    Ok(text.to_string())
}

/// A list flag given as several values (`--flag A,B` with clap's `value_delimiter`) names a
/// repeated item as a duplicate, as [`distinct_list`] does for a list kept as text; call it
/// first in the command's `run`, before any work.
pub fn distinct<T: std::fmt::Display>(flag: &str, items: &[T]) -> anyhow::Result<()> {
    let names: Vec<String> = items.iter().map(T::to_string).collect();
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            anyhow::bail!("{flag}: '{name}' is listed twice (duplicate)");
        }
    }
    Ok(())
}

/// A file the run will write (a database, a PGN, a journal, a params file): its folder exists
/// and takes a new file, checked with a probe file before the run starts, so that hours of
/// work are never lost to a typo in a path. Files are written by temp + rename, so the folder
/// is what must be writable.
pub fn writable_file(text: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(text);
    if path.is_dir() {
        return Err(format!("{} is a folder, not a file", path.display()));
    }
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(format!("folder {} does not exist", folder.display()));
    }
    probe(folder)?;
    Ok(path)
}

/// A run's output folder (`--out`): created when absent, so it, or the nearest folder above it
/// that exists, must take new files.
pub fn writable_dir(text: &str) -> Result<PathBuf, String> {
    let dir = PathBuf::from(text);
    let mut existing = dir.as_path();
    while !existing.exists() {
        existing = match existing.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
    }
    if !existing.is_dir() {
        return Err(format!("{} is a file, not a folder", existing.display()));
    }
    probe(existing)?;
    Ok(dir)
}

/// Creates and removes a probe file in `folder`: whether the run could write there.
fn probe(folder: &Path) -> Result<(), String> {
    let file = folder.join(format!(".kestrel-write-probe-{}", std::process::id()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&file)
        .map_err(|e| format!("cannot write in {}: {e}", folder.display()))?;
    std::fs::remove_file(&file).map_err(|e| format!("cannot write in {}: {e}", folder.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_is_bounded_like_the_uci_option() {
        assert_eq!(hash_mb("1"), Ok(1));
        assert_eq!(hash_mb("65536"), Ok(65536));
        for bad in ["0", "65537", "99999999", "-1", "1.5", "lots"] {
            assert!(hash_mb(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn floats_must_be_finite_and_in_range() {
        for bad in ["nan", "NaN", "inf", "-inf", "1e999", "x"] {
            assert!(probability(bad).is_err(), "{bad}");
            assert!(positive_f64(bad).is_err(), "{bad}");
            assert!(non_negative_f64(bad).is_err(), "{bad}");
        }
        assert_eq!(probability("1"), Ok(1.0));
        assert!(probability("1.01").is_err() && probability("-0.01").is_err());
        assert!(share_below_one("1").is_err());
        assert_eq!(share_below_one("0"), Ok(0.0));
        assert!(positive_f64("0").is_err() && positive_f64("-2").is_err());
        assert_eq!(non_negative_f64("0"), Ok(0.0));
        assert!(positive_f32("1e300").is_err());
        assert_eq!(positive_f32("0.5"), Ok(0.5));
    }

    #[test]
    fn counts_must_be_positive() {
        assert_eq!(positive("3"), Ok(3));
        assert!(positive("0").is_err() && positive("-1").is_err());
        assert!(positive_u64("0").is_err());
    }

    #[test]
    fn specs_are_read_as_the_commands_read_them() {
        assert!(sprt("0,10").is_ok());
        for bad in ["0,inf", "nan,5", "5,0", "0,10,0,0.05", "0"] {
            assert!(sprt(bad).is_err(), "{bad}");
        }
        assert!(time_control("10+0.1").is_ok());
        assert!(time_control("inf+0").is_err() && time_control("0+1").is_err());
    }

    #[test]
    fn outputs_are_checked_before_the_run() {
        let dir = std::env::temp_dir().join(format!("kestrel-checked-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let text = |p: &Path| p.to_str().unwrap().to_string();
        assert!(writable_file(&text(&dir.join("x.db"))).is_ok());
        let err = writable_file("/nonexistent/dir/x.db").unwrap_err();
        assert!(err.contains("/nonexistent/dir does not exist"), "{err}");
        assert!(
            writable_file(&text(&dir)).is_err(),
            "a folder is not a file"
        );
        assert!(writable_dir(&text(&dir.join("new/deeper"))).is_ok());
        std::fs::write(dir.join("file"), "x").unwrap();
        assert!(writable_dir(&text(&dir.join("file/out"))).is_err());
        // Nothing is left behind: no probe, no created folder.
        let mut left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        left.sort();
        assert_eq!(left, ["file"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_repeated_item_is_named_a_duplicate() {
        assert!(distinct_list("KNIGHT_VALUE,BISHOP_VALUE").is_ok());
        let err = distinct_list("KNIGHT_VALUE, KNIGHT_VALUE").unwrap_err();
        assert!(
            err.contains("'KNIGHT_VALUE'") && err.contains("duplicate"),
            "{err}"
        );
        assert!(distinct_list("A,,B").is_err());
        let err = distinct("--parents", &["a.toml", "b.toml", "a.toml"]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "--parents: 'a.toml' is listed twice (duplicate)"
        );
        assert!(distinct("--parents", &["a.toml", "b.toml"]).is_ok());
        assert!(
            distinct::<String>("--freeze", &[]).is_ok(),
            "an empty list has no repeat"
        );
    }
}
