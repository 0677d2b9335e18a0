//! Every command shown in `README.md` and `docs/*.md` is run, and its output compared with the
//! output shown.
//!
//! The pages are read by `trycmd`: in a ```` ```console ```` block, a line `$ mechsynth ...` is
//! a command, an optional `? N` line after it its exit code (0 when absent), and the lines up
//! to the next `$` line or the end of the block its expected output, standard error merged
//! into standard output. `[..]` matches the rest of a line up to the text that follows it, and
//! a line `...` any number of lines; they stand for timings, paths and other run-dependent
//! text. Blocks tagged `sh`, `text`, `toml` or `rust` are not run.
//!
//! A markdown page has no working directory of its own in `trycmd`: its commands run in the
//! test process's current directory. Each page is therefore copied, with the inputs the
//! commands read (`problems/`, `examples/`, `figures/`), into a fresh scratch directory laid
//! out like the repository, and its commands run there, one page after the other. Paths in the
//! pages are the ones a user types at the root of a checkout, and the files the commands write
//! (`-o survey.json`, `figures --force`, ...) land in the scratch copy, which is deleted
//! afterwards: the checkout is never modified. After `docs/figures.md`, the CSV files its
//! commands regenerated in the copy of `figures/out/` are compared with the committed ones.
//!
//! `TRYCMD=overwrite cargo test --release --test docs` writes the actual output back into the
//! pages (review the diff: wildcards are replaced by what this run printed).

mod figures;

use std::path::{Path, PathBuf};

/// The inputs the commands in the pages read, copied into every scratch directory.
const INPUT_DIRS: [&str; 3] = ["problems", "examples", "figures"];

fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `README.md` and every page under `docs/`, as paths relative to the repository root.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![PathBuf::from("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(repo_root().join("docs"))
        .expect("docs/ is readable")
        .map(|entry| entry.expect("docs/ entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .map(|path| Path::new("docs").join(path.file_name().expect("a file name")))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

pub(crate) fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("create {}: {e}", to.display()));
    for entry in std::fs::read_dir(from).unwrap_or_else(|e| panic!("read {}: {e}", from.display()))
    {
        let entry = entry.expect("directory entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target)
                .unwrap_or_else(|e| panic!("copy {}: {e}", entry.path().display()));
        }
    }
}

/// A directory under the system's temporary directory, removed when dropped (also when the
/// test fails, so a failing run leaves nothing behind).
pub(crate) struct Scratch(PathBuf);

impl Scratch {
    pub(crate) fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("mechsynth-docs-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create the scratch directory");
        Scratch(dir)
    }

    pub(crate) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn commands_in_readme_and_docs() {
    let bin = Path::new(env!("CARGO_BIN_EXE_mechsynth"));
    let overwrite = std::env::var_os("TRYCMD").is_some_and(|mode| mode == "overwrite");
    // A terminal's width would cut the tables the pages show whole.
    std::env::remove_var("COLUMNS");
    let mut failed = Vec::new();
    for page in pages() {
        let name = page.to_string_lossy().replace(['/', '.'], "-");
        let scratch = Scratch::new(&name);
        for dir in INPUT_DIRS {
            copy_dir(&repo_root().join(dir), &scratch.path().join(dir));
        }
        let copy = scratch.path().join(&page);
        std::fs::create_dir_all(copy.parent().expect("a parent")).expect("create docs/");
        std::fs::copy(repo_root().join(&page), &copy).expect("copy the page");

        // trycmd runs a markdown page's commands in the current directory.
        std::env::set_current_dir(scratch.path()).expect("enter the scratch directory");
        eprintln!("running the commands of {}", page.display());
        let cases = trycmd::TestCases::new();
        cases.register_bin("mechsynth", bin).case(&copy);
        let outcome = std::panic::catch_unwind(|| cases.run());
        std::env::set_current_dir(repo_root()).expect("back to the repository root");
        if overwrite {
            std::fs::copy(&copy, repo_root().join(&page)).expect("write the page back");
        }
        if outcome.is_err() {
            // trycmd has printed the differences; go on with the other pages.
            failed.push(page.display().to_string());
            continue;
        }

        if page == Path::new("docs/figures.md") {
            // The page regenerates every figure into the copy of figures/out.
            let committed = figures::csv_files(&repo_root().join("figures/out"));
            let compared = figures::compare_dir(
                &scratch.path().join("figures/out"),
                &repo_root().join("figures/out"),
            );
            assert_eq!(
                compared, committed,
                "docs/figures.md regenerates every committed CSV file"
            );
        }
    }
    assert!(
        failed.is_empty(),
        "commands whose output differs from the page: {failed:?}"
    );
}
