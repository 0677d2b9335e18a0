//! `mechsynth completions SHELL` and `mechsynth man`: shell completion scripts and man pages,
//! both generated from the one definition of the command line that `main` parses
//! ([`crate::cli_command`]), so they cannot fall out of step with the flags.

use crate::common::{check_outputs, Output, UsageError};
use anyhow::{bail, Context, Result};
use clap_complete::Shell;
use std::io::Write;
use std::path::PathBuf;

/// The program name the scripts and pages use.
const BIN: &str = "mechsynth";

#[derive(clap::Args)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, powershell or elvish.
    #[arg(value_enum)]
    shell: Shell,
}

#[derive(clap::Args)]
pub struct ManArgs {
    /// The subcommand whose page to print on stdout (default: the page of `mechsynth`).
    command: Option<String>,
    /// Write every page (mechsynth.1 and mechsynth-COMMAND.1 for each subcommand) into this
    /// existing folder instead.
    #[arg(long, value_name = "DIR", conflicts_with = "command")]
    out: Option<PathBuf>,
    /// Replace pages that exist in the folder.
    #[arg(long)]
    force: bool,
}

/// Run `completions`: the script on stdout.
pub fn run_completions(args: CompletionsArgs) -> Result<u8> {
    let mut command = crate::cli_command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, BIN, &mut script);
    std::io::stdout().lock().write_all(&script)?;
    Ok(0)
}

/// Every man page: its file name and its roff text, the top page first.
pub fn pages() -> Result<Vec<(String, Vec<u8>)>> {
    let mut command = crate::cli_command()
        .name(BIN)
        .bin_name(BIN)
        .disable_help_subcommand(true);
    command.build();
    let mut pages = vec![render(command.clone())?];
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        // The page is named after `mechsynth-SUB`, as git's are, and its synopsis starts with
        // `mechsynth SUB`.
        let name = format!("{BIN}-{}", sub.get_name());
        let sub = sub
            .clone()
            .name(name.clone())
            .display_name(name)
            .bin_name(format!("{BIN} {}", sub.get_name()));
        pages.push(render(sub)?);
    }
    Ok(pages)
}

fn render(command: clap::Command) -> Result<(String, Vec<u8>)> {
    let man = clap_mangen::Man::new(command).source(format!("{BIN} {}", env!("CARGO_PKG_VERSION")));
    let mut text = Vec::new();
    man.render(&mut text).context("cannot render a man page")?;
    Ok((man.get_filename(), text))
}

/// Run `man`: one page on stdout, or every page into `--out DIR`.
pub fn run_man(args: ManArgs) -> Result<u8> {
    let pages = pages()?;
    let Some(dir) = &args.out else {
        let wanted = match &args.command {
            Some(sub) => format!("{BIN}-{sub}.1"),
            None => format!("{BIN}.1"),
        };
        let Some((_, text)) = pages.iter().find(|(name, _)| *name == wanted) else {
            let names: Vec<&str> = pages
                .iter()
                .skip(1)
                .map(|(n, _)| n.trim_start_matches("mechsynth-").trim_end_matches(".1"))
                .collect();
            bail!(UsageError(format!(
                "invalid COMMAND = {}: not a subcommand (one of {})",
                args.command.unwrap_or_default(),
                names.join(", ")
            )));
        };
        std::io::stdout().lock().write_all(text)?;
        return Ok(0);
    };
    crate::common::refuse_stdio("--out", dir, "it names a folder of pages")?;
    if !dir.is_dir() {
        bail!(UsageError(format!(
            "invalid `--out` = {}: not an existing folder; create it first",
            dir.display()
        )));
    }
    let paths: Vec<PathBuf> = pages.iter().map(|(name, _)| dir.join(name)).collect();
    let outputs: Vec<Output> = paths
        .iter()
        .map(|path| Output {
            flag: "--out",
            path,
        })
        .collect();
    check_outputs(&outputs, &[], args.force)?;
    for ((_, text), path) in pages.iter().zip(&paths) {
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    log_line!("wrote {} pages into {}", pages.len(), dir.display());
    Ok(0)
}
