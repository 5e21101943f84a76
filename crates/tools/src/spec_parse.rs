//! Engine specifications as written on the command line:
//! `builtin` (Kestrel as shipped: the compiled-in network when the build has one), `linear`
//! (the linear evaluation), `builtin:params=FILE`, `FILE.toml` (a built-in with those
//! parameters and the linear evaluation), `builtin:net=FILE`, `FILE.knet` (a built-in
//! evaluating with that network; `net=builtin` is the compiled-in one, `net=linear` the
//! linear evaluation), `builtin:params=FILE,net=FILE`, or `uci:COMMAND [ARGS...]`.

use crate::player::EngineSpec;
use crate::uci_player::UciTimeouts;
use kestrel_nnue::{BUILTIN_NAMES, LINEAR, default_evaluation_name, load_evaluation};
use kestrel_search::EngineConfig;
use std::path::Path;
use std::sync::Arc;

/// Parses one engine specification; `options` are `NAME=VALUE` UCI options (UCI engines only).
pub fn parse_engine_spec(
    text: &str,
    options: &[String],
    timeouts: UciTimeouts,
) -> Result<EngineSpec, String> {
    let text = text.trim();
    if let Some(rest) = text.strip_prefix("uci:") {
        let mut words = rest.split_whitespace();
        let command = words
            .next()
            .ok_or_else(|| format!("'{text}': uci: needs a command"))?
            .to_string();
        let name = Path::new(&command)
            .file_name()
            .map_or(command.clone(), |n| n.to_string_lossy().into_owned());
        return Ok(EngineSpec::Uci {
            name,
            args: words.map(str::to_string).collect(),
            command,
            options: parse_options(options)?,
            timeouts,
        });
    }
    if !options.is_empty() {
        return Err(format!(
            "UCI options ({}) only apply to uci: engines, not '{text}'",
            options.join(", ")
        ));
    }
    let (params, net) = builtin_parts(text)?;
    let stem = |file: &str| {
        Path::new(file)
            .file_stem()
            .map_or("kestrel".to_string(), |s| s.to_string_lossy().into_owned())
    };
    let mut spec = match params {
        None => EngineSpec::builtin("kestrel", EngineConfig::default()),
        Some(file) => EngineSpec::builtin_from_params(stem(file), Path::new(file))
            .map_err(|e| e.to_string())?,
    };
    // A params file holds the linear evaluation's weights, so it evaluates linearly unless
    // a network is named; plain `builtin` is Kestrel as shipped.
    let evaluation = match (net, params) {
        (Some(spec), _) => spec,
        (None, None) => default_evaluation_name(),
        (None, Some(_)) => LINEAR,
    };
    if let EngineSpec::Builtin { name, config } = &mut spec {
        let loaded = load_evaluation(evaluation).map_err(|e| format!("'{text}': {e}"))?;
        config.network = loaded.map(Arc::new);
        if params.is_none() && net.is_some() {
            *name = match evaluation {
                LINEAR => "kestrel-linear".to_string(),
                _ if BUILTIN_NAMES.contains(&evaluation) => "kestrel".to_string(),
                file => stem(file),
            };
        }
    }
    Ok(spec)
}

/// The params file and the network file of a built-in spec: `builtin`, `linear`,
/// `FILE.toml`, `FILE.knet`, or `builtin:` followed by `params=FILE` and/or `net=FILE`
/// (comma-separated; `net=builtin` is the compiled-in network, `net=linear` none).
fn builtin_parts(text: &str) -> Result<(Option<&str>, Option<&str>), String> {
    let unknown = || {
        format!(
            "unknown engine '{text}' (expected builtin, linear, builtin:params=FILE, \
             builtin:net=FILE, FILE.toml, FILE.knet or uci:COMMAND)"
        )
    };
    let Some(rest) = text.strip_prefix("builtin:") else {
        return match text {
            "builtin" => Ok((None, None)),
            LINEAR => Ok((None, Some(LINEAR))),
            _ if text.ends_with(".toml") => Ok((Some(text), None)),
            _ if text.ends_with(".knet") => Ok((None, Some(text))),
            _ => Err(unknown()),
        };
    };
    let (mut params, mut net) = (None, None);
    for part in rest.split(',') {
        let slot = match part.split_once('=') {
            Some(("params", file)) if !file.is_empty() => &mut params,
            Some(("net", file)) if !file.is_empty() => &mut net,
            _ => return Err(unknown()),
        };
        if slot.is_some() {
            return Err(format!("'{text}' names {part} twice"));
        }
        *slot = part.split_once('=').map(|(_, file)| file);
    }
    Ok((params, net))
}

