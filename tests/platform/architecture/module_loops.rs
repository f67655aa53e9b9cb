//! The workspace's module graph: two modules at the same level never depend on each other.
//!
//! The rule, checked over the `src/` of every workspace crate (the root package and every
//! `members` entry of the root `Cargo.toml`): among the child modules of one parent, the graph
//! "`a` uses something from `b`" has no cycle, direct (`a` ⇄ `b`) or longer (`a` → `b` → `c` →
//! `a`). A parent re-exporting its children, and children using items defined in the parent's
//! own file, are not edges: they are the ordinary shape of a Rust module.
//!
//! How it reads the code, by text and without a compiler:
//!
//! - A file is a module: `foo.rs` and `foo/mod.rs` are `foo`, `lib.rs` and `main.rs` the crate
//!   root. `mod name { … }` blocks are modules inside their file.
//! - Comments (doc comments included: an intra-doc link is not a dependency), string and
//!   character literals are blanked first. Test code is skipped: the body of `#[cfg(test)] mod
//!   … { … }` and every module declared `#[cfg(test)] mod …;`, since a test may reach anywhere
//!   to build its fixtures.
//! - A reference is a `use` declaration (groups included: `use super::{a::X, b}`) or a path in
//!   code that starts with `crate::`, `super::` or `self::` (`super::rules::copy_limit(…)`).
//!   A bare path in code (`rules::Format`) only names a module that a `use` already brought in.
//! - A path is followed through modules and through the names a module's own `use`
//!   declarations define, so `super::Day` from `format/rules.rs`, where `format/mod.rs` says
//!   `pub use day::Day`, is a reference to the sibling `day`. Glob imports (`use super::*`) are
//!   not followed: they name no item.
//! - A reference from module `p::a::…` to module `p::b::…` makes `a` depend on its sibling `b`,
//!   at every level `p` where the two paths part.
//!
//! A failure names each cycle with, for every step, the first place in the code that makes it.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

#[test]
fn no_import_loop_between_sibling_modules() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut report = String::new();
    for krate in workspace_crates(root) {
        for cycle in CrateGraph::read(root, &krate).cycles() {
            report.push_str(&cycle.describe());
        }
    }
    assert!(
        report.is_empty(),
        "sibling modules depend on each other (move what one needs from the other to where it \
         belongs, or to a small module of its own):\n\n{report}"
    );
}

/// Returns the directory of every workspace crate, relative to the workspace root: the root
/// package (`""`) and each entry of `[workspace] members`.
fn workspace_crates(root: &Path) -> Vec<PathBuf> {
    let manifest = fs::read_to_string(root.join("Cargo.toml")).expect("the root Cargo.toml");
    let start = manifest
        .find("members = [")
        .expect("the root Cargo.toml lists `members = [`");
    let list = &manifest[start + "members = [".len()..];
    let list = &list[..list.find(']').expect("`members` ends with `]`")];
    let mut crates = vec![PathBuf::new()];
    for member in list.split(',').map(str::trim).filter(|m| !m.is_empty()) {
        let member = member.trim_matches('"');
        assert!(
            !member.contains('*'),
            "member `{member}`: globs are not supported here; list the crate"
        );
        crates.push(PathBuf::from(member));
    }
    crates
}

/// A module's path inside its crate: `["domain", "format", "rules"]`; the crate root is `[]`.
type ModulePath = Vec<String>;

/// Where a step of a cycle comes from, for the failure message.
#[derive(Debug, Clone)]
struct Evidence {
    file: PathBuf,
    line: usize,
    path: String,
}

/// A path as written, before the crate's modules are known.
#[derive(Debug, Clone)]
enum Target {
    /// From the crate root: `crate::`, `super::` and `self::` paths, made absolute.
    Absolute(ModulePath),
    /// A bare `use` path (`use rules::Format` in `format/mod.rs`): a child of the module it is
    /// written in, or another crate.
    Bare(ModulePath),
}

#[derive(Debug)]
struct Reference {
    from: ModulePath,
    target: Target,
    evidence: Evidence,
}

