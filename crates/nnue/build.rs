//! Compiles `nets/default.knet` into the crate when it exists (cfg `kestrel_builtin_net`).

fn main() {
    println!("cargo::rustc-check-cfg=cfg(kestrel_builtin_net)");
    // The folder: adding or removing the file changes its time, which reruns this script.
    println!("cargo::rerun-if-changed=nets");
    if std::path::Path::new("nets/default.knet").is_file() {
        // Only a file that exists: cargo reruns a script watching a missing file every build.
        println!("cargo::rerun-if-changed=nets/default.knet");
        println!("cargo::rustc-cfg=kestrel_builtin_net");
    }
}
