//! Questions about a Shopify product page: the first and the last products (title, id,
//! vendor, status, price range, inventory, first variant's SKU and price, creation) and
//! the page's cursors and cost; a product's vendor and lowest price, inventory, status,
//! tags and type by its title, handle or id, and a variant's price and stock by its SKU;
//! and how many products are active, drafts or archived, come from the commonest vendor
//! or are of the commonest type, are out of stock or on sale, and which product is the
//! most and the least expensive, has the most stock, the most variants and was created
//! last, and which variant has the most stock and which is oversold the most.

use serde_json::Value;

use super::{field, list, number};
use crate::question::Question;
use crate::questions_blind::{count, extreme, most_frequent};
use crate::record_questions::{end, lookup_one as lookup};

/// The variants of a product node, each its `node`.
pub(super) fn variants(p: &Value) -> Vec<&Value> {
    list(p, "variants.edges").iter().map(|e| &e["node"]).collect()
}

/// Whether any variant of `p` has a compare-at price, that is, is on sale.
pub(super) fn on_sale(p: &Value) -> bool {
    variants(p).iter().any(|x| !x["compareAtPrice"].is_null())
}

pub(super) fn shopify_questions(v: &Value) -> Vec<Option<Question>> {
    let products: Vec<&Value> = list(v, "data.products.edges").iter().map(|e| &e["node"]).collect();
    let title = |p: &Value| field(p, "title");
    let price_range = |p: &&Value| {
        Some(vec![
            title(p),
            field(p, "priceRangeV2.minVariantPrice.amount"),
            field(p, "priceRangeV2.maxVariantPrice.amount"),
        ])
    };
    let first_variant = |p: &&Value| {
        let x = variants(p).into_iter().next()?;
        Some(vec![title(p), field(x, "sku"), field(x, "price")])
    };
    let last_variant = |p: &&Value| {
        let x = variants(p).into_iter().last()?;
        Some(vec![title(p), field(x, "sku"), field(x, "inventoryQuantity")])
    };
    let page = std::slice::from_ref(v);
    let mut qs = vec![
        end(&products, 0, false, "What is the first product on the page, and its id?", |p| {
            Some(vec![title(p), field(p, "id")])
        }),
        end(&products, 0, false, "Which vendor makes the first product?", |p| Some(vec![title(p), field(p, "vendor")])),
        end(&products, 0, false, "What does the first product cost (its price range)?", price_range),
        end(&products, 0, false, "What is the SKU and price of the first product's first variant?", first_variant),
        end(&products, 0, false, "What status and total inventory does the first product have?", |p| {
            Some(vec![title(p), field(p, "status"), field(p, "totalInventory")])
        }),
        end(&products, 0, false, "When was the first product created?", |p| {
            Some(vec![title(p), field(p, "createdAt")])
        }),
        end(&products, 1, false, "What is the second product, and who is its vendor?", |p| {
            Some(vec![title(p), field(p, "vendor")])
        }),
        end(&products, 2, false, "What type of product is the third one?", |p| {
            Some(vec![title(p), field(p, "productType")])
        }),
        end(&products, 3, false, "What does the fourth product cost?", price_range),
        end(&products, 4, false, "What is the fifth product's handle?", |p| Some(vec![title(p), field(p, "handle")])),
        end(&products, 0, true, "What is the last product on the page, and its id?", |p| {
            Some(vec![title(p), field(p, "id")])
        }),
        end(&products, 0, true, "Which vendor makes the last product on the page?", |p| {
            Some(vec![title(p), field(p, "vendor")])
        }),
        end(&products, 0, true, "What does the last product on the page cost?", price_range),
        end(
            &products,
            0,
            true,
            "Which SKU is the last product's last variant, and how many are in stock?",
            last_variant,
        ),
        end(&products, 0, true, "What status and total inventory does the last product have?", |p| {
            Some(vec![title(p), field(p, "status"), field(p, "totalInventory")])
        }),
        end(&products, 1, true, "What is the second to last product, and who is its vendor?", |p| {
            Some(vec![title(p), field(p, "vendor")])
        }),
        end(&products, 2, true, "What type of product is the third to last one?", |p| {
            Some(vec![title(p), field(p, "productType")])
        }),
        end(&products, 3, true, "What does the fourth to last product cost?", price_range),
        end(page, 0, true, "What cursor continues after this page, and is there a next page?", |v| {
            Some(vec![field(v, "data.products.pageInfo.endCursor"), field(v, "data.products.pageInfo.hasNextPage")])
        }),
        end(page, 0, true, "What did the query cost, and how many points are still available?", |v| {
            Some(vec![
                field(v, "extensions.cost.actualQueryCost"),
                field(v, "extensions.cost.throttleStatus.currentlyAvailable"),
            ])
        }),
    ];
    for f in [0.3, 0.8] {
        qs.push(lookup(
            &products,
            f,
            "Who is the vendor of {key}, and what is its lowest price?",
            |p| title(p),
            |p| Some(vec![field(p, "vendor"), field(p, "priceRangeV2.minVariantPrice.amount")]),
        ));
    }
    qs.push(lookup(
        &products,
        0.5,
        "How many units of the product with handle {key} are in stock in total?",
        |p| field(p, "handle"),
        |p| Some(vec![field(p, "totalInventory")]),
    ));
    qs.push(lookup(
        &products,
        0.45,
        "What is the status of {key}?",
        |p| field(p, "id"),
        |p| Some(vec![title(p), field(p, "status")]),
    ));
    qs.push(lookup(
        &products,
        0.7,
        "What tags does {key} have?",
        |p| title(p),
        |p| {
            let tags: Vec<String> = list(p, "tags").iter().filter_map(Value::as_str).map(str::to_owned).collect();
            (!tags.is_empty()).then_some(tags)
        },
    ));
    qs.push(lookup(
        &products,
        0.15,
        "What product type is {key}, and when was it last updated?",
        |p| title(p),
        |p| Some(vec![field(p, "productType"), field(p, "updatedAt")]),
    ));
    let all_variants: Vec<&Value> = products.iter().flat_map(|p| variants(p)).collect();
    for f in [0.25, 0.65, 0.95] {
        qs.push(lookup(
            &all_variants,
            f,
            "What does SKU {key} cost, and how many are in stock?",
            |x| field(x, "sku"),
            |x| Some(vec![field(x, "price"), field(x, "inventoryQuantity")]),
        ));
    }
    let sale_variants: Vec<&Value> = all_variants.iter().copied().filter(|x| !x["compareAtPrice"].is_null()).collect();
    qs.push(lookup(
        &sale_variants,
        0.5,
        "What are the sale price and the compare-at price of SKU {key}?",
        |x| field(x, "sku"),
        |x| Some(vec![field(x, "price"), field(x, "compareAtPrice")]),
    ));
    // How many, and which is the largest.
    for status in ["ACTIVE", "DRAFT", "ARCHIVED"] {
        let n = products.iter().filter(|p| p["status"] == status).count();
        qs.push(Some(count(&format!("How many products are {status}?"), &[status], n, Some("status"))));
    }
    let top = |counts: Vec<(usize, String)>| counts.into_iter().max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    if let Some((n, vendor)) = top(most_frequent(products.iter().map(|p| p["vendor"].as_str().unwrap_or_default()))) {
        qs.push(Some(count(&format!("How many products are from {vendor}?"), &[&vendor], n, Some("vendor"))));
    }
    if let Some((n, kind)) = top(most_frequent(products.iter().map(|p| p["productType"].as_str().unwrap_or_default())))
    {
        qs.push(Some(count(&format!("How many products are of type {kind}?"), &[&kind], n, Some("productType"))));
    }
    let n = products.iter().filter(|p| number(p, "totalInventory").unwrap_or(0.0) <= 0.0).count();
    qs.push(Some(count(
        "How many products are out of stock (total inventory zero or less)?",
        &["out of stock"],
        n,
        Some("totalInventory"),
    )));
    let n = products.iter().filter(|p| on_sale(p)).count();
    qs.push(Some(count(
        "How many products are on sale (have a compare-at price)?",
        &["on sale"],
        n,
        Some("compareAtPrice"),
    )));
    let scored = |path: &str| -> Vec<(f64, String)> {
        products.iter().filter_map(|p| Some((number(p, path)?, title(p)))).collect()
    };
    qs.push(extreme(
        "Which product is the most expensive?",
        scored("priceRangeV2.maxVariantPrice.amount"),
        true,
        Some("amount"),
    ));
    qs.push(extreme(
        "Which product is the cheapest?",
        scored("priceRangeV2.minVariantPrice.amount"),
        false,
        Some("amount"),
    ));
    qs.push(extreme("Which product has the most inventory?", scored("totalInventory"), true, Some("totalInventory")));
    let by_variants: Vec<(usize, String)> = products.iter().map(|p| (variants(p).len(), title(p))).collect();
    qs.push(extreme("Which product has the most variants?", by_variants, true, Some("variants")));
    let created: Vec<(String, String)> = products.iter().map(|p| (field(p, "createdAt"), title(p))).collect();
    qs.push(extreme("Which product was created most recently?", created, true, Some("createdAt")));
    let stock: Vec<(f64, String)> =
        all_variants.iter().filter_map(|x| Some((number(x, "inventoryQuantity")?, field(x, "sku")))).collect();
    qs.push(extreme(
        "Which variant (SKU) has the most units in stock?",
        stock.clone(),
        true,
        Some("inventoryQuantity"),
    ));
    qs.push(extreme(
        "Which variant (SKU) is oversold the most (lowest inventory)?",
        stock,
        false,
        Some("inventoryQuantity"),
    ));
    qs
}
