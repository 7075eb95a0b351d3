//! The built-in detector kinds: their names in configs and counts, and their placeholders.

/// The names of the built-in detector kinds, in the order they break ties.
///
/// These are the names accepted by `disable`, used as keys of
/// [`RedactionCounts`](crate::RedactionCounts), and (uppercased) inside placeholders.
///
/// - `secret_assignment`: in text, the value of `name = value`, `name: value`, `name := value`
///   or `name => value` whose name is secret-like by the same rules as `secret_field` keys
///   (`password = "[SECRET_ASSIGNMENT]"`; see the crate docs for what is not a value). It comes
///   after the token kinds, so a value that is itself a recognised token
///   (`GH_TOKEN=ghp_…`) keeps the more telling kind.
/// - `secret_field`: in JSON values, the whole value of a member whose key is secret-like.
pub const BUILTIN_KINDS: &[&str] = &[
    "email",
    "phone",
    "payment_card",
    "iban",
    "private_key",
    "jwt",
    "url_credentials",
    "aws_access_key",
    "aws_secret_key",
    "github_token",
    "gitlab_token",
    "slack_token",
    "slack_webhook",
    "stripe_key",
    "openai_key",
    "anthropic_key",
    "google_api_key",
    "google_oauth_token",
    "secret_assignment",
    "secret_field",
];

/// A built-in kind. The discriminant order matches [`BUILTIN_KINDS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Kind {
    Email,
    Phone,
    PaymentCard,
    Iban,
    PrivateKey,
    Jwt,
    UrlCredentials,
    AwsAccessKey,
    AwsSecretKey,
    GithubToken,
    GitlabToken,
    SlackToken,
    SlackWebhook,
    StripeKey,
    OpenaiKey,
    AnthropicKey,
    GoogleApiKey,
    GoogleOauthToken,
    SecretAssignment,
    SecretField,
}

impl Kind {
    /// Every kind, in [`BUILTIN_KINDS`] order.
    pub(crate) const ALL: [Kind; 20] = [
        Kind::Email,
        Kind::Phone,
        Kind::PaymentCard,
        Kind::Iban,
        Kind::PrivateKey,
        Kind::Jwt,
        Kind::UrlCredentials,
        Kind::AwsAccessKey,
        Kind::AwsSecretKey,
        Kind::GithubToken,
        Kind::GitlabToken,
        Kind::SlackToken,
        Kind::SlackWebhook,
        Kind::StripeKey,
        Kind::OpenaiKey,
        Kind::AnthropicKey,
        Kind::GoogleApiKey,
        Kind::GoogleOauthToken,
        Kind::SecretAssignment,
        Kind::SecretField,
    ];

    /// The snake_case name.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Email => "email",
            Kind::Phone => "phone",
            Kind::PaymentCard => "payment_card",
            Kind::Iban => "iban",
            Kind::PrivateKey => "private_key",
            Kind::Jwt => "jwt",
            Kind::UrlCredentials => "url_credentials",
            Kind::AwsAccessKey => "aws_access_key",
            Kind::AwsSecretKey => "aws_secret_key",
            Kind::GithubToken => "github_token",
            Kind::GitlabToken => "gitlab_token",
            Kind::SlackToken => "slack_token",
            Kind::SlackWebhook => "slack_webhook",
            Kind::StripeKey => "stripe_key",
            Kind::OpenaiKey => "openai_key",
            Kind::AnthropicKey => "anthropic_key",
            Kind::GoogleApiKey => "google_api_key",
            Kind::GoogleOauthToken => "google_oauth_token",
            Kind::SecretAssignment => "secret_assignment",
            Kind::SecretField => "secret_field",
        }
    }

    /// The placeholder that replaces a finding of this kind.
    pub(crate) fn placeholder(self) -> &'static str {
        match self {
            Kind::Email => "[EMAIL]",
            Kind::Phone => "[PHONE]",
            Kind::PaymentCard => "[PAYMENT_CARD]",
            Kind::Iban => "[IBAN]",
            Kind::PrivateKey => "[PRIVATE_KEY]",
            Kind::Jwt => "[JWT]",
            Kind::UrlCredentials => "[URL_CREDENTIALS]",
            Kind::AwsAccessKey => "[AWS_ACCESS_KEY]",
            Kind::AwsSecretKey => "[AWS_SECRET_KEY]",
            Kind::GithubToken => "[GITHUB_TOKEN]",
            Kind::GitlabToken => "[GITLAB_TOKEN]",
            Kind::SlackToken => "[SLACK_TOKEN]",
            Kind::SlackWebhook => "[SLACK_WEBHOOK]",
            Kind::StripeKey => "[STRIPE_KEY]",
            Kind::OpenaiKey => "[OPENAI_KEY]",
            Kind::AnthropicKey => "[ANTHROPIC_KEY]",
            Kind::GoogleApiKey => "[GOOGLE_API_KEY]",
            Kind::GoogleOauthToken => "[GOOGLE_OAUTH_TOKEN]",
            Kind::SecretAssignment => "[SECRET_ASSIGNMENT]",
            Kind::SecretField => "[SECRET_FIELD]",
        }
    }

    /// Looks a kind up by its snake_case name.
    pub(crate) fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether a partial mask would still reveal too much, so the placeholder is always used:
    /// a fragment of a key block or of a password is useless for recognition and risky to show.
    pub(crate) fn always_placeholder(self) -> bool {
        matches!(self, Kind::PrivateKey | Kind::SecretField | Kind::UrlCredentials | Kind::SecretAssignment)
    }
}

/// The placeholder for a kind name that is not built in: `employee id` gives `[EMPLOYEE_ID]`.
pub(crate) fn placeholder_for(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 2);
    out.push('[');
    for c in name.trim().chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_uppercase());
        } else {
            out.push('_');
        }
    }
    out.push(']');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_placeholders_agree() {
        assert_eq!(Kind::ALL.len(), BUILTIN_KINDS.len());
        for (kind, name) in Kind::ALL.iter().zip(BUILTIN_KINDS) {
            assert_eq!(kind.name(), *name);
            assert_eq!(kind.placeholder(), placeholder_for(name));
            assert_eq!(Kind::from_name(name), Some(*kind));
        }
    }

    #[test]
    fn custom_placeholders_are_uppercase_words() {
        assert_eq!(placeholder_for("employee id"), "[EMPLOYEE_ID]");
        assert_eq!(placeholder_for("ticket-ref"), "[TICKET_REF]");
        assert_eq!(placeholder_for("ünï"), "[_N_]");
    }
}
