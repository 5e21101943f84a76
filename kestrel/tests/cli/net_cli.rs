//! `--net FILE` on the command line: bench, eval, epd and match players evaluate with the
//! network, and a bad file is a clear error with a non-zero exit.

use crate::common;
use common::{fixture, kestrel, stderr, stdout, temp_dir};
use kestrel_nnue::{FloatNetwork, Network, file};

fn write_net(path: &std::path::Path) {
    let mut float = FloatNetwork::zeros(32);
    for (i, w) in float.ft_weights.iter_mut().enumerate() {
        *w = ((i * 7919) % 101) as f32 / 400.0 - 0.1;
    }
    float.ft_bias.iter_mut().for_each(|b| *b = 0.3);
    for (i, w) in float.out_weights.iter_mut().enumerate() {
        *w = if i % 3 == 0 { -0.7 } else { 0.5 };
    }
    file::write(path, &Network::quantise(&float).unwrap()).unwrap();
}

fn bench_nodes(args: &[&str]) -> u64 {
    let o = kestrel(args);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let last = text.lines().last().expect("a bench line");
    last.split_whitespace().next().unwrap().parse().unwrap()
}

#[test]
fn commands_evaluate_with_the_network_they_are_given() {
    let dir = temp_dir("net-cli");
    let net = dir.join("small.knet");
    write_net(&net);
    let net = net.to_str().unwrap();
    let linear = bench_nodes(&["bench", "4", "--net", "linear"]);
    let with_net = bench_nodes(&["bench", "4", "--net", net]);
    assert_ne!(linear, with_net);
    assert_eq!(with_net, bench_nodes(&["bench", "4", "--net", net]));

    let o = kestrel(&["eval", "--net", net]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("Final evaluation:"), "{text}");
    assert!(
        text.contains("Network evaluation:") && text.contains("small.knet, hidden 32]"),
        "{text}"
    );

    let bk = fixture("bk.epd");
    let o = kestrel(&["epd", &bk, "--depth", "2", "--net", net]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("network: "), "{}", stderr(&o));

    let o = kestrel(&[
        "match",
        "-a",
        net,
        "-b",
        "builtin",
        "--games",
        "2",
        "--depth",
        "2",
        "--max-moves",
        "12",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("small"), "{}", stdout(&o));
}

#[test]
fn the_default_evaluation_is_the_built_in_network_when_the_build_has_one() {
    let default = bench_nodes(&["bench", "3"]);
    let named = kestrel_nnue::default_evaluation_name();
    assert_eq!(default, bench_nodes(&["bench", "3", "--net", named]));
    let linear = bench_nodes(&["bench", "3", "--net", "linear"]);
    assert_eq!(kestrel_nnue::has_builtin_network(), default != linear);

    let o = kestrel(&["eval", "--net", "linear"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("Final evaluation:") && stdout(&o).contains("Network evaluation: none"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_bad_network_file_is_an_error_everywhere() {
    let dir = temp_dir("net-cli-bad");
    let bad = dir.join("bad.knet");
    std::fs::write(&bad, b"KSTRLNET and then nothing useful").unwrap();
    let bad = bad.to_str().unwrap();
    let bk = fixture("bk.epd");
    for args in [
        vec!["bench", "1", "--net", bad],
        vec!["eval", "--net", bad],
        vec!["epd", &bk, "--depth", "1", "--net", bad],
    ] {
        let o = kestrel(&args);
        assert!(!o.status.success(), "{args:?} accepted a bad file");
        assert!(
            stderr(&o).contains(&format!("--net {bad}: not a usable Kestrel network")),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    let spec = format!("builtin:net={bad}");
    let o = kestrel(&["match", "-a", &spec, "--games", "2", "--depth", "1"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("not a usable Kestrel network"),
        "{}",
        stderr(&o)
    );
    if !kestrel_nnue::has_builtin_network() {
        let o = kestrel(&["bench", "1", "--net", "builtin"]);
        assert!(!o.status.success());
        assert!(
            stderr(&o).contains("this build has no built-in network"),
            "{}",
            stderr(&o)
        );
        let o = kestrel(&["eval"]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            stdout(&o).contains("Network evaluation: none"),
            "{}",
            stdout(&o)
        );
    }
}