/// What a crate's sources say: its modules, the names their `use` declarations define, and
/// every path that may reach another module.
#[derive(Debug, Default)]
struct CrateGraph {
    /// The crate's `src/`, relative to the workspace root.
    src: PathBuf,
    modules: BTreeSet<ModulePath>,
    /// Modules that only exist in tests (`#[cfg(test)] mod tests;`).
    test_modules: BTreeSet<ModulePath>,
    /// For each module, the names its `use` declarations define and what they stand for.
    aliases: BTreeMap<ModulePath, BTreeMap<String, Target>>,
    references: Vec<Reference>,
}

impl CrateGraph {
    /// Reads the `.rs` files under `krate/src`, `krate` relative to the workspace `root`.
    fn read(root: &Path, krate: &Path) -> Self {
        let src = krate.join("src");
        let mut files = Vec::new();
        rust_files(&root.join(&src), &mut files);
        let sources = files.into_iter().map(|file| {
            let text = fs::read_to_string(&file).expect("a readable source file");
            let relative = file.strip_prefix(root).expect("under the workspace root");
            (relative.to_path_buf(), text)
        });
        Self::from_sources(&src, sources)
    }

    /// Reads a crate's sources: each file's path (starting with `src`) and text.
    fn from_sources(src: &Path, sources: impl IntoIterator<Item = (PathBuf, String)>) -> Self {
        let mut graph = CrateGraph {
            src: src.to_path_buf(),
            ..CrateGraph::default()
        };
        // Every file's module is known before any path is followed.
        let mut scanned = Vec::new();
        for (file, text) in sources {
            let module = module_of_file(file.strip_prefix(src).expect("a file under src"));
            graph.modules.insert(module.clone());
            scanned.push((file, module, tokens(&blank_comments_and_literals(&text))));
        }
        for (file, module, tokens) in scanned {
            graph.scan(&file, module, &tokens);
        }
        graph
    }

