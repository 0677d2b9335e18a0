//! The library's imports go one way: every `crate::` path in `src/` (outside the binary and
//! outside plain comments; doc links count) names a top-level module of the same or a lower layer than the module it
//! is written in, and the imports between top-level modules form no cycle. The layers are read
//! from the table in `docs/architecture.md`, so that table is the one written copy.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `module -> layer`, from the rows `| N | `a`, `b` | ... |` of the layers table.
fn layers() -> BTreeMap<String, usize> {
    let text =
        fs::read_to_string(root().join("docs/architecture.md")).expect("docs/architecture.md");
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let Some(layer) = cells.get(1).and_then(|c| c.parse::<usize>().ok()) else {
            continue;
        };
        for name in cells[2].split(',') {
            let name = name.trim().trim_matches('`');
            assert!(
                out.insert(name.to_string(), layer).is_none(),
                "`{name}` is listed twice in docs/architecture.md"
            );
        }
    }
    out
}

/// The top-level modules of the library: `src/*.rs` and `src/*/` but `lib.rs` and `bin`.
fn top_level_modules() -> BTreeSet<String> {
    fs::read_dir(root().join("src"))
        .unwrap()
        .filter_map(|e| {
            let path = e.unwrap().path();
            let name = path.file_stem()?.to_str()?.to_string();
            let module = path.is_dir() || path.extension().is_some_and(|x| x == "rs");
            (module && name != "lib" && name != "bin").then_some(name)
        })
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The top-level modules named by `crate::` paths in `text` (plain comment lines left out,
/// doc comments kept),
/// including those inside `use crate::{a::.., b::..}` groups.
fn imported(text: &str) -> BTreeSet<String> {
    let code: String = text
        .lines()
        .filter(|l| {
            let l = l.trim_start();
            // Doc comments count: an intra-doc link is a dependency of the docs.
            !l.starts_with("//") || l.starts_with("///") || l.starts_with("//!")
        })
        .collect::<Vec<_>>()
        .join("\n");
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = BTreeSet::new();
    for (i, _) in code.match_indices("crate::") {
        // `mechsynth_solvers::` and other crates' paths end in `crate::` only as part of a
        // longer identifier.
        if code[..i].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                out.insert(ident(item.trim()));
            }
        } else {
            out.insert(ident(rest));
        }
    }
    out
}

/// `from -> {to: a file that imports it}` between distinct top-level modules.
fn edges(modules: &BTreeSet<String>) -> BTreeMap<String, BTreeMap<String, PathBuf>> {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    let mut out: BTreeMap<String, BTreeMap<String, PathBuf>> = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(root().join("src")).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_str()
            .unwrap();
        let from = first.trim_end_matches(".rs").to_string();
        if !modules.contains(&from) {
            continue;
        }
        for to in imported(&fs::read_to_string(&file).unwrap()) {
            if to != from && modules.contains(&to) {
                out.entry(from.clone())
                    .or_default()
                    .entry(to)
                    .or_insert_with(|| rel.to_path_buf());
            }
        }
    }
    out
}

#[test]
fn every_top_level_module_has_a_layer() {
    let (modules, layers) = (top_level_modules(), layers());
    let missing: Vec<_> = modules
        .iter()
        .filter(|m| !layers.contains_key(*m))
        .collect();
    let stale: Vec<_> = layers.keys().filter(|m| !modules.contains(*m)).collect();
    assert!(
        missing.is_empty(),
        "add these modules to the layers table of docs/architecture.md: {missing:?}"
    );
    assert!(
        stale.is_empty(),
        "docs/architecture.md lists modules that do not exist: {stale:?}"
    );
}

#[test]
fn no_import_climbs_a_layer() {
    let (modules, layers) = (top_level_modules(), layers());
    let mut climbs = Vec::new();
    for (from, targets) in edges(&modules) {
        for (to, file) in targets {
            if let (Some(a), Some(b)) = (layers.get(&from), layers.get(&to)) {
                if b > a {
                    climbs.push(format!(
                        "{} (layer {a}) imports `{to}` (layer {b})",
                        file.display()
                    ));
                }
            }
        }
    }
    assert!(
        climbs.is_empty(),
        "imports that climb a layer:\n{}",
        climbs.join("\n")
    );
}

#[test]
fn imports_between_top_level_modules_form_no_cycle() {
    let modules = top_level_modules();
    let edges = edges(&modules);
    // Depth-first search; a back edge closes a cycle, reported as the path around it.
    fn visit(
        v: &str,
        edges: &BTreeMap<String, BTreeMap<String, PathBuf>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(v.to_string(), 1);
        path.push(v.to_string());
        for w in edges.get(v).into_iter().flat_map(|t| t.keys()) {
            match state.get(w) {
                Some(1) => {
                    let at = path.iter().position(|p| p == w).unwrap();
                    let mut cycle = path[at..].to_vec();
                    cycle.push(w.clone());
                    return Some(cycle);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(w, edges, state, path) {
                        return Some(c);
                    }
                }
            }
        }
        path.pop();
        state.insert(v.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for m in &modules {
        if !state.contains_key(m) {
            let cycle = visit(m, &edges, &mut state, &mut Vec::new());
            assert!(
                cycle.is_none(),
                "import cycle: {}",
                cycle.unwrap().join(" -> ")
            );
        }
    }
}

#[test]
fn the_scanner_sees_grouped_inline_and_doc_paths_and_skips_plain_comments() {
    let text = "use crate::{channel::Channel, numeric};\n// crate::solve is named in a comment\n/// See [`crate::report::Report`].\nlet x = crate::policy::LP_MAX_INPUTS;\nuse mechsynth_solvers::LpStatus;";
    let found = imported(text);
    let expected: BTreeSet<String> = ["channel", "numeric", "policy", "report"]
        .map(String::from)
        .into();
    assert_eq!(found, expected);
}
