//! Relative paths in a config mean the same wherever toolshape is started: they resolve
//! against the config file's folder, as agents start toolshape from folders of their own.
//!
//! What is resolved: an upstream's `cwd` (and an upstream with no `cwd` starts in the
//! config's folder), a `command` program written as a path (`./bin/server`, `tools/x`; a bare
//! name such as `npx` is still looked up on PATH), `telemetry.spans` and `store.path`.

use std::path::{Path, PathBuf};

use toolshape_mask::Config;

/// The folder relative paths of the config at `config_path` resolve against.
pub(crate) fn config_dir(config_path: &Path) -> PathBuf {
    let absolute = std::path::absolute(config_path).unwrap_or_else(|_| config_path.to_path_buf());
    absolute.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Resolve `config`'s relative paths against `dir`.
pub(crate) fn resolve(config: &mut Config, dir: &Path) {
    let against = |p: &str| -> String {
        if Path::new(p).is_absolute() { p.to_owned() } else { dir.join(p).to_string_lossy().into_owned() }
    };
    for upstream in config.upstreams.values_mut() {
        if let Some(argv) = upstream.command.as_mut()
            && let Some(program) = argv.first_mut()
            && (program.contains('/') || program.contains(std::path::MAIN_SEPARATOR))
        {
            *program = against(program);
        }
        if upstream.command.is_some() {
            upstream.cwd = Some(upstream.cwd.as_deref().map_or_else(|| dir.to_string_lossy().into_owned(), against));
        }
    }
    if !config.telemetry.spans_off()
        && let Some(spans) = config.telemetry.spans.as_mut()
    {
        *spans = against(spans);
    }
    if let Some(path) = config.store.path.as_mut() {
        *path = against(path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_resolve_against_the_config_folder() {
        let yaml = "upstreams:\n  a: { command: [./bin/server, --data, ./data] }\n  b: { command: [npx, x], cwd: sub }\n  c: { command: [uvx, y], cwd: /abs }\n  d: { url: 'http://127.0.0.1:1/mcp' }\ntelemetry: { spans: logs/spans.sqlite }\nstore: { backend: sqlite, path: state.sqlite }\n";
        let mut config = Config::parse(yaml, "t.yaml", &|_| None).expect("parses");
        resolve(&mut config, Path::new("/etc/ts"));
        let a = &config.upstreams["a"];
        assert_eq!(a.command.as_deref().map(|c| c[0].as_str()), Some("/etc/ts/./bin/server"));
        // Arguments are the server's business: left as written, read from the config's folder.
        assert_eq!(a.command.as_deref().map(|c| c[2].as_str()), Some("./data"));
        assert_eq!(a.cwd.as_deref(), Some("/etc/ts"));
        assert_eq!(config.upstreams["b"].command.as_deref().map(|c| c[0].as_str()), Some("npx"));
        assert_eq!(config.upstreams["b"].cwd.as_deref(), Some("/etc/ts/sub"));
        assert_eq!(config.upstreams["c"].cwd.as_deref(), Some("/abs"));
        assert_eq!(config.upstreams["d"].cwd, None);
        assert_eq!(config.telemetry.spans.as_deref(), Some("/etc/ts/logs/spans.sqlite"));
        assert_eq!(config.store.path.as_deref(), Some("/etc/ts/state.sqlite"));
    }
}