    /// Records the inline modules, aliases and references of one file's tokens.
    fn scan(&mut self, file: &Path, module: ModulePath, tokens: &[Token]) {
        // The inline modules (`mod errno { … }`) open at this point, with the brace depth
        // their body closes at.
        let mut inline: Vec<(ModulePath, usize)> = Vec::new();
        let mut depth: usize = 0;
        let mut i = 0;
        while i < tokens.len() {
            let current = inline.last().map_or(&module, |(path, _)| path).clone();
            if is_cfg_test(&tokens[i..]) {
                i = self.skip_test_item(&current, tokens, i);
                continue;
            }
            match tokens[i].text.as_str() {
                "{" => depth += 1,
                "}" => {
                    depth = depth.saturating_sub(1);
                    if inline.last().is_some_and(|(_, close)| *close == depth) {
                        inline.pop();
                    }
                }
                "mod" if text_at(tokens, i + 2) == "{" => {
                    let mut path = current.clone();
                    path.push(tokens[i + 1].text.clone());
                    self.modules.insert(path.clone());
                    inline.push((path, depth));
                    depth += 1;
                    i += 3;
                    continue;
                }
                "use" => {
                    let end = (i..tokens.len())
                        .find(|&j| tokens[j].text == ";")
                        .unwrap_or(tokens.len());
                    let mut trees = Vec::new();
                    use_trees(&tokens[i + 1..end], &[], &mut trees);
                    for (path, alias) in trees {
                        self.add(file, tokens[i].line, &current, &path, alias);
                    }
                    i = end;
                    continue;
                }
                "crate" | "super" | "self"
                    if text_at(tokens, i + 1) == "::"
                        && (i == 0 || tokens[i - 1].text != "$")
                        && (i == 0 || tokens[i - 1].text != "::") =>
                {
                    let mut path = vec![tokens[i].text.clone()];
                    let mut j = i + 1;
                    while text_at(tokens, j) == "::" && is_ident(text_at(tokens, j + 1)) {
                        path.push(tokens[j + 1].text.clone());
                        j += 2;
                    }
                    self.add(file, tokens[i].line, &current, &path, None);
                    i = j;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
    }

    /// Skips `#[cfg(test)]`, any further attributes and the item after them when it is a
    /// module: its block, or the file it declares. Returns the index to go on from.
    fn skip_test_item(&mut self, current: &ModulePath, tokens: &[Token], mut i: usize) -> usize {
        while text_at(tokens, i) == "#" {
            i = closing(tokens, i + 1) + 1;
        }
        if text_at(tokens, i) == "pub" {
            i += 1;
            if text_at(tokens, i) == "(" {
                i = closing(tokens, i) + 1;
            }
        }
        if text_at(tokens, i) != "mod" {
            return i; // a test-only function or `use`: its paths are read like any other
        }
        let mut path = current.clone();
        path.push(text_at(tokens, i + 1).to_owned());
        match text_at(tokens, i + 2) {
            "{" => closing(tokens, i + 2) + 1,
            _ => {
                self.test_modules.insert(path);
                i + 2
            }
        }
    }

    /// Records a path written in module `from`, and the name it defines when it is a `use`.
    fn add(
        &mut self,
        file: &Path,
        line: usize,
        from: &ModulePath,
        path: &[String],
        alias: Option<String>,
    ) {
        let Some(target) = anchor(from, path) else {
            return;
        };
        if let Some(alias) = alias {
            self.aliases
                .entry(from.clone())
                .or_default()
                .insert(alias, target.clone());
        }
        self.references.push(Reference {
            from: from.clone(),
            target,
            evidence: Evidence {
                file: file.to_path_buf(),
                line,
                path: path.join("::"),
            },
        });
    }

    /// Returns the deepest module `target` reaches, written in module `from`, following the
    /// names `use` declarations define; `None` for a path into another crate.
    fn module_reached(
        &self,
        from: &ModulePath,
        target: &Target,
        hops: usize,
    ) -> Option<ModulePath> {
        let path = match target {
            Target::Absolute(path) => path.clone(),
            Target::Bare(path) => {
                let mut child = from.clone();
                child.push(path.first()?.clone());
                if !self.modules.contains(&child) {
                    return None;
                }
                from.iter().chain(path).cloned().collect()
            }
        };
        let mut module = ModulePath::new();
        for (index, segment) in path.iter().enumerate() {
            let mut child = module.clone();
            child.push(segment.clone());
            if self.modules.contains(&child) {
                module = child;
                continue;
            }
            // An item defined by a `use` in `module`: go on where it points. The bound stops
            // a `use` that names itself.
            if let Some(alias) = self
                .aliases
                .get(&module)
                .and_then(|names| names.get(segment))
                && hops < 16
            {
                let rest = &path[index + 1..];
                let through = match alias {
                    Target::Absolute(p) => {
                        Target::Absolute(p.iter().chain(rest).cloned().collect())
                    }
                    Target::Bare(p) => Target::Bare(p.iter().chain(rest).cloned().collect()),
                };
                return self
                    .module_reached(&module, &through, hops + 1)
                    .or(Some(module));
            }
            break;
        }
        Some(module)
    }

    /// Returns the cycles among the children of each module.
    fn cycles(&self) -> Vec<Cycle> {
        let mut levels: BTreeMap<ModulePath, Level> = BTreeMap::new();
        for reference in &self.references {
            let from = &reference.from;
            if self.test_modules.iter().any(|test| from.starts_with(test)) {
                continue;
            }
            let Some(to) = self.module_reached(from, &reference.target, 0) else {
                continue;
            };
            let shared = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if shared == from.len() || shared == to.len() {
                continue; // a module naming itself, one of its children or an ancestor
            }
            let level = levels.entry(from[..shared].to_vec()).or_default();
            level
                .edges
                .entry(from[shared].clone())
                .or_default()
                .insert(to[shared].clone());
            level
                .evidence
                .entry((from[shared].clone(), to[shared].clone()))
                .or_insert_with(|| reference.evidence.clone());
        }
        let mut cycles = Vec::new();
        for (parent, level) in &levels {
            let mut dir = self.src.clone();
            dir.extend(parent);
            for modules in find_cycles(&level.edges) {
                let steps = modules
                    .iter()
                    .zip(modules.iter().cycle().skip(1))
                    .map(|(a, b)| {
                        (
                            a.clone(),
                            b.clone(),
                            level.evidence[&(a.clone(), b.clone())].clone(),
                        )
                    })
                    .collect();
                cycles.push(Cycle {
                    parent: dir.display().to_string(),
                    modules,
                    steps,
                });
            }
        }
        cycles
    }
}

/// The dependencies among the children of one module.
#[derive(Debug, Default)]
struct Level {
    edges: BTreeMap<String, BTreeSet<String>>,
    evidence: BTreeMap<(String, String), Evidence>,
}

/// A cycle among the children of one module.
#[derive(Debug)]
struct Cycle {
    /// The parent module's directory (`services/decks/src/domain/format`).
    parent: String,
    modules: Vec<String>,
    steps: Vec<(String, String, Evidence)>,
}

impl Cycle {
    fn describe(&self) -> String {
        let mut names = self.modules.clone();
        names.push(self.modules[0].clone());
        let mut text = format!("{}: {}\n", self.parent, names.join(" → "));
        for (from, to, evidence) in &self.steps {
            let _ = writeln!(
                text,
                "    {from} → {to}: {}:{} `{}`",
                evidence.file.display(),
                evidence.line,
                evidence.path
            );
        }
        text.push('\n');
        text
    }
}

/// Returns a shortest cycle through each node that lies on one, each cycle once, starting at
/// its smallest node. Every strongly connected group of two or more nodes yields at least one.
fn find_cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let mut found = BTreeSet::new();
    for start in edges.keys() {
        // Breadth first from `start`, so the first way back to it is a shortest one.
        let mut came_from: BTreeMap<&String, &String> = BTreeMap::new();
        let mut queue = VecDeque::from([start]);
        'search: while let Some(node) = queue.pop_front() {
            for next in edges.get(node).into_iter().flatten() {
                if next == start {
                    let mut cycle = vec![node.clone()];
                    let mut at = node;
                    while at != start {
                        at = came_from[at];
                        cycle.push(at.clone());
                    }
                    cycle.reverse();
                    let smallest = (0..cycle.len())
                        .min_by_key(|&i| &cycle[i])
                        .expect("a cycle has a node");
                    cycle.rotate_left(smallest);
                    found.insert(cycle);
                    break 'search;
                }
                if !came_from.contains_key(next) {
                    came_from.insert(next, node);
                    queue.push_back(next);
                }
            }
        }
    }
    found.into_iter().collect()
}

/// Turns a path written in module `from` into one from the crate root, or keeps a bare one.
fn anchor(from: &ModulePath, path: &[String]) -> Option<Target> {
    match path.first().map(String::as_str) {
        Some("crate") => Some(Target::Absolute(path[1..].to_vec())),
        Some("self") => Some(Target::Absolute(
            from.iter().chain(&path[1..]).cloned().collect(),
        )),
        Some("super") => {
            let ups = path.iter().take_while(|s| *s == "super").count();
            let base = from.len().checked_sub(ups)?;
            Some(Target::Absolute(
                from[..base].iter().chain(&path[ups..]).cloned().collect(),
            ))
        }
        Some(_) => Some(Target::Bare(path.to_vec())),
        None => None,
    }
}

/// Expands a use tree (the tokens between `use` and `;`) into each path it names and the name
/// it defines: `super::{a::X, b as c, d::*}` gives `super::a::X` (`X`), `super::b` (`c`) and
/// `super::d` (a glob: no name).
fn use_trees(tokens: &[Token], prefix: &[String], out: &mut Vec<(Vec<String>, Option<String>)>) {
    if text_at(tokens, 0) == "::" {
        return; // `use ::other_crate::…`
    }
    let mut path = prefix.to_vec();
    // `{self}` and `{self as x}` name the prefix itself.
    let names_prefix = !prefix.is_empty() && text_at(tokens, 0) == "self";
    let mut i = usize::from(names_prefix);
    while i < tokens.len() {
        match tokens[i].text.as_str() {
            "::" => {}
            "*" => return out.push((path, None)),
            "as" => {
                let alias = text_at(tokens, i + 1);
                return out.push((path, (alias != "_").then(|| alias.to_owned())));
            }
            "{" => {
                let group = &tokens[i + 1..closing(tokens, i)];
                let mut start = 0;
                for (j, token) in group.iter().enumerate() {
                    if token.text == "," && group_depth(&group[start..j]) == 0 {
                        use_trees(&group[start..j], &path, out);
                        start = j + 1;
                    }
                }
                return use_trees(&group[start..], &path, out);
            }
            segment => path.push(segment.to_owned()),
        }
        i += 1;
    }
    if path.len() > prefix.len() || names_prefix {
        let name = path.last().cloned();
        out.push((path, name));
    }
}

/// Returns how many `{` the tokens leave open.
fn group_depth(tokens: &[Token]) -> i32 {
    tokens
        .iter()
        .fold(0, |depth, token| match token.text.as_str() {
            "{" => depth + 1,
            "}" => depth - 1,
            _ => depth,
        })
}

/// Returns whether the tokens start with `#[cfg(test)]`.
fn is_cfg_test(tokens: &[Token]) -> bool {
    let texts = ["#", "[", "cfg", "(", "test", ")", "]"];
    tokens.len() >= texts.len()
        && tokens
            .iter()
            .zip(texts)
            .all(|(token, text)| token.text == text)
}

/// Returns the index of the bracket closing the one at `open`.
fn closing(tokens: &[Token], open: usize) -> usize {
    let (opening, close) = match text_at(tokens, open) {
        "{" => ("{", "}"),
        "[" => ("[", "]"),
        "(" => ("(", ")"),
        other => panic!("`{other}` opens nothing"),
    };
    let mut depth = 0;
    for (i, token) in tokens.iter().enumerate().skip(open) {
        if token.text == opening {
            depth += 1;
        } else if token.text == close {
            depth -= 1;
            if depth == 0 {
                return i;
            }
        }
    }
    tokens.len() - 1
}

fn text_at(tokens: &[Token], i: usize) -> &str {
    tokens.get(i).map_or("", |token| token.text.as_str())
}

fn is_ident(text: &str) -> bool {
    text.starts_with(|c: char| c.is_alphabetic() || c == '_')
}

/// The `.rs` files under `dir`, depth first.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|err| panic!("{}: {err}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// Returns the module a file under `src/` is: `a/b.rs` and `a/b/mod.rs` are `a::b`.
fn module_of_file(relative: &Path) -> ModulePath {
    let mut path: ModulePath = relative
        .with_extension("")
        .iter()
        .map(|part| part.to_string_lossy().into_owned())
        .collect();
    if path.last().is_some_and(|last| last == "mod") || path == ["lib"] || path == ["main"] {
        path.pop();
    }
    path
}

/// A word or a punctuation mark of the source, and its line (1-based).
#[derive(Debug, Clone, PartialEq)]
struct Token {
    text: String,
    line: usize,
}

/// Splits blanked source into words (identifiers, keywords, numbers), `::` and single marks.
fn tokens(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            // A raw identifier (`r#type`) is the word after `r#`.
            if word == "r" && chars.get(i) == Some(&'#') {
                i += 1;
                continue;
            }
            out.push(Token { text: word, line });
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push(Token {
                text: "::".into(),
                line,
            });
            i += 2;
        } else {
            out.push(Token {
                text: c.into(),
                line,
            });
            i += 1;
        }
    }
    out
}

