//! `--engine uci:PATH` and its options on the tuners (`tune spsa`, `evolve games`): the
//! external engine under tuning, its fixed options, the time margin and `Move Overhead`, and
//! its tunables from an OpenBench input or its own option list, all checked before any game.

use anyhow::{Context, bail};
use clap::Args;
use kestrel_evolve::external::ExternalEngine;
use kestrel_evolve::external::tunables::{check_against, from_option_list, parse_openbench};
use kestrel_evolve::spsa::SpsaParam;
use kestrel_tools::EngineSpec;
use kestrel_tools::spec_parse::parse_engine_spec;
use kestrel_tools::uci_options::UciOptionDecl;
use kestrel_tools::uci_player::UciTimeouts;
use std::path::Path;
use std::time::Duration;

/// The external engine options of a tuner.
#[derive(Args, Debug, Clone)]
pub struct EngineArgs {
    /// Tune an external engine, `uci:PATH [ARGS]`, through its UCI options (set by setoption
    /// before each game) instead of Kestrel's own parameters.
    #[arg(long, value_name = "uci:PATH")]
    pub engine: Option<String>,
    /// A fixed option of the engine, `NAME=VALUE` or `@FILE` (NAME=VALUE lines), sent once
    /// after its start (repeatable) (default: none).
    #[arg(long = "option", value_name = "NAME=VALUE", requires = "engine")]
    pub option: Vec<String>,
    /// Sets the engine's `Move Overhead` option (ms) where it offers one (default: the
    /// engine's own).
    #[arg(long, value_name = "MS", requires = "engine")]
    pub move_overhead: Option<u64>,
    /// A clock overrun tolerated before a loss on time, ms.
    #[arg(long, default_value_t = 100, value_name = "MS")]
    pub time_margin: u64,
    /// Seconds the engine may take to answer `uci` or `isready`.
    #[arg(long, default_value_t = 10, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..))]
    pub engine_timeout: u64,
    /// Seconds the engine may take for one move at a node or depth limit before it counts as
    /// hung (at a clock: its time left plus 2 s).
    #[arg(long, default_value_t = 60, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..))]
    pub move_timeout: u64,
}

impl EngineArgs {
    /// The engine as named (not started yet), or `None` without `--engine`.
    pub fn engine(&self) -> anyhow::Result<Option<ExternalEngine>> {
        let Some(text) = &self.engine else {
            return Ok(None);
        };
        let timeouts = UciTimeouts {
            handshake: Duration::from_secs(self.engine_timeout),
            ..UciTimeouts::default()
        };
        let options = expand_option_files(&self.option)?;
        let spec = parse_engine_spec(text, &options, timeouts)
            .map_err(|e| anyhow::anyhow!("--engine: {e}"))?;
        let EngineSpec::Uci {
            command,
            args,
            options,
            ..
        } = spec
        else {
            bail!(
                "--engine must name a UCI engine, uci:PATH (Kestrel's own values need no --engine)"
            );
        };
        let mut engine = ExternalEngine::new(&command, &args, options);
        engine.handshake_ms = self.engine_timeout * 1000;
        engine.move_ms = self.move_timeout * 1000;
        Ok(Some(engine))
    }
}

/// Starts `engine` once: its option list (every fixed option checked), with `Move Overhead`
/// added to its fixed options when asked for and offered.
pub fn probe(
    engine: &mut ExternalEngine,
    move_overhead: Option<u64>,
) -> anyhow::Result<Vec<UciOptionDecl>> {
    let decls = engine.probe().map_err(anyhow::Error::msg)?;
    if let Some(ms) = move_overhead {
        match kestrel_tools::uci_options::find_option(&decls, "Move Overhead") {
            Some(d) => engine.options.push((d.name.clone(), ms.to_string())),
            None => eprintln!(
                "note: {} has no Move Overhead option; --move-overhead ignored",
                engine.command
            ),
        }
    }
    Ok(decls)
}

