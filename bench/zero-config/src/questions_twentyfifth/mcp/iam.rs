//! Questions about `aws iam get-account-authorization-details`: the first users (name,
//! id, ARN, creation date, groups, tags) and the last customer managed policies (name,
//! ARN, default version, attachments, dates); a role's attached or inline policies,
//! trusted principal, last use or id by its name, a user's groups or id, a group's
//! attached policies and a policy's attachments and default version; and how many users,
//! groups, roles and policies there are, how many roles trust Lambda or ECS tasks, are
//! service-linked, were never used or hold AdministratorAccess, how many users are in a
//! group, and which user is in the most groups, which policy is attached most, which role
//! is the oldest, which has gone unused longest and which has the most policies.

use serde_json::Value;

use super::{field, list, lookup};
use crate::question::{Question, text};
use crate::questions_blind::{count, extreme};
use crate::record_questions::end;

/// The names at `field` of each element of the array at `path` of `x`.
fn names(x: &Value, path: &str, name: &str) -> Vec<String> {
    list(x, path).iter().map(|p| field(p, name)).collect()
}

/// The principals a role's trust policy names (services, accounts, identity providers).
pub(super) fn trusted(role: &Value) -> Vec<String> {
    list(role, "AssumeRolePolicyDocument.Statement")
        .iter()
        .filter_map(|s| s.get("Principal").and_then(Value::as_object))
        .flat_map(|p| p.values())
        .flat_map(|v| match v {
            Value::Array(items) => items.iter().map(text).collect(),
            other => vec![text(other)],
        })
        .collect()
}

fn with_all(first: String, rest: Vec<String>) -> Option<Vec<String>> {
    (!rest.is_empty()).then(|| std::iter::once(first).chain(rest).collect())
}