/// Replaces comments, string literals and character literals with spaces, keeping every line
/// break, so that what is left is code and the line numbers still hold.
fn blank_comments_and_literals(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let blank = |out: &mut String, from: &[char]| {
        out.extend(from.iter().map(|&c| if c == '\n' { '\n' } else { ' ' }));
    };
    let mut i = 0;
    while i < chars.len() {
        let rest = &chars[i..];
        let after_word = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        let end = if rest.starts_with(&['/', '/']) {
            i + rest.iter().position(|&c| c == '\n').unwrap_or(rest.len())
        } else if rest.starts_with(&['/', '*']) {
            block_comment_end(&chars, i)
        } else if rest[0] == '"' {
            string_end(&chars, i + 1)
        } else if !after_word && let Some(end) = raw_string_end(&chars, i) {
            end
        } else if rest[0] == '\''
            && let Some(end) = char_literal_end(&chars, i)
        {
            end
        } else {
            out.push(rest[0]);
            i += 1;
            continue;
        };
        blank(&mut out, &chars[i..end]);
        i = end;
    }
    out
}

/// Returns the index after the `*/` closing the (possibly nested) comment opened at `start`.
fn block_comment_end(chars: &[char], start: usize) -> usize {
    let (mut i, mut depth) = (start, 0);
    while i < chars.len() {
        if chars[i..].starts_with(&['/', '*']) {
            depth += 1;
            i += 2;
        } else if chars[i..].starts_with(&['*', '/']) {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    chars.len()
}

/// Returns the index after the `"` closing a string whose text starts at `start`.
fn string_end(chars: &[char], mut i: usize) -> usize {
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '"' => return i + 1,
            _ => i += 1,
        }
    }
    chars.len()
}

