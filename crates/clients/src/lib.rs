//! toolshape's side of the MCP clients people already use: find their configs, import
//! their servers as upstreams, and rewrite a client's file so that it starts toolshape in
//! their place.
//!
//! Pure: paths are computed from a [`Machine`] description, files arrive as text and leave as
//! text. The command line reads and writes them, keeps the backups and the install records.
//!
//! - [`client`]: the clients, their scopes, and where each keeps its servers.
//! - [`text`]: a client's string values and the variable references each client expands.
//! - [`server`]: one server entry, whatever the client's dialect.
//! - [`document`]: a JSONC or TOML file, edited in place keeping everything else.
//! - [`import`]: servers into upstreams, with literal secrets moved to `${VAR}`.
//! - [`yaml`]: the config `init` writes.
//! - [`install`]: toolshape's entry, the rewrite, and the record `uninstall` reads.

pub mod client;
pub mod document;
mod error;
pub mod import;
pub mod install;
pub mod server;
pub mod text;
pub mod yaml;

pub use client::{Client, Format, Location, Machine, Os, Scope, ServersAt, locations};
pub use document::Document;
pub use error::ClientsError;
pub use import::{Import, Imported, Source, UpstreamSpec, Var, import};
pub use install::{ENTRY_NAME, Entry, InstallRecord, diff, digest, restore_servers, rewrite, servers_digest};
pub use server::{ClientServer, Skip, Transport, read_server};

/// Read the servers of one client file: every entry at the location's place, in order.
pub fn read_servers(
    location: &Location,
    text: &str,
    home: &std::path::Path,
) -> Result<Vec<ClientServer>, ClientsError> {
    let doc = Document::parse(text, location.format)?;
    Ok(doc
        .servers(&location.servers_at)?
        .iter()
        .map(|(name, value)| read_server(location, name, value, home))
        .collect())
}