pub(super) fn iam_questions(v: &Value) -> Vec<Option<Question>> {
    let users = list(v, "UserDetailList");
    let groups = list(v, "GroupDetailList");
    let roles = list(v, "RoleDetailList");
    let policies = list(v, "Policies");
    let user_name = |u: &Value| field(u, "UserName");
    let mut qs = vec![
        end(users, 0, false, "Which user is listed first, and what is its user id?", |u| {
            Some(vec![user_name(u), field(u, "UserId")])
        }),
        end(users, 0, false, "What is the ARN of the first user?", |u| Some(vec![field(u, "Arn")])),
        end(users, 0, false, "When was the first user created?", |u| Some(vec![user_name(u), field(u, "CreateDate")])),
        end(users, 0, false, "Which groups is the first user in?", |u| {
            with_all(user_name(u), list(u, "GroupList").iter().map(text).collect())
        }),
        end(users, 0, false, "What tags does the first user carry?", |u| {
            with_all(user_name(u), names(u, "Tags", "Value"))
        }),
        end(users, 1, false, "Which user is listed second, and what is its user id?", |u| {
            Some(vec![user_name(u), field(u, "UserId")])
        }),
        end(users, 1, false, "When was the second user created?", |u| Some(vec![user_name(u), field(u, "CreateDate")])),
        end(users, 2, false, "Which user is third, and what is its ARN?", |u| {
            Some(vec![user_name(u), field(u, "Arn")])
        }),
        end(users, 3, false, "Which user is fourth, and when was it created?", |u| {
            Some(vec![user_name(u), field(u, "CreateDate")])
        }),
        end(users, 4, false, "What is the user id of the fifth user?", |u| {
            Some(vec![user_name(u), field(u, "UserId")])
        }),
        end(policies, 0, true, "Which customer managed policy is listed last, and what is its ARN?", |p| {
            Some(vec![field(p, "PolicyName"), field(p, "Arn")])
        }),
        end(policies, 0, true, "What is the default version and attachment count of the last policy?", |p| {
            Some(vec![field(p, "PolicyName"), field(p, "DefaultVersionId"), field(p, "AttachmentCount")])
        }),
        end(policies, 0, true, "When was the last policy created and last updated?", |p| {
            Some(vec![field(p, "CreateDate"), field(p, "UpdateDate")])
        }),
        end(policies, 0, true, "What is the policy id of the last policy?", |p| Some(vec![field(p, "PolicyId")])),
        end(policies, 1, true, "Which policy is second to last, and how many entities is it attached to?", |p| {
            Some(vec![field(p, "PolicyName"), field(p, "AttachmentCount")])
        }),
        end(policies, 1, true, "What is the default version of the second to last policy?", |p| {
            Some(vec![field(p, "PolicyName"), field(p, "DefaultVersionId")])
        }),
        end(policies, 2, true, "Which policy is third to last, and what is its ARN?", |p| {
            Some(vec![field(p, "PolicyName"), field(p, "Arn")])
        }),
        end(policies, 3, true, "Which policy is fourth to last?", |p| Some(vec![field(p, "PolicyName")])),
        end(policies, 4, true, "When was the fifth to last policy last updated?", |p| {
            Some(vec![field(p, "PolicyName"), field(p, "UpdateDate")])
        }),
    ];
    let role_name = |r: &&Value| field(r, "RoleName");
    let roles_ref: Vec<&Value> = roles.iter().collect();
    for at in [0.05, 0.3, 0.55, 0.8] {
        qs.push(lookup(&roles_ref, at, "Which managed policies are attached to the role {key}?", role_name, |r| {
            let attached = names(r, "AttachedManagedPolicies", "PolicyName");
            (!attached.is_empty()).then_some(attached)
        }));
    }
    for at in [0.15, 0.45, 0.7, 0.95] {
        qs.push(lookup(&roles_ref, at, "When was the role {key} last used, and in which region?", role_name, |r| {
            let used = r.get("RoleLastUsed")?;
            Some(vec![field(used, "LastUsedDate"), field(used, "Region")])
        }));
    }
    for at in [0.25, 0.62] {
        qs.push(lookup(&roles_ref, at, "Which principal does the role {key} trust?", role_name, |r| {
            let t = trusted(r);
            (!t.is_empty()).then_some(t)
        }));
    }
    qs.push(lookup(&roles_ref, 0.4, "What is the role id of {key}, and when was it created?", role_name, |r| {
        Some(vec![field(r, "RoleId"), field(r, "CreateDate")])
    }));
    qs.push(lookup(&roles_ref, 0.88, "Which inline policies does the role {key} have?", role_name, |r| {
        let inline = names(r, "RolePolicyList", "PolicyName");
        (!inline.is_empty()).then_some(inline)
    }));
    let users_ref: Vec<&Value> = users.iter().collect();
    for at in [0.35, 0.75] {
        qs.push(lookup(
            &users_ref,
            at,
            "Which groups is the user {key} in?",
            |u| user_name(u),
            |u| {
                let g: Vec<String> = list(u, "GroupList").iter().map(text).collect();
                (!g.is_empty()).then_some(g)
            },
        ));
    }
    qs.push(lookup(
        &users_ref,
        0.6,
        "What is the user id of {key}?",
        |u| user_name(u),
        |u| Some(vec![field(u, "UserId")]),
    ));
    let groups_ref: Vec<&Value> = groups.iter().collect();
    qs.push(lookup(
        &groups_ref,
        0.5,
        "Which managed policies are attached to the group {key}?",
        |g| field(g, "GroupName"),
        |g| {
            let attached = names(g, "AttachedManagedPolicies", "PolicyName");
            (!attached.is_empty()).then_some(attached)
        },
    ));
    let policies_ref: Vec<&Value> = policies.iter().collect();
    for at in [0.3, 0.65] {
        qs.push(lookup(
            &policies_ref,
            at,
            "How many entities is the policy {key} attached to, and what is its default version?",
            |p| field(p, "PolicyName"),
            |p| Some(vec![field(p, "AttachmentCount"), field(p, "DefaultVersionId")]),
        ));
    }
    // How many, and which is the largest.
    let roles_where = |keep: &dyn Fn(&Value) -> bool| roles.iter().filter(|r| keep(r)).count();
    qs.push(Some(count("How many users are there?", &["users", "UserDetailList"], users.len(), Some("UserName"))));
    qs.push(Some(count("How many groups are there?", &["groups", "GroupDetailList"], groups.len(), Some("GroupName"))));
    qs.push(Some(count("How many roles are there?", &["roles", "RoleDetailList"], roles.len(), Some("RoleName"))));
    qs.push(Some(count(
        "How many customer managed policies are there?",
        &["policies", "Policies"],
        policies.len(),
        Some("PolicyName"),
    )));
    for service in ["lambda.amazonaws.com", "ecs-tasks.amazonaws.com", "ec2.amazonaws.com"] {
        let n = roles_where(&|r| trusted(r).iter().any(|p| p == service));
        qs.push(Some(count(&format!("How many roles trust {service}?"), &[service], n, Some("Principal"))));
    }
    let service_linked = roles_where(&|r| field(r, "Path").starts_with("/aws-service-role/"));
    qs.push(Some(count(
        "How many service-linked roles are there?",
        &["aws-service-role", "service-linked"],
        service_linked,
        Some("Path"),
    )));
    let never = roles_where(&|r| r.get("RoleLastUsed").and_then(Value::as_object).is_some_and(|m| m.is_empty()));
    qs.push(Some(count(
        "How many roles have never been used?",
        &["never used", "unused"],
        never,
        Some("RoleLastUsed"),
    )));
    let admin =
        roles_where(&|r| names(r, "AttachedManagedPolicies", "PolicyName").iter().any(|p| p == "AdministratorAccess"));
    qs.push(Some(count(
        "How many roles have AdministratorAccess attached?",
        &["AdministratorAccess"],
        admin,
        Some("AttachedManagedPolicies"),
    )));
    if let Some(group) = groups
        .iter()
        .map(|g| field(g, "GroupName"))
        .find(|g| g == "Developers")
        .or_else(|| groups.first().map(|g| field(g, "GroupName")))
    {
        let n = users.iter().filter(|u| list(u, "GroupList").iter().any(|g| text(g) == group)).count();
        qs.push(Some(count(&format!("How many users are in the {group} group?"), &[&group], n, Some("GroupList"))));
    }
    let unattached = policies.iter().filter(|p| p["AttachmentCount"].as_u64() == Some(0)).count();
    qs.push(Some(count(
        "How many customer managed policies are not attached to anything?",
        &["unattached", "AttachmentCount 0"],
        unattached,
        Some("AttachmentCount"),
    )));
    let group_counts: Vec<(usize, String)> = users.iter().map(|u| (list(u, "GroupList").len(), user_name(u))).collect();
    qs.push(extreme("Which user is in the most groups?", group_counts, true, Some("GroupList")));
    let attachments: Vec<(u64, String)> =
        policies.iter().filter_map(|p| Some((p["AttachmentCount"].as_u64()?, field(p, "PolicyName")))).collect();
    qs.push(extreme(
        "Which customer managed policy is attached to the most entities?",
        attachments,
        true,
        Some("AttachmentCount"),
    ));
    let created: Vec<(String, String)> = roles.iter().map(|r| (field(r, "CreateDate"), field(r, "RoleName"))).collect();
    qs.push(extreme("Which role is the oldest (earliest CreateDate)?", created.clone(), false, Some("CreateDate")));
    qs.push(extreme("Which role was created most recently?", created, true, Some("CreateDate")));
    let last_used: Vec<(String, String)> = roles
        .iter()
        .filter_map(|r| {
            Some((
                r.get("RoleLastUsed").map(|u| field(u, "LastUsedDate")).filter(|d| !d.is_empty())?,
                field(r, "RoleName"),
            ))
        })
        .collect();
    qs.push(extreme(
        "Of the roles that have been used, which was last used the longest ago?",
        last_used,
        false,
        Some("LastUsedDate"),
    ));
    let policy_counts: Vec<(usize, String)> = roles
        .iter()
        .map(|r| (list(r, "AttachedManagedPolicies").len() + list(r, "RolePolicyList").len(), field(r, "RoleName")))
        .collect();
    qs.push(extreme(
        "Which role has the most policies (attached and inline)?",
        policy_counts,
        true,
        Some("AttachedManagedPolicies"),
    ));
    let versions: Vec<(usize, String)> =
        policies.iter().map(|p| (list(p, "PolicyVersionList").len(), field(p, "PolicyName"))).collect();
    qs.push(extreme("Which customer managed policy has the most versions?", versions, true, Some("PolicyVersionList")));
    qs
}
