//! `UseNNUE` and `EvalFile` through the protocol: a network is loaded and checked when it is
//! named, a bad file keeps the current one, and the search uses it only while `UseNNUE` is on
//! (by default in a build with a compiled-in network) and `UCI_LimitStrength` is off.

use crate::common;

use common::{bestmoves, engine, info_strings, send};
use kestrel_nnue::{FloatNetwork, Network, file};
use std::path::PathBuf;

fn write_net(dir: &std::path::Path, name: &str, bias: f32) -> PathBuf {
    let mut float = FloatNetwork::zeros(32);
    for (i, w) in float.ft_weights.iter_mut().enumerate() {
        *w = ((i * 7919) % 101) as f32 / 400.0 - 0.1;
    }
    float.ft_bias.iter_mut().for_each(|b| *b = bias);
    for (i, w) in float.out_weights.iter_mut().enumerate() {
        *w = if i % 3 == 0 { -0.7 } else { 0.5 };
    }
    let path = dir.join(name);
    file::write(&path, &Network::quantise(&float).unwrap()).unwrap();
    path
}

fn line_starting<'a>(out: &'a [String], prefix: &str) -> &'a str {
    out.iter()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line starting {prefix}: {out:#?}"))
}

/// The node count of `bench`'s last line, `N nodes M nps`.
fn bench_nodes(out: &[String]) -> u64 {
    let last = out
        .iter()
        .rev()
        .find(|l| l.ends_with(" nps"))
        .unwrap_or_else(|| panic!("no bench line: {out:#?}"));
    last.split_whitespace().next().unwrap().parse().unwrap()
}

#[test]
fn options_are_declared() {
    let (mut e, cap) = engine();
    let out = send(&mut e, &cap, &["uci"]);
    let use_nnue = format!(
        "option name UseNNUE type check default {}",
        kestrel_nnue::has_builtin_network()
    );
    for wanted in [
        use_nnue.as_str(),
        "option name EvalFile type string default <builtin>",
    ] {
        assert!(out.iter().any(|l| l == wanted), "missing {wanted}");
    }
}

#[test]
fn the_built_in_network_plays_by_default_but_not_under_the_strength_limit() {
    if !kestrel_nnue::has_builtin_network() {
        return; // A build without a network plays the linear evaluation (tested below).
    }
    let (mut e, cap) = engine();
    let out = send(&mut e, &cap, &["uci", "isready"]);
    assert!(info_strings(&out).is_empty(), "loading is quiet: {out:#?}");
    let default = bench_nodes(&send(&mut e, &cap, &["bench 3"]));
    let out = send(&mut e, &cap, &["eval"]);
    assert!(
        line_starting(&out, "Network evaluation:").contains("builtin, in use]"),
        "{out:#?}"
    );
    let limited = bench_nodes(&send(
        &mut e,
        &cap,
        &["setoption name UCI_LimitStrength value true", "bench 3"],
    ));
    let out = send(&mut e, &cap, &["eval"]);
    assert!(
        line_starting(&out, "Network evaluation:").contains("not in use"),
        "{out:#?}"
    );
    let linear = bench_nodes(&send(
        &mut e,
        &cap,
        &[
            "setoption name UCI_LimitStrength value false",
            "setoption name UseNNUE value false",
            "bench 3",
        ],
    ));
    assert_eq!(limited, linear, "the limited engine evaluates linearly");
    assert_ne!(
        default, linear,
        "the default engine evaluates with the network"
    );
}

#[test]
fn eval_file_loads_checks_and_keeps_the_network() {
    let dir = std::env::temp_dir().join(format!("kestrel-uci-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = write_net(&dir, "good.knet", 0.3);
    let corrupt = dir.join("corrupt.knet");
    let mut bytes = std::fs::read(&good).unwrap();
    bytes[200] ^= 0x40;
    std::fs::write(&corrupt, &bytes).unwrap();

    let (mut e, cap) = engine();
    send(&mut e, &cap, &["setoption name UseNNUE value false"]);
    let linear = bench_nodes(&send(&mut e, &cap, &["bench 4"]));
    let out = send(
        &mut e,
        &cap,
        &[
            &format!("setoption name EvalFile value {}", good.display()),
            "eval",
        ],
    );
    let info = info_strings(&out);
    assert!(info[0].contains("good.knet loaded (hidden 32"), "{out:#?}");
    let net_line = line_starting(&out, "Network evaluation:").to_string();
    assert!(net_line.contains("not in use"), "{net_line}");
    // Loaded but not in use: the search is the linear one.
    assert_eq!(bench_nodes(&send(&mut e, &cap, &["bench 4"])), linear);

    let out = send(
        &mut e,
        &cap,
        &[
            &format!("setoption name EvalFile value {}", corrupt.display()),
            "eval",
        ],
    );
    let info = info_strings(&out);
    assert!(
        info[0].contains("checksum") && info[0].contains("network unchanged"),
        "{out:#?}"
    );
    assert_eq!(line_starting(&out, "Network evaluation:"), net_line);
    assert_eq!(e.settings().eval_file, good.display().to_string());

    let out = send(&mut e, &cap, &["setoption name UseNNUE value true", "eval"]);
    assert!(
        line_starting(&out, "Network evaluation:").contains("in use]"),
        "{out:#?}"
    );
    let with_net = bench_nodes(&send(&mut e, &cap, &["bench 4"]));
    assert_ne!(with_net, linear, "the network changes the search");
    let out = send(&mut e, &cap, &["position startpos", "go depth 5"]);
    assert_eq!(bestmoves(&out).len(), 1);
    let out = send(&mut e, &cap, &["setoption name UseNNUE value false"]);
    assert!(info_strings(&out).is_empty(), "{out:#?}");
    assert_eq!(bench_nodes(&send(&mut e, &cap, &["bench 4"])), linear);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn use_nnue_without_a_network_says_so_and_stays_linear() {
    if kestrel_nnue::has_builtin_network() {
        return; // This build carries a network: nothing is missing.
    }
    let (mut e, cap) = engine();
    let linear = bench_nodes(&send(&mut e, &cap, &["bench 3"]));
    let out = send(&mut e, &cap, &["setoption name UseNNUE value true"]);
    let info = info_strings(&out);
    assert!(
        info[0].contains("this build has no built-in network")
            && info[0].contains("linear evaluation"),
        "{out:#?}"
    );
    assert_eq!(bench_nodes(&send(&mut e, &cap, &["bench 3"])), linear);
    let out = send(&mut e, &cap, &["setoption name EvalFile value <builtin>"]);
    assert!(
        info_strings(&out)[0].contains("no built-in network"),
        "{out:#?}"
    );
}
