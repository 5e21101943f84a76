//! `kestrel tune spsa-input`: the SPSA tuner's input for the declared parameters, in
//! OpenBench's format (`NAME, int, value, min, max, c_end, r_end`) or as JSON. Every name is a
//! UCI option (`setoption name PST_KNIGHT_EG_12 value 5`) and a params-file key, so the tuner's
//! results go straight back into the engine (docs/params.md).

use crate::commands::checked;
use clap::{Args, ValueEnum};
use kestrel_eval::COMPACT_SET;
use kestrel_params::{ParamValues, SpsaLine, render_openbench, spsa_lines};
use kestrel_search::{EngineParams, FALCON_SET, SEARCH_TABLE};
use std::path::PathBuf;

#[derive(Clone, Copy, ValueEnum)]
enum FormatArg {
    /// OpenBench's SPSA input, one `NAME, int, value, min, max, c_end, r_end` line each.
    Openbench,
    /// A JSON array of {name, section, value, min, max, c_end, r_end}.
    Json,
}

/// Which tables' parameters.
#[derive(Clone, Copy, ValueEnum)]
pub enum TableArg {
    Eval,
    Search,
    Both,
}

/// Arguments of `kestrel tune spsa-input`.
#[derive(Args)]
pub struct SpsaInputArgs {
    /// Start values from this params file (`[eval]` and/or `[search]`); default: the defaults.
    #[arg(long, value_name = "FILE")]
    params: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "openbench")]
    format: FormatArg,
    /// Which tables' parameters.
    #[arg(long, value_enum, default_value = "both")]
    table: TableArg,
    /// Which parameters: `all` (every one with a step: switches and choices left out),
    /// `compact` (the evaluation's 35), `falcon` (the search's 18 numeric ones) or
    /// NAME,NAME,... (declarations or single elements such as PST_KNIGHT_EG_12).
    #[arg(long, default_value = "all", value_name = "all|compact|falcon|NAMES")]
    set: String,
    /// OpenBench's r_end (learning rate at the end of the run).
    #[arg(long, default_value_t = kestrel_params::DEFAULT_R_END, value_parser = checked::positive_f64)]
    r_end: f64,
    /// An external engine, `uci:PATH [ARGS]`: print its spin options (set-up ones left out)
    /// at their defaults over their ranges, c_end a twentieth of the range.
    #[arg(long, value_name = "uci:PATH")]
    engine: Option<String>,
    /// A fixed option of --engine, `NAME=VALUE` (left out of the lines; repeatable) (default:
    /// none).
    #[arg(long = "option", value_name = "NAME=VALUE", requires = "engine")]
    option: Vec<String>,
}

/// The engine's option list as OpenBench lines.
fn engine_lines(a: &SpsaInputArgs, text: &str) -> anyhow::Result<String> {
    let spec = kestrel_tools::spec_parse::parse_engine_spec(
        text,
        &a.option,
        kestrel_tools::uci_player::UciTimeouts::default(),
    )
    .map_err(|e| anyhow::anyhow!("--engine: {e}"))?;
    let kestrel_tools::EngineSpec::Uci {
        command,
        args,
        options,
        ..
    } = spec
    else {
        anyhow::bail!("--engine must name a UCI engine, uci:PATH");
    };
    let engine = kestrel_evolve::external::ExternalEngine::new(&command, &args, options);
    let decls = engine.probe().map_err(anyhow::Error::msg)?;
    let fixed: Vec<String> = engine.options.iter().map(|(n, _)| n.clone()).collect();
    let params = kestrel_evolve::external::tunables::from_option_list(&decls, None, &fixed)
        .map_err(anyhow::Error::msg)?;
    Ok(params
        .iter()
        .map(|p| {
            format!(
                "{}, int, {}, {}, {}, {}, {}\n",
                p.name, p.start, p.min, p.max, p.c_end, a.r_end
            )
        })
        .collect())
}