/// The tuned options: an OpenBench input (`input`), or the option list (`set`: `all` or
/// NAME,NAME,...), checked against the declarations; fixed options are never tuned.
pub fn tunables(
    engine: &ExternalEngine,
    decls: &[UciOptionDecl],
    input: Option<&Path>,
    set: Option<&str>,
) -> anyhow::Result<Vec<SpsaParam>> {
    let fixed: Vec<String> = engine.options.iter().map(|(n, _)| n.clone()).collect();
    let mut params = match (input, set) {
        (Some(path), _) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read --input {}", path.display()))?;
            parse_openbench(&text, &format!("--input {}", path.display()))
                .map_err(anyhow::Error::msg)?
        }
        (None, Some("all")) => from_option_list(decls, None, &fixed).map_err(anyhow::Error::msg)?,
        (None, Some(list)) => {
            let names: Vec<String> = list.split(',').map(|s| s.trim().to_string()).collect();
            from_option_list(decls, Some(&names), &fixed).map_err(anyhow::Error::msg)?
        }
        (None, None) => bail!(
            "name the engine's tuned options with --input FILE (OpenBench's format) or --set all|NAME,NAME"
        ),
    };
    check_against(&mut params, decls).map_err(anyhow::Error::msg)?;
    if let Some(p) = params
        .iter()
        .find(|p| fixed.iter().any(|f| f.eq_ignore_ascii_case(&p.name)))
    {
        bail!("{} is both tuned and fixed by --option", p.name);
    }
    Ok(params)
}

/// `NAME=VALUE` lines of an options file (`kestrel match --option-a @FILE`).
pub fn render_options(options: &[(String, String)]) -> String {
    options.iter().map(|(n, v)| format!("{n}={v}\n")).collect()
}

/// OpenBench's `NAME, value` lines.
pub fn render_openbench_values(options: &[(String, String)]) -> String {
    options.iter().map(|(n, v)| format!("{n}, {v}\n")).collect()
}

/// Reads an options file: `NAME=VALUE` per line (`#` comments, blank lines skipped).
pub fn read_options_file(path: &Path) -> anyhow::Result<Vec<String>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read options file {}", path.display()))?;
    let mut out = Vec::new();
    for (no, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if !line.contains('=') {
            bail!(
                "options file {} line {}: expected NAME=VALUE, got '{line}'",
                path.display(),
                no + 1
            );
        }
        out.push(line.to_string());
    }
    Ok(out)
}

/// `--option` values with every `@FILE` replaced by the file's lines.
pub fn expand_option_files(options: &[String]) -> anyhow::Result<Vec<String>> {
    let mut out = Vec::new();
    for o in options {
        match o.strip_prefix('@') {
            Some(path) => out.extend(read_options_file(Path::new(path))?),
            None => out.push(o.clone()),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `params/*.options` file is offered for `--option-a @FILE`: it must read through
    /// the same reader, and each line must name an option of its engine's OpenBench input
    /// (`toga2-…` → `params/toga2.spsa`) once, with a value inside that option's range.
    #[test]
    fn shipped_options_files_set_their_engines_options_in_range() {
        let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../params"));
        let mut checked = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|x| x != "options") {
                continue;
            }
            let file = path.file_name().unwrap().to_string_lossy().into_owned();
            let engine = file.split('-').next().unwrap();
            let input = dir.join(format!("{engine}.spsa"));
            let text = std::fs::read_to_string(&input)
                .unwrap_or_else(|e| panic!("{file}: cannot read {}: {e}", input.display()));
            let params = parse_openbench(&text, engine).unwrap();
            let lines = read_options_file(&path).unwrap();
            assert_eq!(lines.len(), params.len(), "{file} sets every option once");
            let mut seen = Vec::new();
            for line in lines {
                let (name, value) = line.split_once('=').unwrap();
                let p = params
                    .iter()
                    .find(|p| p.name == name)
                    .unwrap_or_else(|| panic!("{file}: {name} is not in {engine}.spsa"));
                let v: f64 = value
                    .parse()
                    .unwrap_or_else(|e| panic!("{file}: {name}={value}: {e}"));
                assert!(
                    (p.min..=p.max).contains(&v),
                    "{file}: {name}={v} outside [{}, {}]",
                    p.min,
                    p.max
                );
                assert!(!seen.contains(&name.to_string()), "{file}: {name} twice");
                seen.push(name.to_string());
            }
            checked += 1;
        }
        assert!(checked >= 10, "only {checked} options files in params/");
    }
}
