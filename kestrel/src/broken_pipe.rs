//! A closed stdout (`kestrel bench --verbose | head -1`) ends the program quietly instead of
//! with a panic message. Rust ignores SIGPIPE, so `println!` panics on a closed pipe; restoring
//! the signal instead would also kill a match when an engine subprocess dies, so the panic is
//! intercepted here.

/// Installs a panic hook that turns a "failed printing to stdout: Broken pipe" panic, in any
/// thread, into a silent exit with status 0; every other panic is reported as before.
pub fn exit_quietly_on_closed_stdout() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.contains("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(0);
        }
        previous(info);
    }));
}
