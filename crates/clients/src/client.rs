//! The MCP clients toolshape knows, and where each keeps its server list.
//!
//! Every path here comes from the client's own documentation: a client, a scope (the user's
//! file, a project's file, or Claude Code's per-folder "local" list inside the user file),
//! the file, its format, and where in the file the servers are. [`locations`] lists the
//! candidates for a home folder and a working folder; it reads nothing, so the CLI decides
//! which exist.

use std::fmt;
use std::path::{Path, PathBuf};

/// An MCP client whose config toolshape reads and rewrites.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Client {
    /// Claude Desktop: `claude_desktop_config.json`, `mcpServers`.
    ClaudeDesktop,
    /// Claude Code: `~/.claude.json` (user scope `mcpServers`, local scope
    /// `projects.<folder>.mcpServers`) and a project's `.mcp.json`.
    ClaudeCode,
    /// Cursor: `~/.cursor/mcp.json` and a project's `.cursor/mcp.json`, `mcpServers`.
    Cursor,
    /// VS Code: a workspace's `.vscode/mcp.json` (or the user profile's `mcp.json`),
    /// `servers`, with `inputs` for prompted values.
    VsCode,
    /// Windsurf: `~/.codeium/windsurf/mcp_config.json`, `mcpServers` (`serverUrl` for remote).
    Windsurf,
    /// Gemini CLI: `~/.gemini/settings.json` and a project's `.gemini/settings.json`.
    Gemini,
    /// Codex: `~/.codex/config.toml` (or `$CODEX_HOME`), `[mcp_servers.NAME]` tables.
    Codex,
}

impl Client {
    /// Every client, in the order `init` reads them.
    pub const ALL: [Client; 7] = [
        Client::ClaudeDesktop,
        Client::ClaudeCode,
        Client::Cursor,
        Client::VsCode,
        Client::Windsurf,
        Client::Gemini,
        Client::Codex,
    ];

    /// The name used on the command line (`--client claude-code`).
    pub fn id(self) -> &'static str {
        match self {
            Client::ClaudeDesktop => "claude-desktop",
            Client::ClaudeCode => "claude-code",
            Client::Cursor => "cursor",
            Client::VsCode => "vscode",
            Client::Windsurf => "windsurf",
            Client::Gemini => "gemini",
            Client::Codex => "codex",
        }
    }

    /// The client named `id` (as [`Client::id`] writes it).
    pub fn from_id(id: &str) -> Option<Client> {
        Client::ALL.into_iter().find(|c| c.id() == id)
    }

    /// The name people know it by.
    pub fn display_name(self) -> &'static str {
        match self {
            Client::ClaudeDesktop => "Claude Desktop",
            Client::ClaudeCode => "Claude Code",
            Client::Cursor => "Cursor",
            Client::VsCode => "VS Code",
            Client::Windsurf => "Windsurf",
            Client::Gemini => "Gemini CLI",
            Client::Codex => "Codex",
        }
    }
}

impl fmt::Display for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// Whose servers a file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    /// The user's own file, for every folder.
    User,
    /// Claude Code's list for one folder, kept in the user's file.
    Local,
    /// A file inside the project (the working folder).
    Project,
}

impl Scope {
    /// The name used on the command line (`--scope project`).
    pub fn id(self) -> &'static str {
        match self {
            Scope::User => "user",
            Scope::Local => "local",
            Scope::Project => "project",
        }
    }

    /// The scope named `id`.
    pub fn from_id(id: &str) -> Option<Scope> {
        [Scope::User, Scope::Local, Scope::Project].into_iter().find(|s| s.id() == id)
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// How a file is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// JSON; comments and trailing commas are accepted and kept (VS Code and Gemini allow them).
    Json,
    /// TOML (Codex).
    Toml,
}

/// Where in the file the servers are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServersAt {
    /// The top-level `mcpServers` object.
    McpServers,
    /// The top-level `servers` object (VS Code).
    Servers,
    /// `projects.<folder>.mcpServers` (Claude Code's local scope), the folder as written.
    ProjectMcpServers(String),
    /// The `mcp_servers` table (Codex).
    McpServersTable,
}

impl ServersAt {
    /// The key path, for messages (`projects["/home/me/app"].mcpServers`).
    pub fn describe(&self) -> String {
        match self {
            ServersAt::McpServers => "mcpServers".to_owned(),
            ServersAt::Servers => "servers".to_owned(),
            ServersAt::ProjectMcpServers(folder) => format!("projects[{folder:?}].mcpServers"),
            ServersAt::McpServersTable => "[mcp_servers]".to_owned(),
        }
    }
}

/// One candidate file of one client and scope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// The client.
    pub client: Client,
    /// The scope.
    pub scope: Scope,
    /// The file.
    pub path: PathBuf,
    /// Its format.
    pub format: Format,
    /// Where in it the servers are.
    pub servers_at: ServersAt,
    /// The folder the client resolves `${workspaceFolder}` and relative paths against: the
    /// project for project and local scopes, the home folder otherwise.
    pub base_dir: PathBuf,
}

impl Location {
    /// `claude-code (project)`, for messages.
    pub fn label(&self) -> String {
        format!("{} ({})", self.client, self.scope)
    }
}

/// An operating system's conventions for where application data lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Os {
    /// `$XDG_CONFIG_HOME` or `~/.config`.
    Linux,
    /// `~/Library/Application Support`.
    MacOs,
    /// `%APPDATA%`.
    Windows,
}

impl Os {
    /// The system this program was built for.
    pub fn current() -> Os {
        if cfg!(target_os = "macos") {
            Os::MacOs
        } else if cfg!(windows) {
            Os::Windows
        } else {
            Os::Linux
        }
    }
}

