//! Records the commit the engine is built from, so `kestrel --version` and the UCI `id name` tie
//! a reported figure to a build. Outside a git checkout (a source tarball) the commit is `unknown`.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!text.is_empty()).then_some(text)
}

fn main() {
    let commit = git(&["rev-parse", "--short=10", "HEAD"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=KESTREL_COMMIT={commit}");
    // Rebuild when HEAD moves: HEAD itself (branch switches) and the branch's ref file.
    // Only files that exist: cargo reruns a script watching a missing file at every build
    // (a checkout without packed-refs would then rebuild every time).
    let watch = |p: String| {
        if std::path::Path::new(&p).exists() {
            println!("cargo:rerun-if-changed={p}");
        }
    };
    for path in ["HEAD", "packed-refs"] {
        if let Some(p) = git(&["rev-parse", "--git-path", path]) {
            watch(p);
        }
    }
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"])
        && let Some(p) = git(&["rev-parse", "--git-path", &branch])
    {
        watch(p);
    }
    println!("cargo:rerun-if-changed=build.rs");
}
