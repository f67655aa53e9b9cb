//! `turnier account create` and `turnier account token`: an operator makes an account or an
//! API token straight in the database (`DATABASE_URL`), to bootstrap an integration.
//!
//! The checks and messages are the accounts service's own (`accounts::grpc::Api`); only the
//! transport differs. The password comes from standard input, never from the command line,
//! where other users of the machine could read it.

use std::io::BufRead as _;
use std::time::SystemTime;

use accounts::domain::{Account, Invalid};
use accounts::grpc::Api;
use accounts::secrets::Passwords;
use accounts::store::Store;
use accounts::tokens::ApiToken;
use anyhow::Context as _;
use clap::Subcommand;
use kit::auth::{Scope, Scopes};
use kit::config::Config;

/// The name of an API token made without `--name`.
const DEFAULT_TOKEN_NAME: &str = "made with turnier account token";

/// `turnier account …`
#[derive(Debug, Subcommand)]
pub enum AccountCommand {
    /// Creates an account; its password is the first line of standard input. Prints
    /// {"account": {"id", "username", "createTime"}}.
    Create {
        /// 3–32 ASCII letters, digits, `_` or `-`, starting with a letter or digit.
        #[arg(long)]
        username: String,
    },
    /// Makes an API token for an account. Prints {"token", "apiToken": {…}}: the token is
    /// shown this once.
    Token {
        /// The account's username (any case).
        #[arg(long)]
        username: String,
        /// What the token may do: read, write, or both (`read,write`).
        #[arg(long, value_name = "SCOPES")]
        scopes: String,
        /// The token's name, as its owner sees it in the list of tokens.
        #[arg(long)]
        name: Option<String>,
        /// When the token stops working, in RFC 3339 (2027-01-01T00:00:00Z); without it,
        /// never.
        #[arg(long, value_name = "RFC3339")]
        expire_time: Option<String>,
    },
}

/// Runs `turnier account …`.
pub async fn run(
    config: &Config,
    settings: &accounts::Settings,
    command: AccountCommand,
) -> anyhow::Result<()> {
    let db = kit::db::Database::connect(&config.database_url, 2).await?;
    db.migrate(&[&accounts::store::MIGRATOR]).await?;
    let store = Store::new(db);
    let api = Api::new(store.clone(), Passwords::owasp(), settings.session_ttl());
    let output = match command {
        AccountCommand::Create { username } => {
            let password = read_password()?;
            let account = api.register(&username, password).await?;
            serde_json::json!({ "account": account_json(&account) })
        }
        AccountCommand::Token {
            username,
            scopes,
            name,
            expire_time,
        } => {
            let account = store
                .account_by_username(&username)
                .await?
                .ok_or_else(|| accounts::Error::UserNotFound(username.clone()))?;
            let scopes = parse_scopes(&scopes)?;
            let expires = expire_time.as_deref().map(parse_time).transpose()?;
            let name = name.as_deref().unwrap_or(DEFAULT_TOKEN_NAME);
            let (token, api_token) = api
                .issue_api_token(&account.id, name, scopes, expires)
                .await?;
            serde_json::json!({
                "token": token.secret(),
                "apiToken": api_token_json(&api_token),
            })
        }
    };
    outln!("{output}");
    Ok(())
}

/// Reads the password: the first line of standard input, without its line ending.
fn read_password() -> anyhow::Result<String> {
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .context("cannot read the password from standard input")?;
    let line = line.strip_suffix('\n').unwrap_or(&line);
    let line = line.strip_suffix('\r').unwrap_or(line);
    Ok(line.to_owned())
}

/// Reads `read`, `write` or `read,write`, as the service would refuse anything else.
fn parse_scopes(text: &str) -> Result<Scopes, accounts::Error> {
    let invalid = Invalid {
        field: "scopes",
        rule: "at least one of read, write, and nothing else",
    };
    if text.trim().is_empty() {
        return Ok(Scopes::NONE);
    }
    text.split(',')
        .map(|name| Scope::parse(name.trim()).ok_or(invalid.into()))
        .collect()
}

fn parse_time(text: &str) -> Result<SystemTime, accounts::Error> {
    let invalid = Invalid {
        field: "expire_time",
        rule: "an RFC 3339 time, such as 2027-01-01T00:00:00Z",
    };
    let timestamp: jiff::Timestamp = text.parse().map_err(|_| invalid)?;
    Ok(kit::timestamp::from_millis(timestamp.as_millisecond()))
}

/// Writes a time as the gateway does: RFC 3339 in UTC.
fn rfc3339(time: SystemTime) -> String {
    jiff::Timestamp::from_millisecond(kit::timestamp::to_millis(time))
        .map_or_else(|_| String::new(), |time| time.to_string())
}

fn account_json(account: &Account) -> serde_json::Value {
    serde_json::json!({
        "id": account.id.0,
        "username": account.username.as_str(),
        "createTime": rfc3339(account.create_time),
    })
}

fn api_token_json(token: &ApiToken) -> serde_json::Value {
    let mut json = serde_json::json!({
        "id": token.id.0,
        "name": token.name.as_str(),
        "scopes": token.scopes.iter().map(Scope::name).collect::<Vec<_>>(),
        "createTime": rfc3339(token.create_time),
    });
    if let Some(expire_time) = token.expire_time {
        json["expireTime"] = rfc3339(expire_time).into();
    }
    json
}