/// What [`locations`] needs to know of the machine: no lookups happen inside.
#[derive(Debug, Clone)]
pub struct Machine {
    /// The home folder.
    pub home: PathBuf,
    /// The working folder: the project whose files are read.
    pub cwd: PathBuf,
    /// The operating system's conventions.
    pub os: Os,
    /// `$XDG_CONFIG_HOME`, when set (Linux).
    pub xdg_config_home: Option<PathBuf>,
    /// `%APPDATA%`, when set (Windows).
    pub appdata: Option<PathBuf>,
    /// `$CODEX_HOME`, when set.
    pub codex_home: Option<PathBuf>,
}

impl Machine {
    /// The folder applications keep their settings in (`~/.config` on Linux).
    fn app_config_dir(&self) -> PathBuf {
        match self.os {
            Os::Linux => self.xdg_config_home.clone().unwrap_or_else(|| self.home.join(".config")),
            Os::MacOs => self.home.join("Library").join("Application Support"),
            Os::Windows => self.appdata.clone().unwrap_or_else(|| self.home.join("AppData").join("Roaming")),
        }
    }
}

/// Every candidate file on `machine`, in a fixed order (clients as in [`Client::ALL`], user
/// scope first). Nothing is read: a candidate may not exist.
pub fn locations(machine: &Machine) -> Vec<Location> {
    let home = &machine.home;
    let cwd = &machine.cwd;
    let user = |client, path: PathBuf, format, servers_at| Location {
        client,
        scope: Scope::User,
        path,
        format,
        servers_at,
        base_dir: home.clone(),
    };
    let project = |client, path: PathBuf, servers_at| Location {
        client,
        scope: Scope::Project,
        path,
        format: Format::Json,
        servers_at,
        base_dir: cwd.clone(),
    };
    let codex_home = machine.codex_home.clone().unwrap_or_else(|| home.join(".codex"));
    vec![
        user(
            Client::ClaudeDesktop,
            machine.app_config_dir().join("Claude").join("claude_desktop_config.json"),
            Format::Json,
            ServersAt::McpServers,
        ),
        user(Client::ClaudeCode, home.join(".claude.json"), Format::Json, ServersAt::McpServers),
        Location {
            client: Client::ClaudeCode,
            scope: Scope::Local,
            path: home.join(".claude.json"),
            format: Format::Json,
            servers_at: ServersAt::ProjectMcpServers(path_text(cwd)),
            base_dir: cwd.clone(),
        },
        project(Client::ClaudeCode, cwd.join(".mcp.json"), ServersAt::McpServers),
        user(Client::Cursor, home.join(".cursor").join("mcp.json"), Format::Json, ServersAt::McpServers),
        project(Client::Cursor, cwd.join(".cursor").join("mcp.json"), ServersAt::McpServers),
        user(
            Client::VsCode,
            machine.app_config_dir().join("Code").join("User").join("mcp.json"),
            Format::Json,
            ServersAt::Servers,
        ),
        project(Client::VsCode, cwd.join(".vscode").join("mcp.json"), ServersAt::Servers),
        user(
            Client::Windsurf,
            home.join(".codeium").join("windsurf").join("mcp_config.json"),
            Format::Json,
            ServersAt::McpServers,
        ),
        user(Client::Gemini, home.join(".gemini").join("settings.json"), Format::Json, ServersAt::McpServers),
        project(Client::Gemini, cwd.join(".gemini").join("settings.json"), ServersAt::McpServers),
        user(Client::Codex, codex_home.join("config.toml"), Format::Toml, ServersAt::McpServersTable),
    ]
}

/// A path as the clients write it in their files (Claude Code keys `projects` by it).
pub fn path_text(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(os: Os) -> Machine {
        Machine {
            home: PathBuf::from("/home/me"),
            cwd: PathBuf::from("/home/me/app"),
            os,
            xdg_config_home: None,
            appdata: None,
            codex_home: None,
        }
    }

    #[test]
    fn every_client_has_a_user_or_project_file_and_ids_round_trip() {
        let all = locations(&machine(Os::Linux));
        for client in Client::ALL {
            assert!(all.iter().any(|l| l.client == client), "{client}");
            assert_eq!(Client::from_id(client.id()), Some(client));
        }
        for scope in [Scope::User, Scope::Local, Scope::Project] {
            assert_eq!(Scope::from_id(scope.id()), Some(scope));
        }
    }

    #[test]
    fn paths_follow_each_systems_conventions() {
        let linux = locations(&machine(Os::Linux));
        assert_eq!(linux[0].path, PathBuf::from("/home/me/.config/Claude/claude_desktop_config.json"));
        let mac = locations(&machine(Os::MacOs));
        assert_eq!(
            mac[0].path,
            PathBuf::from("/home/me/Library/Application Support/Claude/claude_desktop_config.json")
        );
        let mut with_xdg = machine(Os::Linux);
        with_xdg.xdg_config_home = Some(PathBuf::from("/xdg"));
        with_xdg.codex_home = Some(PathBuf::from("/codex"));
        let l = locations(&with_xdg);
        assert_eq!(l[0].path, PathBuf::from("/xdg/Claude/claude_desktop_config.json"));
        assert_eq!(l.last().map(|l| l.path.clone()), Some(PathBuf::from("/codex/config.toml")));
        let local = linux.iter().find(|l| l.scope == Scope::Local).map(|l| l.servers_at.clone());
        assert_eq!(local, Some(ServersAt::ProjectMcpServers("/home/me/app".into())));
    }
}
