//! Every flag of every command has a one-line help, and every optional flag that takes a value
//! shows its default: `[default: ...]` from clap, or its help says what leaving it out means
//! (`(default: off)`, or "X instead", "... unless", "... without it").

use crate::Cli;
use clap::CommandFactory;

/// The problems of `cmd` and its subcommands, one line each, named by the command path.
fn audit(cmd: &clap::Command, path: &str, problems: &mut Vec<String>) {
    for arg in cmd.get_arguments() {
        let id = arg.get_id().as_str();
        if arg.is_hide_set() || id == "help" || id == "version" {
            continue;
        }
        let name = match arg.get_long() {
            Some(long) => format!("--{long}"),
            None => format!("<{id}>"),
        };
        let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
        if help.trim().is_empty() {
            problems.push(format!("{path} {name}: no help"));
            continue;
        }
        if help.trim().contains('\n') {
            problems.push(format!("{path} {name}: help of more than one line"));
        }
        let takes_value = arg.get_num_args().is_some_and(|n| n.takes_values());
        let optional = !arg.is_required_set() && arg.get_long().is_some();
        if takes_value && optional && arg.get_default_values().is_empty() {
            let lower = help.to_lowercase();
            let absence_told = [
                "default",
                "instead",
                "unless",
                "without it",
                "(none",
                "else",
            ];
            if !absence_told.iter().any(|words| lower.contains(words)) {
                problems.push(format!("{path} {name}: no default shown: {help}"));
            }
        }
    }
    for sub in cmd.get_subcommands() {
        let sub_path = format!("{path} {}", sub.get_name());
        if sub
            .get_about()
            .is_none_or(|a| a.to_string().trim().is_empty())
        {
            problems.push(format!("{sub_path}: no description"));
        }
        audit(sub, &sub_path, problems);
    }
}

#[test]
fn every_flag_of_every_command_has_a_help_line_and_a_shown_default() {
    let mut cmd = Cli::command();
    cmd.build();
    let mut problems = Vec::new();
    audit(&cmd, "kestrel", &mut problems);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