/// The names a `--set` value selects (`None`: every parameter with a step).
pub fn selection(set: &str) -> Option<Vec<String>> {
    let owned = |names: &[&str]| names.iter().map(|s| s.to_string()).collect();
    match set {
        "all" => None,
        "compact" => Some(owned(COMPACT_SET)),
        // Falcon's switches are on/off genes, which SPSA does not tune.
        "falcon" => Some(
            FALCON_SET
                .iter()
                .filter(|n| {
                    SEARCH_TABLE
                        .find(n)
                        .is_some_and(|i| SEARCH_TABLE.decls[i].spsa_step().is_some())
                })
                .map(|s| s.to_string())
                .collect(),
        ),
        list => Some(list.split(',').map(|s| s.trim().to_string()).collect()),
    }
}

/// The SPSA lines for the arguments.
fn lines(a: &SpsaInputArgs) -> anyhow::Result<Vec<SpsaLine>> {
    let params = match &a.params {
        Some(path) => EngineParams::load(path, "--params")?,
        None => EngineParams::default(),
    };
    let sets: Vec<&ParamValues> = match a.table {
        TableArg::Eval => vec![&params.eval],
        TableArg::Search => vec![&params.search],
        TableArg::Both => vec![&params.eval, &params.search],
    };
    let mut lines = spsa_lines(&sets, selection(&a.set).as_deref())
        .map_err(|e| anyhow::anyhow!("--set {}: {e}", a.set))?;
    anyhow::ensure!(!lines.is_empty(), "--set {} selects nothing", a.set);
    for l in &mut lines {
        l.r_end = a.r_end;
    }
    Ok(lines)
}

/// Runs `kestrel tune spsa-input`.
pub fn run(a: SpsaInputArgs) -> anyhow::Result<()> {
    if let Some(engine) = &a.engine {
        print!("{}", engine_lines(&a, engine)?);
        return Ok(());
    }
    let lines = lines(&a)?;
    match a.format {
        FormatArg::Openbench => print!("{}", render_openbench(&lines)),
        FormatArg::Json => println!("{}", serde_json::to_string_pretty(&lines)?),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(set: &str, table: TableArg) -> SpsaInputArgs {
        SpsaInputArgs {
            params: None,
            format: FormatArg::Openbench,
            table,
            set: set.into(),
            r_end: 0.002,
            engine: None,
            option: Vec::new(),
        }
    }

    #[test]
    fn falcon_set_is_the_numeric_genes_with_declared_steps() {
        let l = lines(&args("falcon", TableArg::Search)).unwrap();
        assert_eq!(l.len(), 15);
        let text = render_openbench(&l);
        assert!(
            text.contains("FUTILITY_MARGIN_1, int, 106, 0, 1023, 10, 0.002\n"),
            "{text}"
        );
        assert!(
            text.contains("NULL_MOVE_R, int, 4, 0, 7, 1, 0.002\n"),
            "{text}"
        );
    }

    #[test]
    fn tapered_tables_give_one_line_per_element() {
        let l = lines(&args("PST_KNIGHT,BISHOP_PAIR", TableArg::Both)).unwrap();
        assert_eq!(l.len(), 128 + 1);
        // Declaration order, not the order of --set.
        assert_eq!(
            (l[0].name.as_str(), l[1].name.as_str()),
            ("BISHOP_PAIR", "PST_KNIGHT_MG_0")
        );
        assert!(
            l.iter()
                .any(|x| x.name == "PST_KNIGHT_EG_63" && x.c_end == 4.0)
        );
        let all = lines(&args("all", TableArg::Both)).unwrap();
        assert!(
            all.iter()
                .all(|x| x.name != "USE_LMR" && x.name != "QUIET_ORDER")
        );
        assert!(lines(&args("USE_LMR", TableArg::Search)).is_err());
        assert!(lines(&args("NOT_A_PARAM", TableArg::Both)).is_err());
        assert!(lines(&args("PST_KNIGHT", TableArg::Search)).is_err());
    }
}
