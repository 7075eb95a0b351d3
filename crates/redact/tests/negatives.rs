//! Look-alikes that must stay untouched, in text and in JSON.

mod common;

use std::borrow::Cow;

use common::{default_redactor, partial_redactor, redact_with};
use serde_json::json;
use toolshape_redact::RedactionCounts;

const LOOK_ALIKES: &[&str] = &[
    // versions, dates, times, timestamps
    "version 1.2.3.4",
    "v10.11.12",
    "released 2024-01-02",
    "at 2024-01-02T10:11:12Z",
    "at 2024-01-02T10:11:12+08:00",
    "at 2024-01-02T10:11:12.123456789-05:00",
    "on 02/01/2024 and 31.12.2024",
    "took 10:11:12",
    "uptime 1234:56:07",
    "unix 1700000000",
    "ms 1700000000000",
    "ns 1700000000000000000",
    "+2024-01-02 10:11:12 added a line",
    // network
    "host 192.168.100.200",
    "ip 10.0.0.1:8080",
    "http://localhost:8080/api/v1/items?page=2",
    "http://127.0.0.1:9000/mcp",
    // ids
    "id 123e4567-e89b-12d3-a456-426614174000",
    "id 12345678-1234-1234-1234-123456789012",
    "commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
    "commit 1234567890123456789012345678901234567890",
    "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "order 1234567812345678",
    "card-like 4111 1111 1111 1112",
    // `top`'s VIRT, RES and SHR columns: 18 Luhn-valid digits in groups of six.
    " 307873 deploy    20   0  364097 142604 109805 S   0.0   0.2  82:16.48 python3",
    "fails Luhn 5555555555554443",
    "fails Luhn 6011-1111-1111-1118",
    "order #ORD-2024-000123",
    "order number 100000012345",
    "ticket 7000000000000005",
    "counter 12345678901",
    "count 9876543210",
    "amount 1,234,567.89",
    "pi 3.14159265358979",
    "-4111111111111112",
    // words that contain key prefixes
    "see task-list and desk-lamp and risk-assessment",
    "use sk-learn or the ask-proj-alpha",
    "the sk-proj-management-dashboard-for-teams-and-users project",
    "tasks: flask_live_reload, mask_test_data_loader",
    "AKIA is a prefix, AKIAshort too",
    "hooks.slack.com is a host",
    // emails we decided to leave
    "user@localhost",
    "root@host",
    "git@github.com:org/repo.git",
    "icon@2x.png and logo@3x.svg",
    "Started getty@tty1.service, user@1000.service and modprobe@drm.service",
    "systemd-fsck@dev-disk-by-label-root.service and container-getty@1.socket",
    // names whose last label is no top-level domain: a queue, an Erlang node, a build host
    "celery@worker-3-31c7bde2d-5nlqm.celery.pidbox",
    "rabbit@node-1.cluster and ejabberd@chat-2.prod.svc",
    "deploy@ci-runner-7.build.lan is up",
    "npm i left-pad@1.3.0 @types/node",
    "@mention and a@ b",
    // URLs without credentials
    "https://user@example.com/path",
    "https://example.com:443/a@b",
    "ssh://git@github.com/org/repo",
    // other
    "phone: 555-0100",
    "ext. 415 555 0100",
    "matrix 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6",
    "ISO code DE12 and GB82 are short",
    "BEGIN PRIVATE KEY without dashes",
    "eyJhbGciOiJIUzI1NiJ9 alone",
    "[EMAIL] [PHONE] [SECRET_FIELD]",
    // secret-like names without a secret value, and look-alike names
    "the password is required",
    "Enter your password: ",
    "Enter your password:\nnext line",
    "password: null",
    "password = \"\"",
    "password=${DB_PASSWORD}",
    "token: $GITHUB_TOKEN",
    "api_key: {{ .Values.apiKey }}",
    "password: <your-password>",
    "password: ********",
    "password: [SECRET_ASSIGNMENT]",
    "Authorization: Bearer [JWT]",
    "Authorization: Bearer",
    "token: 0",
    "secret: true",
    "password: required",
    "Password: Your password must be at least eight characters",
    "Error: token: invalid or expired",
    "max_tokens = 4096",
    "token_count: 12",
    "next_page_token=CAoQAhgBIiQ",
    "password_min_length = 8",
    "token_type: bearer",
    "sort_key: 2024-01-02#c0ffee",
    "encryption_key = default",
    "key: value",
    "keyboard: qwerty, monkey: business, passenger: seated",
    // code
    "def login(username, password):",
    "password = None",
    "self.password = password",
    "password: string;",
    "token: &str",
    "secret: Option<String>,",
    "password = get_password()",
    "api_key = os.environ[\"API_KEY\"]",
    "token = self.token",
    "const secret = process.env.SECRET;",
    "if password == \"\" {",
    "Token::new(x)",
    // env output
    "PWD=/home/user",
    "OLDPWD=/tmp",
    "SSH_AUTH_SOCK=/tmp/ssh-XXXX/agent.42",
    "XDG_SESSION_ID=3",
];

#[test]
fn look_alikes_are_untouched_and_borrowed() {
    for r in [default_redactor(), partial_redactor()] {
        for text in LOOK_ALIKES {
            let mut counts = RedactionCounts::default();
            let out = r.redact_text(text, &mut counts);
            assert!(matches!(out, Cow::Borrowed(_)), "changed: {text:?} -> {out:?}");
            assert!(counts.is_empty(), "{text:?}: {counts:?}");
        }
    }
}

#[test]
fn luhn_valid_numbers_outside_card_ranges_are_ids() {
    for body in ["100000000000000", "700000000000000", "900000012345678"] {
        let id = common::with_luhn_digit(body);
        let text = format!("order {id}");
        let (out, counts) = redact_with(&default_redactor(), &text);
        assert_eq!(out, text);
        assert!(counts.is_empty());
    }
}

#[test]
fn look_alikes_in_one_big_text() {
    let text = LOOK_ALIKES.join("\n");
    let (out, counts) = redact_with(&default_redactor(), &text);
    assert_eq!(out, text);
    assert!(counts.is_empty(), "{counts:?}");
}

#[test]
fn json_look_alikes_are_untouched() {
    let mut value = json!({
        "model": "gpt-4o",
        "max_tokens": 4096,
        "token_type": "bearer",
        "usage": {"prompt_tokens": 12, "completion_tokens": 30, "total_tokens": 42},
        "tokens": ["a", "b"],
        "token_count": 17,
        "key": "status",
        "public_key": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl",
        "primary_key": "id",
        "sort_key": "2024-01-02#c0ffee",
        "next_page_token": "CAoQAhgBIiQ4ZjM0YjQ2Zi1kYjE1LTQ4OWQtYjY0Mi1jZjM5NzNjNzA1ZDE",
        "password": null,
        "secret": false,
        "api_key": "",
        "access_token": [],
        "id": "123e4567-e89b-12d3-a456-426614174000",
        "created_at": "2024-01-02T10:11:12Z",
        "ip": "192.168.100.200",
        "version": "1.2.3.4",
        "encryption_key": "default",
        "signing_key": "rotate-monthly-please"
    });
    let before = value.clone();
    let mut counts = RedactionCounts::default();
    default_redactor().redact_value(&mut value, &mut counts);
    assert_eq!(value, before);
    assert!(counts.is_empty(), "{counts:?}");
}
