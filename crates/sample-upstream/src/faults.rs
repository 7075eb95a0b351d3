//! The fault tools' bodies: what a hostile or broken upstream does, on purpose, so the
//! gateway's handling of it can be tested with real processes.
//!
//! `garbage` and `drip` write to the process's standard output behind the MCP transport's
//! back: that is the point (the client reads messages there), and the reason they only make
//! sense over stdio.

use std::fmt::Write as _;
use std::io::Write as _;
use std::time::Duration;

use serde_json::{Value, json};

/// The traceback `fail_with_error` answers: twelve frames of a Python web service, ending in
/// `message`. Long enough that a gateway which keeps only the last frames visibly shrinks it.
pub(crate) fn python_traceback(message: &str) -> String {
    const FRAMES: [(&str, u32, &str, &str); 11] = [
        (
            "/srv/tracker/.venv/lib/python3.11/site-packages/starlette/routing.py",
            74,
            "app",
            "response = await func(request)",
        ),
        (
            "/srv/tracker/.venv/lib/python3.11/site-packages/mcp/server/lowlevel/server.py",
            512,
            "_handle_request",
            "response = await handler(req)",
        ),
        ("/srv/tracker/app/api/handlers.py", 211, "call_tool", "result = await tool.run(**arguments)"),
        (
            "/srv/tracker/app/tools/issues.py",
            88,
            "list_issues",
            "rows = await self.repository.fetch_issues(filters, page=page)",
        ),
        (
            "/srv/tracker/app/repository.py",
            142,
            "fetch_issues",
            "return await self.db.fetch(query, *params, timeout=self.timeout)",
        ),
        (
            "/srv/tracker/.venv/lib/python3.11/site-packages/asyncpg/pool.py",
            642,
            "fetch",
            "return await con.fetch(query, *args, timeout=timeout, record_class=record_class)",
        ),
        (
            "/srv/tracker/.venv/lib/python3.11/site-packages/asyncpg/connection.py",
            690,
            "fetch",
            "return await self._execute(query, args, 0, timeout, record_class=record_class)",
        ),
        (
            "/srv/tracker/.venv/lib/python3.11/site-packages/asyncpg/connection.py",
            1864,
            "_execute",
            "result, _ = await self.__execute(",
        ),
        (
            "/srv/tracker/.venv/lib/python3.11/site-packages/asyncpg/connection.py",
            1961,
            "__execute",
            "result, stat = await self._do_execute(",
        ),
        (
            "/srv/tracker/.venv/lib/python3.11/site-packages/asyncpg/connection.py",
            2024,
            "_do_execute",
            "result = await executor(stmt, None)",
        ),
        ("asyncpg/protocol/protocol.pyx", 206, "bind_execute", ""),
    ];
    let mut out = String::from("Traceback (most recent call last):\n");
    for (file, line, function, code) in FRAMES {
        let _ = writeln!(out, "  File \"{file}\", line {line}, in {function}");
        if !code.is_empty() {
            let _ = writeln!(out, "    {code}");
        }
    }
    let _ = write!(out, "asyncpg.exceptions.QueryCanceledError: {message}");
    out
}

/// About `mb` MiB of output: numbered text lines, or a JSON array of records.
pub(crate) fn huge(mb: usize, json: bool) -> String {
    let target = mb.saturating_mul(1024 * 1024);
    let mut out = String::with_capacity(target + 256);
    let mut i: u64 = 0;
    if json {
        out.push('[');
        while out.len() < target {
            if i > 0 {
                out.push(',');
            }
            let record = json!({
                "index": i,
                "name": format!("record-{i:08}"),
                "payload": "the quick brown fox jumps over the lazy dog, again and again, to fill space",
            });
            out.push_str(&record.to_string());
            i += 1;
        }
        out.push(']');
    } else {
        while out.len() < target {
            let _ = writeln!(
                out,
                "{i:08} huge result line: the quick brown fox jumps over the lazy dog, again and again, to fill space."
            );
            i += 1;
        }
    }
    out
}

/// Write `lines` lines that are not JSON-RPC to standard output.
pub(crate) fn write_garbage(lines: usize, kind: &str) -> std::io::Result<()> {
    let mut stdout = std::io::stdout().lock();
    for n in 0..lines {
        match kind {
            "partial" => writeln!(stdout, "{{\"jsonrpc\": \"2.0\", \"id\": {n}, \"result\": {{\"content\": [")?,
            "binary" => {
                stdout.write_all(&[0xff, 0xfe, 0x00, 0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1])?;
                stdout.write_all(b"\n")?;
            }
            _ => writeln!(stdout, "garbage line {n}: this is not JSON-RPC, just a server printing to stdout")?,
        }
    }
    stdout.flush()
}

/// The JSON-RPC response `drip` writes by hand: a successful tool result for request `id`
/// whose text is `chars` characters long.
pub(crate) fn drip_message(id: &Value, chars: usize) -> String {
    let text: String = "drip".chars().cycle().take(chars).collect();
    let message = json!({
        "jsonrpc": "2.0",
        "id": id,
        "result": { "content": [{ "type": "text", "text": text }], "isError": false },
    });
    format!("{message}\n")
}

/// Write `message` to standard output one byte at a time, `interval` apart.
pub(crate) async fn drip(message: &str, interval: Duration) -> std::io::Result<()> {
    for byte in message.as_bytes() {
        {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(std::slice::from_ref(byte))?;
            stdout.flush()?;
        }
        tokio::time::sleep(interval).await;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traceback_is_long_and_ends_with_the_message() {
        let tb = python_traceback("boom");
        assert!(tb.starts_with("Traceback (most recent call last):\n"));
        assert!(tb.ends_with("QueryCanceledError: boom"));
        assert_eq!(tb.matches("  File \"").count(), 11);
    }

    #[test]
    fn huge_reaches_its_size_in_both_forms() {
        let text = huge(1, false);
        assert!(text.len() >= 1024 * 1024 && text.len() < 1024 * 1024 + 200);
        assert!(text.lines().all(|l| l.contains("huge result line")));
        let json = huge(1, true);
        let records: Vec<Value> = serde_json::from_str(&json).unwrap();
        assert!(json.len() >= 1024 * 1024);
        assert_eq!(records[0]["index"], 0);
        assert_eq!(records.last().unwrap()["index"], records.len() - 1);
    }

    #[test]
    fn drip_message_is_one_json_rpc_line() {
        let message = drip_message(&json!(7), 10);
        assert!(message.ends_with('\n') && message.matches('\n').count() == 1);
        let v: Value = serde_json::from_str(message.trim_end()).unwrap();
        assert_eq!(v["id"], 7);
        assert_eq!(v["result"]["content"][0]["text"], "dripdripdr");
    }
}