/// `NAME=VALUE` pairs (the name may contain spaces, as UCI option names do).
pub fn parse_options(options: &[String]) -> Result<Vec<(String, String)>, String> {
    options
        .iter()
        .map(|o| {
            let (name, value) = o
                .split_once('=')
                .ok_or_else(|| format!("UCI option '{o}' must be NAME=VALUE"))?;
            if name.trim().is_empty() {
                return Err(format!("UCI option '{o}' has no name"));
            }
            Ok((name.trim().to_string(), value.trim().to_string()))
        })
        .collect()
}

/// Gives engines with the same name distinct names (`name`, `name#2`, ...), so that PGN and
/// tables can tell them apart.
pub fn make_names_unique(specs: &mut [EngineSpec]) {
    let names: Vec<String> = specs.iter().map(|s| s.name().to_string()).collect();
    for (i, spec) in specs.iter_mut().enumerate() {
        let same = names[..i].iter().filter(|n| **n == names[i]).count();
        if same > 0 {
            let new = format!("{}#{}", names[i], same + 1);
            match spec {
                EngineSpec::Builtin { name, .. } | EngineSpec::Uci { name, .. } => *name = new,
            }
        }
    }
}

/// `N` comma-separated non-negative integers.
pub fn comma_separated_counts<const N: usize>(text: &str) -> Result<[u64; N], String> {
    let values: Vec<u64> = text
        .split(',')
        .map(|v| {
            v.trim()
                .parse::<u64>()
                .map_err(|_| format!("'{}' is not a count", v.trim()))
        })
        .collect::<Result<_, _>>()?;
    values
        .try_into()
        .map_err(|v: Vec<u64>| format!("{} counts where {N} are needed", v.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        let t = UciTimeouts::default();
        let s = parse_engine_spec("builtin", &[], t).unwrap();
        assert!(matches!(s, EngineSpec::Builtin { .. }));
        let s = parse_engine_spec(
            "uci:/usr/games/stockfish --flag",
            &["Threads=1".into(), "Skill Level = 3".into()],
            t,
        )
        .unwrap();
        match s {
            EngineSpec::Uci {
                name,
                command,
                args,
                options,
                ..
            } => {
                assert_eq!(name, "stockfish");
                assert_eq!(command, "/usr/games/stockfish");
                assert_eq!(args, ["--flag"]);
                assert_eq!(
                    options,
                    [
                        ("Threads".to_string(), "1".to_string()),
                        ("Skill Level".to_string(), "3".to_string())
                    ]
                );
            }
            _ => panic!("expected a UCI spec"),
        }
        assert!(parse_engine_spec("uci:", &[], t).is_err());
        assert!(parse_engine_spec("stockfish", &[], t).is_err());
        assert!(parse_engine_spec("builtin", &["Hash=1".into()], t).is_err());
        assert!(parse_engine_spec("uci:x", &["novalue".into()], t).is_err());
        let err = parse_engine_spec("builtin:params=/nonexistent/p.toml", &[], t).unwrap_err();
        assert!(err.contains("/nonexistent/p.toml"), "{err}");
    }

    #[test]
    fn params_files_configure_builtin_engines() {
        let dir = std::env::temp_dir().join(format!("kestrel-spec-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("strong_knights.toml");
        // Take the first scalar, untapered-or-tapered evaluation parameter and change it.
        let decl = kestrel_eval::EVAL_TABLE
            .decls
            .iter()
            .find(|d| d.len == 1 && d.defaults[0] < d.max)
            .expect("the evaluation has a scalar parameter");
        let value = decl.defaults[0] + 1;
        let rendered = if decl.tapered {
            format!("[{value}, {}]", decl.defaults[1])
        } else {
            value.to_string()
        };
        std::fs::write(&file, format!("[eval]\n{} = {rendered}\n", decl.name)).unwrap();
        let spec = parse_engine_spec(file.to_str().unwrap(), &[], UciTimeouts::default()).unwrap();
        match &spec {
            EngineSpec::Builtin { name, config } => {
                assert_eq!(name, "strong_knights");
                let got = config.evaluator.params().get(decl.name).unwrap();
                assert_eq!(got[0], value);
            }
            _ => panic!("expected a built-in spec"),
        }
        std::fs::write(&file, "[eval]\nNO_SUCH_PARAM = 1\n").unwrap();
        assert!(parse_engine_spec(file.to_str().unwrap(), &[], UciTimeouts::default()).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn network_specs_load_the_network() {
        let t = UciTimeouts::default();
        let dir = std::env::temp_dir().join(format!("kestrel-spec-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("small.knet");
        let net = kestrel_nnue::Network::quantise(&kestrel_nnue::FloatNetwork::zeros(8)).unwrap();
        kestrel_nnue::file::write(&file, &net).unwrap();
        let path = file.to_str().unwrap();
        for text in [path.to_string(), format!("builtin:net={path}")] {
            match parse_engine_spec(&text, &[], t).unwrap() {
                EngineSpec::Builtin { name, config } => {
                    assert_eq!(name, "small");
                    assert_eq!(config.network.expect("a network").hidden(), 8);
                }
                _ => panic!("expected a built-in spec"),
            }
        }
        let params = dir.join("p.toml");
        std::fs::write(&params, "[eval]\n").unwrap();
        let both = format!("builtin:params={},net={path}", params.display());
        match parse_engine_spec(&both, &[], t).unwrap() {
            EngineSpec::Builtin { name, config } => {
                assert_eq!(name, "p");
                assert!(config.network.is_some());
            }
            _ => panic!("expected a built-in spec"),
        }
        let missing = parse_engine_spec("builtin:net=/nonexistent/x.knet", &[], t).unwrap_err();
        assert!(missing.contains("/nonexistent/x.knet"), "{missing}");
        assert!(parse_engine_spec("builtin:net=", &[], t).is_err());
        assert!(parse_engine_spec("builtin:speed=9", &[], t).is_err());
        let twice = format!("builtin:net={path},net={path}");
        assert!(
            parse_engine_spec(&twice, &[], t)
                .unwrap_err()
                .contains("twice")
        );
        let builtin = parse_engine_spec("builtin:net=builtin", &[], t);
        assert_eq!(builtin.is_ok(), kestrel_nnue::has_builtin_network());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn network_of(text: &str) -> Option<usize> {
        match parse_engine_spec(text, &[], UciTimeouts::default()).unwrap() {
            EngineSpec::Builtin { config, .. } => config.network.map(|n| n.hidden()),
            _ => panic!("expected a built-in spec"),
        }
    }

    #[test]
    fn builtin_is_kestrel_as_shipped_and_params_files_evaluate_linearly() {
        let shipped = kestrel_nnue::default_evaluation()
            .unwrap()
            .map(|n| n.hidden());
        assert_eq!(network_of("builtin"), shipped);
        assert_eq!(network_of("linear"), None);
        assert_eq!(network_of("builtin:net=linear"), None);
        let dir = std::env::temp_dir().join(format!("kestrel-spec-lin-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let params = dir.join("p.toml");
        std::fs::write(&params, "[eval]\n").unwrap();
        let file = params.to_str().unwrap();
        assert_eq!(network_of(file), None);
        assert_eq!(network_of(&format!("builtin:params={file}")), None);
        let names = ["linear", "builtin:net=linear"]
            .map(|t| parse_engine_spec(t, &[], UciTimeouts::default()).unwrap());
        assert!(names.iter().all(|s| s.name() == "kestrel-linear"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn duplicate_names_are_numbered() {
        let mut specs = vec![
            EngineSpec::builtin("kestrel", EngineConfig::default()),
            EngineSpec::builtin("kestrel", EngineConfig::default()),
            EngineSpec::uci("sf", "sf"),
        ];
        make_names_unique(&mut specs);
        let names: Vec<&str> = specs.iter().map(EngineSpec::name).collect();
        assert_eq!(names, ["kestrel", "kestrel#2", "sf"]);
    }
}