/// Returns the index after a raw string (`r"…"`, `br#"…"#`, `cr"…"`) starting at `start`.
fn raw_string_end(chars: &[char], start: usize) -> Option<usize> {
    let mut i = start;
    if matches!(chars.get(i), Some('b' | 'c')) {
        i += 1;
    }
    if chars.get(i) != Some(&'r') {
        return None;
    }
    i += 1;
    let hashes = chars[i..].iter().take_while(|&&c| c == '#').count();
    i += hashes;
    if chars.get(i) != Some(&'"') {
        return None; // a raw identifier (`r#type`) or a word starting with `r`
    }
    i += 1;
    while i < chars.len() {
        if chars[i] == '"'
            && chars[i + 1..]
                .iter()
                .take(hashes)
                .filter(|&&c| c == '#')
                .count()
                == hashes
        {
            return Some(i + 1 + hashes);
        }
        i += 1;
    }
    Some(chars.len())
}

/// Returns the index after a character literal starting at `start` (`'a'`, `'\''`, `'\u{e9}'`),
/// or `None` for a lifetime or a label (`'a`, `'search:`).
fn char_literal_end(chars: &[char], start: usize) -> Option<usize> {
    match chars.get(start + 1)? {
        '\\' => {
            let close = chars[start + 3..].iter().position(|&c| c == '\'')?;
            Some(start + 3 + close + 1)
        }
        _ if chars.get(start + 2) == Some(&'\'') => Some(start + 3),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(edges: &[(&str, &str)]) -> BTreeMap<String, BTreeSet<String>> {
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (from, to) in edges {
            graph
                .entry((*from).into())
                .or_default()
                .insert((*to).into());
        }
        graph
    }

    #[test]
    fn the_cycle_finder_names_a_direct_loop_and_a_longer_one() {
        let edges = graph(&[
            ("rules", "taboo"),
            ("taboo", "rules"),
            ("check", "report"),
            ("report", "ruling"),
            ("ruling", "check"),
            ("json", "rules"),
            ("values", "error"),
        ]);
        assert_eq!(
            find_cycles(&edges),
            [vec!["check", "report", "ruling"], vec!["rules", "taboo"]]
        );
    }

    #[test]
    fn the_cycle_finder_finds_none_in_a_graph_pointing_one_way() {
        let edges = graph(&[("rules", "taboo"), ("rules", "values"), ("taboo", "values")]);
        assert!(find_cycles(&edges).is_empty());
    }

    #[test]
    fn comments_strings_and_char_literals_are_blanked_but_lifetimes_stay() {
        let source = "let a = \"super::x\"; // super::y\n/* super::z */ let b = '\"'; fn f<'a>() {}\nr#\"super::w\"#";
        let blanked = blank_comments_and_literals(source);
        assert!(!blanked.contains("super"), "{blanked}");
        assert!(blanked.contains("fn f<'a>() {}"), "{blanked}");
        assert_eq!(blanked.lines().count(), source.lines().count());
    }

    #[test]
    fn a_use_group_names_each_path() {
        let mut trees = Vec::new();
        let tokens = tokens("super::{a::X, b as c, d::*, e::{self, F}}");
        use_trees(&tokens, &[], &mut trees);
        let s = |path: &[&str], alias: Option<&str>| {
            (
                path.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
                alias.map(str::to_owned),
            )
        };
        assert_eq!(
            trees,
            [
                s(&["super", "a", "X"], Some("X")),
                s(&["super", "b"], Some("c")),
                s(&["super", "d"], None),
                s(&["super", "e"], Some("e")),
                s(&["super", "e", "F"], Some("F")),
            ]
        );
    }

    fn crate_of(files: &[(&str, &str)]) -> CrateGraph {
        let sources = files
            .iter()
            .map(|(path, text)| (PathBuf::from(path), (*text).to_owned()));
        CrateGraph::from_sources(Path::new("src"), sources)
    }

    fn described(graph: &CrateGraph) -> Vec<String> {
        graph.cycles().iter().map(Cycle::describe).collect()
    }

    #[test]
    fn a_loop_through_a_re_export_of_the_parent_is_found_and_named() {
        let graph = crate_of(&[
            ("src/lib.rs", "mod format;"),
            (
                "src/format/mod.rs",
                "mod day;\nmod rules;\npub use day::Day;",
            ),
            (
                "src/format/rules.rs",
                "pub struct Format;\nfn on(day: super::Day) {}",
            ),
            (
                "src/format/day.rs",
                "use super::rules::{self, Format};\npub struct Day;",
            ),
        ]);
        assert_eq!(
            described(&graph),
            ["src/format: day → rules → day\n    \
              day → rules: src/format/day.rs:1 `super::rules`\n    \
              rules → day: src/format/rules.rs:2 `super::Day`\n\n"]
        );
    }

    #[test]
    fn a_loop_between_the_subtrees_of_two_siblings_is_a_loop_between_them() {
        let graph = crate_of(&[
            ("src/main.rs", "mod grpc;\nmod domain;"),
            ("src/domain/mod.rs", "mod deck;"),
            ("src/domain/deck.rs", "fn f() { crate::grpc::serve(); }"),
            ("src/grpc.rs", "use crate::domain::deck;"),
        ]);
        assert_eq!(graph.cycles()[0].modules, ["domain", "grpc"]);
    }

    #[test]
    fn super_in_an_inline_module_counts_from_that_module() {
        let graph = crate_of(&[
            ("src/lib.rs", "mod a;\nmod b;"),
            ("src/a.rs", "mod inner {\n    use super::super::b::B;\n}"),
            ("src/b.rs", "pub struct B;\nfn f() { crate::a::g(); }"),
        ]);
        assert_eq!(
            described(&graph),
            ["src: a → b → a\n    \
              a → b: src/a.rs:2 `super::super::b::B`\n    \
              b → a: src/b.rs:2 `crate::a::g`\n\n"]
        );
    }

    #[test]
    fn parents_children_tests_comments_and_strings_make_no_loop() {
        let graph = crate_of(&[
            (
                "src/lib.rs",
                "mod a;\nmod b;\npub use a::A;\nconst LIMIT: u32 = 3;",
            ),
            (
                "src/a.rs",
                "use crate::b::B;\nfn f() -> u32 { super::LIMIT }",
            ),
            (
                "src/b.rs",
                "// crate::a::A\nconst S: &str = \"super::a\";\n\
                 #[cfg(test)]\nmod tests {\n    use crate::a::A;\n}\n\
                 #[cfg(test)]\nmod fixtures;",
            ),
            ("src/b/fixtures.rs", "use crate::a::A;"),
        ]);
        assert!(graph.cycles().is_empty(), "{:?}", described(&graph));
    }
}
