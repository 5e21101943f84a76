//! Compiles `nets/default.knet` into the crate when it exists (cfg `kestrel_builtin_net`).

fn main() {
    println!("cargo::rustc-check-cfg=cfg(kestrel_builtin_net)");
    // The directory too: adding the file to it must rebuild.
    println!("cargo::rerun-if-changed=nets");
    println!("cargo::rerun-if-changed=nets/default.knet");
    if std::path::Path::new("nets/default.knet").is_file() {
        println!("cargo::rustc-cfg=kestrel_builtin_net");
    }
}
