//! The frame of every page: the document head, the site header with its navigation and the
//! viewer's account, a skip link for keyboards, and the page's own content.

use maud::{DOCTYPE, Markup, html};

use super::assets;
use super::session::{CSRF_FIELD, Viewer};

/// The games, as addresses spell them and as people read them.
pub const GAMES: [(&str, &str); 3] = [
    ("lor", "Legends of Runeterra"),
    ("pokemon", "Pokémon TCG"),
    ("riftbound", "Riftbound"),
];

/// Returns the display name of `game`, if it is one.
pub fn game_name(game: &str) -> Option<&'static str> {
    GAMES
        .iter()
        .find(|(slug, _)| *slug == game)
        .map(|(_, name)| *name)
}

/// A path segment (or query value), percent-encoded.
pub fn urlencode(segment: &str) -> String {
    url::form_urlencoded::byte_serialize(segment.as_bytes()).collect()
}

/// An image address as pages link it: a catalog's `http://` address asked for over `https://`,
/// the only scheme the pages' policy lets images load from (every image host the card data
/// names serves both).
pub fn secure(url: &str) -> String {
    match url.strip_prefix("http://") {
        Some(rest) => format!("https://{rest}"),
        None => url.to_owned(),
    }
}

/// The hidden field that carries the viewer's CSRF token in a form.
pub fn csrf_field(viewer: &Viewer) -> Markup {
    html! { input type="hidden" name=(CSRF_FIELD) value=(viewer.csrf); }
}

/// Every page's head: the title as given, our icon, stylesheet and script.
fn head(title: &str) -> Markup {
    html! {
        head {
            meta charset="utf-8";
            meta name="viewport" content="width=device-width, initial-scale=1";
            title { (title) }
            link rel="icon" type="image/svg+xml" href=(assets::href("icon.svg"));
            link rel="stylesheet" href=(assets::href("site.css"));
            script type="module" src=(assets::href("app.js")) {}
        }
    }
}

/// A page for the printer (a wall of a store): no header, `content` in its main region.
pub fn print_page(title: &str, content: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            (head(title))
            body class="print" { main id="main" { (content) } }
        }
    }
}

/// A whole page titled `title`, with `content` in its main region.
pub fn page(viewer: &Viewer, title: &str, content: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            (head(&format!("{title} · Turnier")))
            body {
                a class="skip" href="#main" { "Skip to content" }
                header class="site" {
                    a class="brand" href="/" { "Turnier" }
                    nav aria-label="Main" {
                        ul {
                            @for (slug, name) in GAMES {
                                li { a href={ "/" (slug) "/cards" } { (name) } }
                            }
                            li { a href="/riftbound/deck-builder" { "Deck builder" } }
                        }
                    }
                    div class="account" {
                        @if let Some(username) = viewer.username() {
                            a href={ "/users/" (username) } { (username) }
                            a href="/settings/rulesets" { "Rulesets" }
                            a href="/settings/calculators" { "Calculators" }
                            a href="/settings/templates" { "Templates" }
                            a href="/settings/tokens" { "Tokens" }
                            form method="post" action="/signout" class="inline" {
                                (csrf_field(viewer))
                                button type="submit" { "Sign out" }
                            }
                        } @else {
                            a href="/signin" { "Sign in" }
                            a class="button" href="/signup" { "Sign up" }
                        }
                    }
                }
                main id="main" tabindex="-1" {
                    (content)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalog_images_are_asked_for_over_https() {
        assert_eq!(
            secure("http://dd.b.pvp.net/5_12_0/set1/en_us/img/cards/01IO009.png"),
            "https://dd.b.pvp.net/5_12_0/set1/en_us/img/cards/01IO009.png"
        );
        assert_eq!(
            secure("https://images.example/a.png"),
            "https://images.example/a.png"
        );
        assert_eq!(secure("/assets/x.png"), "/assets/x.png");
    }
}
