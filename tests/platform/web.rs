//! The web frontend in a real headless Chromium (Debian's `chromium` and `chromium-driver`,
//! which `.ci/run` installs), driven over WebDriver (`fantoccini`) against the real binary:
//! search then a card page, the query error's position, sign-up / sign-out / sign-in through
//! the forms, user text escaped, a form posted without its CSRF token refused. Screenshots of
//! each page at 390 px and 1280 px go to `$TURNIER_SCREENSHOTS` (default
//! `<temp dir>/turnier-screenshots`), as artifacts that are never committed.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

use crate::support::{self, SamplePlatform};

/// Debian's ChromeDriver and Chromium.
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";

/// axe-core's script, from `tests/web/node_modules` (installed there from the npm registry by
/// `npm ci` with the committed lock file when it is missing: test-only, never served).
fn axe_source() -> &'static str {
    static SOURCE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SOURCE.get_or_init(|| {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/web");
        let script = folder.join("node_modules/axe-core/axe.min.js");
        if !script.exists() {
            let status = Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund", "--prefix"])
                .arg(&folder)
                .status()
                .expect("npm runs (Node.js installs axe-core for the accessibility checks)");
            assert!(status.success(), "npm ci in {} failed", folder.display());
        }
        std::fs::read_to_string(&script).expect("axe-core's script")
    })
}

/// A headless Chromium behind its own ChromeDriver; both stop when dropped.
struct Browser {
    client: Client,
    driver: Child,
}

impl Browser {
    async fn start() -> Self {
        let port = support::free_port();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|err| {
                panic!("{CHROMEDRIVER} starts ({err}): .ci/run installs chromium-driver")
            });
        let capabilities = json!({
            "browserName": "chrome",
            "goog:loggingPrefs": {"browser": "ALL"},
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1280,900"],
            },
        });
        let capabilities = capabilities.as_object().expect("an object").clone();
        let url = format!("http://127.0.0.1:{port}");
        let started = std::time::Instant::now();
        let client = loop {
            match ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
                .capabilities(capabilities.clone())
                .connect(&url)
                .await
            {
                Ok(client) => break client,
                Err(err) if started.elapsed() < Duration::from_secs(30) => {
                    let _ = err;
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(err) => panic!("ChromeDriver answers on {url}: {err}"),
            }
        };
        Self { client, driver }
    }

    async fn go(&self, url: &str) {
        self.client.goto(url).await.expect("the page loads");
    }

    async fn text(&self, css: &str) -> String {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|err| panic!("`{css}` on the page: {err}"))
            .text()
            .await
            .expect("its text")
    }

    /// Waits (up to 10 s) until the first `css` element's text is `expected`: a click that
    /// posts a form returns before the next page has loaded.
    async fn wait_text(&self, css: &str, expected: &str) {
        let mut seen = String::new();
        for _ in 0..100 {
            if let Ok(element) = self.client.find(Locator::Css(css)).await
                && let Ok(text) = element.text().await
            {
                if text == expected {
                    return;
                }
                seen = text;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("`{css}` says `{seen}`, not `{expected}`");
    }

    /// Waits (up to 10 s) for a `css` element, and returns its text.
    async fn wait_for(&self, css: &str) -> String {
        for _ in 0..100 {
            if let Ok(element) = self.client.find(Locator::Css(css)).await
                && let Ok(text) = element.text().await
            {
                return text;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("no `{css}` on the page");
    }

    /// The `value` of the first `css` field.
    async fn value(&self, css: &str) -> String {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|err| panic!("`{css}`: {err}"))
            .prop("value")
            .await
            .expect("its value")
            .unwrap_or_default()
    }

    async fn count(&self, css: &str) -> usize {
        self.client
            .find_all(Locator::Css(css))
            .await
            .expect("a query")
            .len()
    }

    async fn fill(&self, css: &str, text: &str) {
        let field = self
            .client
            .find(Locator::Css(css))
            .await
            .expect("the field");
        field.clear().await.expect("cleared");
        field.send_keys(text).await.expect("typed");
    }

    async fn click(&self, css: &str) {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|err| panic!("`{css}` to click: {err}"))
            .click()
            .await
            .expect("clicked");
        self.settled().await;
    }

    /// Waits (up to 10 s) until the deck builder has swapped in the page a click asked for
    /// (`main[aria-busy]` while it fetches).
    async fn settled(&self) {
        for _ in 0..100 {
            let busy = self
                .client
                .execute(
                    "return document.querySelector('main[aria-busy]') !== null;",
                    vec![],
                )
                .await
                .ok()
                .and_then(|answer| answer.as_bool())
                .unwrap_or(false);
            if !busy {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the page is still busy after 10 s");
    }

    /// Signs `username` up (`page`: `signup`) or in (`signin`) through the form, with the tests'
    /// password, and waits until the header names them.
    async fn enter(&self, site: &str, page: &str, username: &str) {
        self.go(&format!("{site}/{page}")).await;
        self.fill("#username", username).await;
        self.fill("#password", "correct horse battery").await;
        self.click("form.stack button").await;
        self.wait_text("header .account a", username).await;
    }

    /// Picks the option `value` of the `css` select.
    async fn pick(&self, css: &str, value: &str) {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|err| panic!("`{css}` to pick from: {err}"))
            .select_by_value(value)
            .await
            .expect("picked");
    }

    /// Waits (up to 10 s) until there are `count` `css` elements, and says how many there are.
    async fn wait_count(&self, css: &str, count: usize) -> usize {
        for _ in 0..100 {
            if self.count(css).await == count {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        self.count(css).await
    }

    /// Waits (up to 10 s) until the first `css` element's text holds `needle` (a click that
    /// posts a form returns while the old page, which may have the same element, is still
    /// there), and returns the text.
    async fn wait_contains(&self, css: &str, needle: &str) -> String {
        let mut seen = String::new();
        for _ in 0..100 {
            if let Ok(element) = self.client.find(Locator::Css(css)).await
                && let Ok(text) = element.text().await
            {
                if text.contains(needle) {
                    return text;
                }
                seen = text;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("`{css}` says `{seen}`, without `{needle}`");
    }

    /// Screenshots of the current page at 390 px and 1280 px wide, as `<name>-<width>.png`.
    async fn screenshots(&self, name: &str) {
        let folder = std::env::var_os("TURNIER_SCREENSHOTS")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| std::env::temp_dir().join("turnier-screenshots"));
        std::fs::create_dir_all(&folder).expect("the screenshots folder");
        for width in [390, 1280] {
            self.client
                .set_window_size(width, 900)
                .await
                .expect("resized");
            let png = self.client.screenshot().await.expect("a screenshot");
            std::fs::write(folder.join(format!("{name}-{width}.png")), png).expect("written");
            let errors = self.console_errors().await;
            assert!(
                errors.is_empty(),
                "the console shows errors on `{name}` at {width} px: {errors:#?}"
            );
            // Nothing wider than the window: a phone never scrolls sideways (tables scroll in
            // their own box).
            let wide = self
                .client
                .execute(
                    "if (document.documentElement.scrollWidth <= window.innerWidth) { return []; }
                     return [...document.querySelectorAll('main *')]
                       .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest('.table-scroll'))
                       .slice(0, 5).map(e => e.tagName + '.' + e.className + '#' + e.id);",
                    vec![],
                )
                .await
                .expect("a script");
            assert_eq!(wide, json!([]), "`{name}` is wider than {width} px");
            // An empty paragraph is the parser's: a `form` or `div` inside a `p` closes it
            // early, and the closing tag left over makes an empty one.
            let empty = self
                .client
                .execute(
                    "return [...document.querySelectorAll('p:empty')].map(p => p.parentElement.outerHTML.slice(0, 200));",
                    vec![],
                )
                .await
                .expect("a script");
            assert_eq!(
                empty,
                json!([]),
                "`{name}` has markup the parser had to mend"
            );
            let violations = self.axe().await;
            assert!(
                violations.is_empty(),
                "axe-core finds serious or critical violations on `{name}` at {width} px: {violations:#?}"
            );
        }
        self.client
            .set_window_size(1280, 900)
            .await
            .expect("resized");
    }

    /// The console's errors since the last call (ChromeDriver's log of the browser), but for
    /// images of other sites that cannot load here (the card images, with no network).
    async fn console_errors(&self) -> Vec<String> {
        let page = self.client.current_url().await.expect("a url");
        let answer = self
            .client
            .issue_cmd(BrowserLog)
            .await
            .expect("ChromeDriver's browser log");
        let entries: Vec<serde_json::Value> = serde_json::from_value(answer).unwrap_or_default();
        entries
            .into_iter()
            .filter(|entry| entry["level"] == "SEVERE")
            .filter_map(|entry| entry["message"].as_str().map(str::to_owned))
            .filter(|message| {
                let failed_load = message.contains("Failed to load resource");
                // A refused form's page answers 4xx on purpose (its own address).
                let own_page = message
                    .split(" - ")
                    .next()
                    .is_some_and(|url| url == page.as_str());
                !(failed_load && (!message.contains("127.0.0.1") || own_page))
            })
            .collect()
    }

    /// The serious and critical accessibility violations axe-core finds on the current page.
    async fn axe(&self) -> Vec<String> {
        let script = format!(
            "{};\nreturn axe.run(document, {{resultTypes: ['violations']}}).then(r => \
             r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')\
             .map(v => v.id + ': ' + v.help + ' @ ' + v.nodes.map(n => n.target.join(' ')).join(', ')));",
            axe_source()
        );
        let answer = self
            .client
            .execute(&script, vec![])
            .await
            .expect("axe runs");
        serde_json::from_value(answer).expect("a list of violations")
    }

    /// Whether the page's width fits the window (nothing scrolls sideways).
    async fn fits(&self) -> bool {
        let answer = self
            .client
            .execute(
                "return document.documentElement.scrollWidth <= window.innerWidth;",
                vec![],
            )
            .await
            .expect("a script");
        answer.as_bool().unwrap_or(false)
    }

    async fn stop(mut self) {
        let _ = self.client.clone().close().await;
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// ChromeDriver's log of the browser's console (`POST /session/{id}/se/log`).
#[derive(Debug)]
struct BrowserLog;

impl fantoccini::wd::WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/se/log",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (http::Method, Option<String>) {
        (
            http::Method::POST,
            Some(r#"{"type": "browser"}"#.to_owned()),
        )
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.driver.kill();
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_search_leads_to_a_card_page_and_a_bad_query_shows_where() {
    let platform = SamplePlatform::with_card_data(&["lor"]).await;
    let browser = Browser::start().await;
    let site = &platform.http;

    browser.go(&format!("{site}/")).await;
    browser.screenshots("home").await;
    browser.fill("#q-lor", "zed").await;
    browser.click("section.game form button").await;
    browser
        .wait_text("main h1", "Legends of Runeterra cards")
        .await;
    let url = browser.client.current_url().await.expect("a url");
    assert_eq!(url.path(), "/lor/cards");
    assert!(
        browser.count("ul.cards li").await >= 1,
        "{}",
        browser.client.source().await.unwrap_or_default()
    );
    let first = browser.text("ul.cards li .name").await;
    assert!(first.to_lowercase().contains("zed"), "{first}");
    let alt = browser
        .client
        .find(Locator::Css("ul.cards li img"))
        .await
        .expect("an image")
        .attr("alt")
        .await
        .expect("its alt");
    assert_eq!(alt.as_deref(), Some(first.as_str()), "alt text is the name");
    browser.screenshots("search").await;
    assert!(browser.fits().await, "the search page fits 1280 px");

    browser.click("ul.cards li a").await;
    browser.wait_text("main h1", &first).await;
    assert!(browser.text("main dl").await.contains("Ref"));
    browser.screenshots("card").await;

    // A query that does not parse: the message, and its position marked in the query.
    browser
        .go(&format!("{site}/lor/cards?q=cost%3C%3D3%20)"))
        .await;
    let error = browser.text(".error").await;
    assert!(error.contains("position"), "{error}");
    assert_eq!(browser.text(".error mark").await, ")");
    browser.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_visitor_signs_up_out_and_in_through_the_forms() {
    let platform = SamplePlatform::start().await;
    let browser = Browser::start().await;
    let site = &platform.http;

    browser.go(&format!("{site}/signup")).await;
    browser.screenshots("signup").await;
    browser.fill("#username", "webby").await;
    browser.fill("#password", "correct horse battery").await;
    browser.click("form.stack button").await;
    browser.wait_text("header .account a", "webby").await;

    // The cookie is the session: the API knows nothing of it without a bearer token.
    browser.click("header .account button").await;
    browser.wait_text("header .account a", "Sign in").await;

    browser.go(&format!("{site}/signin")).await;
    browser.fill("#username", "webby").await;
    browser.fill("#password", "wrong password!").await;
    browser.click("form.stack button").await;
    let error = browser.wait_for("#form-error").await;
    assert!(!error.is_empty(), "a wrong password says so");
    browser.fill("#password", "correct horse battery").await;
    browser.click("form.stack button").await;
    browser.wait_text("header .account a", "webby").await;
    browser.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn user_text_is_shown_as_text_never_run() {
    let platform = SamplePlatform::start().await;
    let browser = Browser::start().await;
    let hostile = "<img src=x onerror=alert(1)>";
    let url = format!(
        "{}/pokemon/cards?q={}",
        platform.http,
        url_escape(&format!("name:\"{hostile}\" )"))
    );
    browser.go(&url).await;
    // No element came from the query: it is text in the field, the title and the error.
    assert_eq!(browser.count("main img[src='x']").await, 0);
    let value = browser
        .client
        .find(Locator::Css("#q"))
        .await
        .expect("the field")
        .prop("value")
        .await
        .expect("its value");
    assert_eq!(
        value.as_deref(),
        Some(format!("name:\"{hostile}\" )").as_str())
    );
    let title = browser.client.title().await.expect("a title");
    assert!(title.contains(hostile), "{title}");
    browser.stop().await;
}

fn url_escape(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn pages_carry_a_strict_policy_and_forms_need_their_csrf_token() {
    let platform = SamplePlatform::start().await;
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("a client");
    let page = client
        .get(format!("{}/signup", platform.http))
        .send()
        .await
        .expect("the page");
    assert_eq!(page.status(), 200);
    let policy = page.headers()["content-security-policy"]
        .to_str()
        .expect("text")
        .to_owned();
    assert!(policy.contains("script-src 'self'"), "{policy}");
    assert!(!policy.contains("unsafe-inline"), "{policy}");
    let csrf_cookie = page
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .find(|value| value.starts_with("turnier_csrf="))
        .expect("a CSRF cookie")
        .to_owned();
    assert!(csrf_cookie.contains("HttpOnly"), "{csrf_cookie}");
    let visitor = csrf_cookie
        .trim_start_matches("turnier_csrf=")
        .split(';')
        .next()
        .expect("a value")
        .to_owned();
    let token = csrf_field(&page.text().await.expect("the body"));
    assert_ne!(
        token, visitor,
        "the form's token is made from the cookie, not the cookie itself"
    );

    let form = [
        ("username", "csrf-victim"),
        ("password", "correct horse battery"),
    ];
    // Without the token, with the cookie (what another site's form would send): refused.
    let refused = client
        .post(format!("{}/signup", platform.http))
        .header("cookie", format!("turnier_csrf={visitor}"))
        .form(&form)
        .send()
        .await
        .expect("an answer");
    assert_eq!(refused.status(), 403);
    assert!(
        refused
            .headers()
            .get_all("set-cookie")
            .iter()
            .all(|value| !value
                .to_str()
                .unwrap_or_default()
                .starts_with("turnier_session=")),
        "no session for a refused form"
    );
    // A wrong token: refused too.
    let wrong = client
        .post(format!("{}/signup", platform.http))
        .header("cookie", format!("turnier_csrf={visitor}"))
        .form(&[("csrf", "0".repeat(64).as_str()), form[0], form[1]])
        .send()
        .await
        .expect("an answer");
    assert_eq!(wrong.status(), 403);
    // A cookie and a field someone else chose (a cookie planted by a sibling site): refused.
    let planted = "0123456789abcdef".repeat(4);
    let chosen = client
        .post(format!("{}/signup", platform.http))
        .header("cookie", format!("turnier_csrf={planted}"))
        .form(&[("csrf", planted.as_str()), form[0], form[1]])
        .send()
        .await
        .expect("an answer");
    assert_eq!(chosen.status(), 403);
    // The right token, from another site (as the browser says): refused.
    for (header, value) in [
        ("sec-fetch-site", "cross-site"),
        ("origin", "https://evil.example"),
    ] {
        let cross = client
            .post(format!("{}/signup", platform.http))
            .header("cookie", format!("turnier_csrf={visitor}"))
            .header(header, value)
            .form(&[("csrf", token.as_str()), form[0], form[1]])
            .send()
            .await
            .expect("an answer");
        assert_eq!(cross.status(), 403, "{header}: {value}");
        let page = cross.text().await.expect("a body");
        assert!(page.contains("only accepted from this site"), "{page}");
    }
    // With it: signed up, the session in an HttpOnly, SameSite=Lax cookie, sent home.
    let accepted = client
        .post(format!("{}/signup", platform.http))
        .header("cookie", format!("turnier_csrf={visitor}"))
        .header("sec-fetch-site", "same-origin")
        .header("origin", platform.http.as_str())
        .form(&[("csrf", token.as_str()), form[0], form[1]])
        .send()
        .await
        .expect("an answer");
    assert_eq!(accepted.status(), 303);
    let session = accepted
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .find(|value| value.starts_with("turnier_session=tns_"))
        .expect("a session cookie")
        .to_owned();
    assert!(
        session.contains("HttpOnly") && session.contains("SameSite=Lax"),
        "{session}"
    );
    assert!(
        !session.contains("Secure"),
        "plain HTTP from a browser on this machine"
    );

    // Signed out with the form, the old cookie no longer signs anyone in: the page is
    // anonymous and clears it.
    let session_token = session
        .trim_start_matches("turnier_session=")
        .split(';')
        .next()
        .expect("a value")
        .to_owned();
    let cookies = format!("turnier_csrf={visitor}; turnier_session={session_token}");
    let home = client
        .get(format!("{}/", platform.http))
        .header("cookie", &cookies)
        .send()
        .await
        .expect("the page");
    let home = home.text().await.expect("a body");
    assert!(home.contains("csrf-victim"));
    // Signed in, the forms carry a token bound to the session: the one before is refused, and
    // so is the token of another session.
    let session_bound = csrf_field(&home);
    assert_ne!(session_bound, token);
    let other_session = {
        let other = client
            .post(format!("{}/api/v1/accounts", platform.http))
            .json(
                &serde_json::json!({"username": "csrf-other", "password": "correct horse battery"}),
            )
            .send()
            .await
            .expect("an answer");
        assert_eq!(other.status(), 201);
        let body: serde_json::Value = other.json().await.expect("JSON");
        let other_token = body["token"].as_str().expect("a session token").to_owned();
        form_token(
            &client,
            &platform.http,
            &format!("turnier_csrf={visitor}; turnier_session={other_token}"),
        )
        .await
    };
    for stale in [&token, &other_session] {
        let refused = client
            .post(format!("{}/signout", platform.http))
            .header("cookie", &cookies)
            .form(&[("csrf", stale.as_str())])
            .send()
            .await
            .expect("an answer");
        assert_eq!(refused.status(), 403);
    }
    let out = client
        .post(format!("{}/signout", platform.http))
        .header("cookie", &cookies)
        .form(&[("csrf", session_bound.as_str())])
        .send()
        .await
        .expect("an answer");
    assert_eq!(out.status(), 303);
    let stale = client
        .get(format!("{}/", platform.http))
        .header("cookie", &cookies)
        .send()
        .await
        .expect("the page");
    let cleared = stale
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .any(|value| value.starts_with("turnier_session=;") && value.contains("Max-Age=0"));
    assert!(cleared, "the stale session cookie is cleared");
    let body = stale.text().await.expect("a body");
    assert!(body.contains("Sign in") && !body.contains("csrf-victim"));

    // The assets are ours, versioned and cacheable; the page links them.
    let css = client
        .get(format!("{}/assets/site.css", platform.http))
        .send()
        .await
        .expect("the stylesheet");
    assert_eq!(css.status(), 200);
    assert!(
        css.headers()["content-type"]
            .to_str()
            .unwrap_or_default()
            .starts_with("text/css")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn api_tokens_are_made_shown_once_and_revoked_from_settings() {
    let platform = SamplePlatform::start().await;
    let browser = Browser::start().await;
    let site = &platform.http;

    // Not signed in: sent to sign in.
    browser.go(&format!("{site}/settings/tokens")).await;
    let url = browser.client.current_url().await.expect("a url");
    assert_eq!(url.path(), "/signin");

    browser.enter(site, "signup", "tokener").await;
    browser.go(&format!("{site}/settings/tokens")).await;
    browser.fill("#token-name", "<b>ci</b>").await;
    browser.click("form.stack button").await;
    let shown = browser.wait_for("#new-token code").await;
    assert!(shown.starts_with("tnp_"), "{shown}");
    assert_eq!(browser.count("main b").await, 0, "the name is text");
    browser.screenshots("tokens").await;

    // The secret works, read-only as asked.
    let client = reqwest::Client::new();
    let me = client
        .get(format!("{}/me", platform.api))
        .bearer_auth(&shown)
        .send()
        .await
        .expect("an answer");
    assert_eq!(me.status(), 200);
    // Reloading the page never shows it again.
    browser.go(&format!("{site}/settings/tokens")).await;
    assert_eq!(browser.count("#new-token").await, 0);
    let source = browser.client.source().await.expect("the page");
    assert!(!source.contains(&shown), "the secret is shown once");

    browser.click("button[aria-label='Revoke <b>ci</b>']").await;
    browser.wait_text("main h2 + p", "None yet.").await;
    let mut status = 200;
    for _ in 0..100 {
        // Other processes forget a revoked token within 5 s; this one at once or soon.
        status = client
            .get(format!("{}/me", platform.api))
            .bearer_auth(&shown)
            .send()
            .await
            .expect("an answer")
            .status()
            .as_u16();
        if status == 401 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(status, 401, "a revoked token stops working");

    // The profile page.
    browser.go(&format!("{site}/users/TOKENER")).await;
    assert_eq!(browser.text("main h1").await, "tokener");
    browser.screenshots("profile").await;
    browser.stop().await;
}

/// The ```` ```text ```` blocks of a Markdown page, in order, each without the indentation of
/// its fence (the guide indents the blocks inside a numbered list).
fn text_blocks(page: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut open: Option<(usize, Vec<&str>)> = None;
    for line in page.lines() {
        let indent = line.len() - line.trim_start().len();
        match &mut open {
            None if line.trim() == "```text" => open = Some((indent, Vec::new())),
            None => {}
            Some((_, lines)) if line.trim() == "```" => {
                blocks.push(lines.join("\n"));
                open = None;
            }
            Some((fence, lines)) => lines.push(line.get(*fence..).unwrap_or("")),
        }
    }
    blocks
}

/// Every pile on the page: `(pile, ["<card name> <copies>", …])`, in page order (names: a
/// code that names cards by set and number may load another printing of the same card).
async fn piles(browser: &Browser) -> Vec<(String, Vec<String>)> {
    let answer = browser
        .client
        .execute(
            "return [...document.querySelectorAll('section.pile')].map(p => [p.dataset.pile, \
             [...p.querySelectorAll('li[data-ref]')].map(li => li.querySelector('a').textContent + ' ' + \
             li.querySelector('.copies').textContent)]);",
            vec![],
        )
        .await
        .expect("a script");
    serde_json::from_value(answer).expect("piles")
}

#[tokio::test(flavor = "multi_thread")]
async fn the_deck_builder_reads_the_guides_four_riftbound_samples_and_shares_the_deck() {
    let platform = SamplePlatform::with_card_data(&["riftbound"]).await;
    let browser = Browser::start().await;
    let site = &platform.http;
    let guide = crate::script_pools::support::spec_page("guide-deck-builder.md");
    let section = &guide[guide.find("### Riftbound").expect("the Riftbound section")..];
    let samples = text_blocks(section).into_iter().take(4).collect::<Vec<_>>();
    assert_eq!(samples.len(), 4, "the guide's four Riftbound samples");

    let mut seen: Vec<Vec<(String, Vec<String>)>> = Vec::new();
    for sample in &samples {
        browser.go(&format!("{site}/riftbound/deck-builder")).await;
        browser.fill("#import", sample).await;
        browser.click("form.import button").await;
        browser.wait_for("#deck-issues").await;
        seen.push(piles(&browser).await);
    }
    browser.screenshots("deck-builder").await;
    let without_sideboard = |piles: &[(String, Vec<String>)]| -> Vec<(String, Vec<String>)> {
        piles
            .iter()
            .filter(|(name, _)| name != "sideboard")
            .cloned()
            .collect()
    };
    assert_eq!(
        seen[0].len(),
        5,
        "Legend, Rune Deck, Battlefields, Main Deck, Sideboard"
    );
    for (at, piles) in seen.iter().enumerate().skip(1) {
        assert_eq!(
            without_sideboard(piles),
            without_sideboard(&seen[0]),
            "sample {} gives the same piles as the first",
            at + 1
        );
    }
    // The Turny.gg list has no place for a sideboard; the other three carry it.
    assert_eq!(seen[1], seen[0]);
    assert_eq!(seen[2], seen[0]);
    let sideboard = |piles: &[(String, Vec<String>)]| {
        piles
            .iter()
            .find(|(name, _)| name == "sideboard")
            .map(|(_, cards)| cards.len())
    };
    assert_eq!(sideboard(&seen[0]), Some(1));
    assert_eq!(sideboard(&seen[3]), Some(0));

    // The sample's main deck is 10 cards: the built-in zone rule says so on the Main Deck pile,
    // and the whole deck's list repeats it with the pile's name.
    browser
        .go(&format!(
            "{site}/riftbound/deck-builder?import={}",
            url_escape(&samples[0])
        ))
        .await;
    let on_pile = browser
        .wait_for("section.pile[data-pile='main'] .pile-issues")
        .await;
    assert!(
        on_pile.contains("Main Deck: The main deck must contain exactly 40 cards."),
        "{on_pile}"
    );
    let whole = browser.text("#deck-issues").await;
    assert!(
        whole.contains("Main Deck: The main deck must contain exactly 40 cards."),
        "{whole}"
    );
    assert_eq!(
        browser
            .count("section.pile[data-pile='legend'] .pile-issues")
            .await,
        0,
        "the Legend pile is fine"
    );

    // One more copy of a main-deck card, then one less: the address is always the deck, and
    // the page changes in place (no reload: what a script left on the window is still there).
    let before = piles(&browser).await;
    browser
        .client
        .execute("window.turnierKept = 1; return null;", vec![])
        .await
        .expect("a script");
    let url_before = browser.client.current_url().await.expect("a url");
    browser
        .click("section.pile[data-pile='main'] li a[aria-label^='One more']")
        .await;
    browser.wait_for("#deck-issues").await;
    let after = piles(&browser).await;
    assert_ne!(after, before, "a copy was added");
    let kept = browser
        .client
        .execute("return window.turnierKept === 1;", vec![])
        .await
        .expect("a script");
    assert_eq!(kept, json!(true), "the builder changed without a reload");
    assert_ne!(
        browser.client.current_url().await.expect("a url"),
        url_before,
        "the address follows the deck"
    );
    browser
        .click("section.pile[data-pile='main'] li a[aria-label^='One less']")
        .await;
    browser.wait_for("#deck-issues").await;
    assert_eq!(piles(&browser).await, before);

    // Copy deck list: the button (hidden without JavaScript) puts the list on the clipboard,
    // or selects it where the clipboard refuses; either way it says so.
    browser.click("button[data-copy='deck-list']").await;
    let mut said = String::new();
    for _ in 0..50 {
        said = browser.text("button[data-copy='deck-list']").await;
        if said != "Copy deck list" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(said == "Copied" || said.starts_with("Selected"), "{said}");
    assert_eq!(
        browser.count("button[data-copy='deck-code']").await,
        1,
        "Riftbound: Copy deck code"
    );

    // The share link opens without an account and round-trips through the builder.
    let share = browser
        .client
        .find(Locator::Css("#share"))
        .await
        .expect("a share link")
        .attr("href")
        .await
        .expect("its address")
        .expect("an href");
    assert!(share.starts_with("/riftbound/decks/RIFT1."), "{share}");
    let anonymous = reqwest::get(format!("{site}{share}"))
        .await
        .expect("the page");
    assert_eq!(anonymous.status(), 200);
    browser.go(&format!("{site}{share}")).await;
    browser.screenshots("shared-deck").await;
    let shared = piles(&browser).await;
    let non_empty = |piles: Vec<(String, Vec<String>)>| -> Vec<(String, Vec<String>)> {
        piles
            .into_iter()
            .filter(|(_, cards)| !cards.is_empty())
            .collect()
    };
    assert_eq!(non_empty(shared), non_empty(before.clone()));
    browser.click("#open-in-builder").await;
    browser.wait_for("#deck-issues").await;
    assert_eq!(piles(&browser).await, before);
    assert!(browser.fits().await, "the builder fits 1280 px");
    browser.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn rulesets_are_saved_from_settings_an_unsafe_one_refused_at_its_line_and_names_stay_text() {
    let platform = SamplePlatform::start().await;
    let browser = Browser::start().await;
    let site = &platform.http;
    browser.enter(site, "signup", "ruler").await;

    // An unsafe script: refused, the issue shown at its line, the form kept.
    browser
        .go(&format!("{site}/settings/rulesets?game=lor"))
        .await;
    browser.fill("#ruleset-name", "Sneaky").await;
    browser
        .fill(
            "#ruleset-source",
            "export default function validateDeck(deck) {\n  return eval(\"true\");\n}",
        )
        .await;
    browser.click("form.stack button").await;
    browser.wait_for("#form-error").await;
    let flagged = browser.text("ol.code li.flagged").await;
    assert!(flagged.contains("eval"), "{flagged}");
    assert!(flagged.contains("Line 2"), "{flagged}");
    assert_eq!(browser.count("ol.code li.flagged").await, 1, "only line 2");
    browser.screenshots("rulesets-refused").await;

    // A safe one with a hostile name: saved, and the name is text.
    let hostile = "<img src=x onerror=alert(1)>";
    browser.fill("#ruleset-name", hostile).await;
    browser
        .fill(
            "#ruleset-source",
            "export default function validateDeck(deck) {\n  return true;\n}",
        )
        .await;
    browser.click("form.stack button").await;
    browser.wait_text("table.rulesets td", hostile).await;
    assert_eq!(
        browser.count("main img").await,
        0,
        "no element from the name"
    );
    browser.screenshots("rulesets").await;

    // Its row's actions: shared, duplicated, hidden from the pickers, the copy deleted.
    let row = "table.rulesets tbody tr";
    browser
        .click(&format!("{row} button[aria-label='Make public {hostile}']"))
        .await;
    browser
        .wait_text(&format!("{row} td:nth-child(4)"), "public")
        .await;
    browser
        .click(&format!("{row} button[aria-label='Duplicate {hostile}']"))
        .await;
    assert_eq!(
        browser.wait_count(row, 2).await,
        2,
        "the original and its copy"
    );
    let shared = browser
        .client
        .execute(
            "return [...document.querySelectorAll('table.rulesets tbody tr td:nth-child(4)')].map(c => c.textContent);",
            vec![],
        )
        .await
        .expect("a script");
    let mut shared: Vec<String> = serde_json::from_value(shared).expect("texts");
    shared.sort();
    assert_eq!(shared, ["private", "public"], "a duplicate starts private");
    let copy = browser
        .client
        .execute(
            "return [...document.querySelectorAll('table.rulesets tbody tr')].find(r => r.children[3].textContent === 'private').dataset.id;",
            vec![],
        )
        .await
        .expect("a script");
    let copy = format!("{row}[data-id='{}']", copy.as_str().expect("an id"));
    browser
        .click(&format!("{copy} button[aria-label^='Hide']"))
        .await;
    browser.wait_for(&format!("{copy} .badge")).await;
    assert!(
        browser
            .text(&copy)
            .await
            .contains("Hidden from rule pickers")
    );
    browser
        .click(&format!("{copy} button[aria-label^='Delete']"))
        .await;
    assert_eq!(browser.wait_count(row, 1).await, 1);
    assert!(
        browser.count("table.built-in tbody tr").await > 0,
        "the built-in rules are listed"
    );

    // Another account sees none of it; anonymous is sent to sign in.
    let other = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("a client");
    let anonymous = other
        .get(format!("{site}/settings/rulesets"))
        .send()
        .await
        .expect("an answer");
    assert_eq!(anonymous.status(), 303);
    browser.click("header .account button").await;
    browser.wait_text("header .account a", "Sign in").await;
    browser.enter(site, "signup", "other-ruler").await;
    browser
        .go(&format!("{site}/settings/rulesets?game=lor"))
        .await;
    assert!(browser.text("main").await.contains("None yet."));
    browser.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_player_saves_a_deck_from_the_builder_and_finds_it_again() {
    let platform = SamplePlatform::with_card_data(&["riftbound"]).await;
    let browser = Browser::start().await;
    let site = &platform.http;
    browser.enter(site, "signup", "saver").await;

    let guide = crate::script_pools::support::spec_page("guide-deck-builder.md");
    let section = &guide[guide.find("### Riftbound").expect("the Riftbound section")..];
    let sample = text_blocks(section).remove(0);
    browser
        .go(&format!(
            "{site}/riftbound/deck-builder?import={}",
            url_escape(&sample)
        ))
        .await;
    browser.wait_for("#deck-issues").await;
    let built = piles(&browser).await;
    assert_eq!(browser.text("#saved-heading").await, "Your decks");
    browser.fill("#deck-name", "Yasuo <Wind>").await;
    browser.click("#save button").await;
    let saved = browser.wait_for("#saved").await;
    assert_eq!(saved, "Saved on your account.");
    let warnings = browser.text("#save-warnings").await;
    assert!(
        warnings.contains("The main deck must contain exactly 40 cards."),
        "{warnings}"
    );

    // Reloaded from scratch: the deck is there, and opens with the same piles.
    browser.go(&format!("{site}/riftbound/deck-builder")).await;
    browser
        .wait_text("ul.saved-decks li a", "Yasuo <Wind>")
        .await;
    browser.click("ul.saved-decks li a").await;
    browser.wait_for("#deck-issues").await;
    assert_eq!(piles(&browser).await, built);
    browser.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_lor_builder_reads_the_guides_code_and_checks_it_with_the_default_rules() {
    let platform = SamplePlatform::with_card_data(&["lor"]).await;
    let browser = Browser::start().await;
    let site = &platform.http;
    let guide = crate::script_pools::support::spec_page("guide-deck-builder.md");
    let section = &guide[guide
        .find("### Legends of Runeterra")
        .expect("the LoR section")..];
    let code = text_blocks(section).remove(0);
    browser.go(&format!("{site}/lor/deck-builder")).await;
    browser.fill("#import", &code).await;
    browser.click("form.import button").await;
    // One pile (LoR starts as a single deck), 40 cards, and a verdict either way.
    browser.wait_for("section.pile[data-pile='main'] li").await;
    let shown = piles(&browser).await;
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert_eq!(
        browser.count(".piles.columns").await,
        0,
        "a single deck, as a list"
    );
    let copies: u32 = shown[0]
        .1
        .iter()
        .map(|entry| {
            entry
                .rsplit(' ')
                .next()
                .and_then(|count| count.trim_end_matches('×').parse::<u32>().ok())
                .expect("copies")
        })
        .sum();
    assert_eq!(copies, 40);
    let verdict = browser.count("#deck-valid").await + browser.count("#deck-issues").await;
    assert_eq!(verdict, 1, "the deck is checked");
    // The address is the deck: the same code the guide shows.
    let url = browser.client.current_url().await.expect("a url");
    let deck = url
        .query_pairs()
        .find(|(key, _)| key == "deck")
        .map(|(_, value)| value.into_owned());
    assert_eq!(deck.as_deref(), Some(code.trim()));
    browser.screenshots("lor-deck-builder").await;
    browser.stop().await;
}

/// Posts `body` to `url` with `token` and returns the answer's JSON, asserting it succeeded.
/// GETs `url` as JSON until `done` holds of the answer (up to 5 s: a click returns before
/// the page's form is answered), and returns the last answer.
async fn read_until(
    client: &reqwest::Client,
    url: &str,
    done: impl Fn(&serde_json::Value) -> bool,
) -> serde_json::Value {
    let mut answer = serde_json::Value::Null;
    for _ in 0..50 {
        answer = client
            .get(url)
            .send()
            .await
            .expect("an answer")
            .json()
            .await
            .expect("JSON");
        if done(&answer) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    answer
}

/// GETs `url` as JSON.
/// The CSRF token in the first form of `html`.
fn csrf_field(html: &str) -> String {
    html.split("name=\"csrf\" value=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a form with its CSRF token")
        .to_owned()
}

/// The CSRF token the forms of a browser sending `cookie` carry, read from the sign-in page.
async fn form_token(client: &reqwest::Client, site: &str, cookie: &str) -> String {
    let page = client
        .get(format!("{site}/signin"))
        .header("cookie", cookie)
        .send()
        .await
        .expect("the sign-in page");
    csrf_field(&page.text().await.expect("a body"))
}

async fn get_json(client: &reqwest::Client, url: &str) -> serde_json::Value {
    read_until(client, url, |_| true).await
}

async fn post_ok(
    client: &reqwest::Client,
    token: &str,
    url: String,
    body: serde_json::Value,
) -> serde_json::Value {
    let answer = client
        .post(url)
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .expect("an answer");
    let status = answer.status().as_u16();
    let body: serde_json::Value = answer.json().await.unwrap_or_default();
    assert!(status < 300, "{status}: {body}");
    body
}

/// A calculator drawing one widget of every kind, with fixed figures to read back.
const EVERY_WIDGET: &str = r##"export default function compute(pile, cardsById) {
  let copies = 0;
  Object.keys(pile).forEach((ref) => { copies += pile[ref]; });
  return {
    widgets: [
      { kind: "stat", label: "<script>alert(1)</script>", value: copies, unit: "cards" },
      { kind: "histogram", label: "Curve", buckets: [1, 4, 2], labels: ["1", "2", "3"] },
      { kind: "donut", label: "Split", segments: [
        { key: "a", label: "<b>A</b>", value: 3, color: "url(https://example.com/#x)" },
        { key: "b", label: "B", value: 1, color: "#3a78e8" } ] },
      { kind: "gauge", label: "Meter", segments: [
        { key: "a", label: "A", value: 2, color: "" }, { key: "b", label: "B", value: 2, color: "" } ] },
      { kind: "bars", label: "Bars", segments: [{ key: "a", label: "A", value: 5, color: "" }] },
      { kind: "table", label: "Table", columns: ["Card", "Copies"], rows: [["One", 1], ["Two", 2]] },
      { kind: "hypergeometric", label: "Odds", population: 60, successCount: 4, draws: 7, exactCounts: [1, 2] },
      { kind: "ratio", label: "Ratio", numerator: 22, denominator: 12, format: "ratio" },
      { kind: "ratio", label: "Nothing", numerator: 1, denominator: 0 },
    ],
  };
}
"##;

#[tokio::test(flavor = "multi_thread")]
async fn the_calculators_dialog_draws_every_widget_kind_and_says_when_a_calculator_fails() {
    let platform = SamplePlatform::with_card_data(&["riftbound"]).await;
    let site = &platform.http;
    let api = format!("{site}/api/v1");
    let client = reqwest::Client::new();
    let token = crate::ownership::session(&client, &api, "counter").await;
    let make = |name: &'static str, source: &'static str| {
        let client = client.clone();
        let (api, token) = (api.clone(), token.clone());
        async move {
            let answer = client
                .post(format!("{api}/riftbound/calculators"))
                .bearer_auth(&token)
                .json(&json!({"name": name, "source": source}))
                .send()
                .await
                .expect("an answer");
            assert_eq!(answer.status(), 201, "{name} is saved");
            let body: serde_json::Value = answer.json().await.expect("JSON");
            body["calculator"]["id"].as_str().expect("an id").to_owned()
        }
    };
    let every = make("Every widget", EVERY_WIDGET).await;
    let broken = make(
        "Broken",
        "export default function compute(pile, cardsById) {\n  return cardsById.nothing.name;\n}",
    )
    .await;

    let browser = Browser::start().await;
    browser.enter(site, "signin", "counter").await;
    let guide = crate::script_pools::support::spec_page("guide-deck-builder.md");
    let section = &guide[guide.find("### Riftbound").expect("the Riftbound section")..];
    let sample = text_blocks(section).remove(0);
    browser
        .go(&format!(
            "{site}/riftbound/deck-builder?import={}",
            url_escape(&sample)
        ))
        .await;
    browser.wait_for("#deck-issues").await;

    // The button opens the dialog on the game's default: every chart a drawing of its own.
    browser.click("#open-calculators").await;
    browser.wait_for("#calculators figure.widget").await;
    let groups = browser
        .client
        .execute(
            "return [...document.querySelectorAll('#calculator optgroup')].map(g => g.label);",
            vec![],
        )
        .await
        .expect("a script");
    assert_eq!(groups, json!(["Defaults", "Your calculators"]));
    let per_widget = "return [...document.querySelectorAll('#calculators figure.widget')].map(f => \
        [f.dataset.kind, f.querySelectorAll('svg.chart').length, f.querySelectorAll('table').length]);";
    let drawn = browser
        .client
        .execute(per_widget, vec![])
        .await
        .expect("a script");
    let drawn: Vec<(String, usize, usize)> = serde_json::from_value(drawn).expect("triples");
    assert!(drawn.len() >= 4, "Deck breakdown's widgets: {drawn:?}");
    for (kind, svgs, tables) in &drawn {
        if kind == "table" {
            assert_eq!((*svgs, *tables), (0, 1), "{drawn:?}");
        } else {
            assert_eq!(*svgs, 1, "one drawing per {kind}: {drawn:?}");
        }
    }
    browser.screenshots("calculators-default").await;

    // Picking one of the viewer's own: the picker submits itself.
    browser.pick("#calculator", &every).await;
    browser
        .wait_text(
            "#calculators figure.widget[data-kind='bars'] figcaption",
            "Bars",
        )
        .await;
    let drawn = browser
        .client
        .execute(per_widget, vec![])
        .await
        .expect("a script");
    let drawn: Vec<(String, usize, usize)> = serde_json::from_value(drawn).expect("triples");
    let kinds: Vec<&str> = drawn.iter().map(|(kind, _, _)| kind.as_str()).collect();
    assert_eq!(
        kinds,
        [
            "stat",
            "histogram",
            "donut",
            "gauge",
            "bars",
            "table",
            "hypergeometric",
            "ratio",
            "ratio"
        ]
    );
    let svgs: usize = drawn.iter().map(|(_, svgs, _)| svgs).sum();
    assert_eq!(svgs, 8, "one SVG per widget but the table: {drawn:?}");
    let stat = browser
        .text("#calculators figure.widget[data-kind='stat']")
        .await;
    assert!(stat.contains("<script>alert(1)</script>"), "{stat}");
    assert!(stat.contains(" cards"), "{stat}");
    assert_eq!(
        browser.count("#calculators script, #calculators b").await,
        0
    );
    let ratios = browser
        .client
        .execute(
            "return [...document.querySelectorAll('#calculators figure[data-kind=ratio] svg')].map(s => s.textContent.trim());",
            vec![],
        )
        .await
        .expect("a script");
    assert_eq!(ratios, json!(["11:6", "No data"]));
    let odds = browser
        .text("#calculators figure.widget[data-kind='hypergeometric']")
        .await;
    assert!(
        odds.contains("39.9%"),
        "P(X ≥ 1) of 4 in 60, 7 drawn: {odds}"
    );
    assert!(
        odds.contains("P(X = 1)") && odds.contains("P(X = 2)"),
        "{odds}"
    );
    let fills = browser
        .client
        .execute(
            "return [...document.querySelectorAll('#calculators figure[data-kind=donut] svg.chart circle[stroke-dasharray]')].map(c => c.getAttribute('stroke'));",
            vec![],
        )
        .await
        .expect("a script");
    let fills: Vec<String> = serde_json::from_value(fills).expect("colors");
    assert_eq!(fills.len(), 2);
    assert!(
        fills[0].starts_with('#') && fills[1] == "#3a78e8",
        "{fills:?}"
    );
    browser.screenshots("calculators").await;
    browser
        .client
        .set_window_size(360, 800)
        .await
        .expect("resized");
    let wide = browser.client.execute("return [...document.querySelectorAll('*')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 12).map(e => e.tagName + '.' + e.className + '#' + e.id + ' ' + Math.round(e.getBoundingClientRect().right));", vec![]).await.expect("a script");
    assert!(
        browser.fits().await,
        "the dashboard fits a 360 px phone: {wide}"
    );
    browser
        .client
        .set_window_size(1280, 900)
        .await
        .expect("resized");

    // A calculator that throws says the guide's sentence, and the script's message under it.
    let url = browser.client.current_url().await.expect("a url");
    let failing = url.as_str().replace(&every, &broken);
    browser.go(&failing).await;
    let said = browser.wait_for("#calculator-failed").await;
    assert!(
        said.starts_with("This calculator could not run. Its script may have an error."),
        "{said}"
    );

    // The shared deck's page opens it without an account: the defaults only.
    let share = browser
        .client
        .find(Locator::Css("#share"))
        .await
        .expect("a share link")
        .attr("href")
        .await
        .expect("its address")
        .expect("an href");
    let anonymous = reqwest::get(format!("{site}{share}?calc=riftbound-deck-breakdown"))
        .await
        .expect("the page")
        .text()
        .await
        .expect("its text");
    assert!(
        anonymous.contains("<optgroup label=\"Defaults\">"),
        "{anonymous}"
    );
    assert!(!anonymous.contains("Your calculators"));
    assert!(!anonymous.contains("Every widget"));
    assert!(anonymous.contains("<figure class=\"widget\""));
    browser.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_builders_rule_pickers_offer_built_ins_and_the_players_own_and_the_address_keeps_them()
{
    let platform = SamplePlatform::with_card_data(&["riftbound"]).await;
    let site = &platform.http;
    let api = format!("{site}/api/v1");
    let client = reqwest::Client::new();
    let token = crate::ownership::session(&client, &api, "picker").await;
    let answer = client
        .post(format!("{api}/riftbound/rulesets"))
        .bearer_auth(&token)
        .json(&json!({
            "name": "Never <b>legal</b>",
            "scope": "deck",
            "source": "export default function validateDeck(deck) {\n  return { valid: false, issues: [{ code: \"no\", message: \"Not in <my> house.\" }] };\n}",
        }))
        .send()
        .await
        .expect("an answer");
    assert_eq!(answer.status(), 201);
    let body: serde_json::Value = answer.json().await.expect("JSON");
    let own = body["ruleset"]["id"].as_str().expect("an id").to_owned();

    let browser = Browser::start().await;
    browser.enter(site, "signin", "picker").await;
    let guide = crate::script_pools::support::spec_page("guide-deck-builder.md");
    let section = &guide[guide.find("### Riftbound").expect("the Riftbound section")..];
    let sample = text_blocks(section).remove(0);
    browser
        .go(&format!(
            "{site}/riftbound/deck-builder?import={}",
            url_escape(&sample)
        ))
        .await;
    browser.wait_for("#deck-issues").await;
    let summary = browser.text("details.rules summary").await;
    assert_eq!(summary, "Rules: Standard · Riftbound constructed");

    // The whole-deck rule: the player's own, under its group, its message unprefixed.
    browser.click("details.rules summary").await;
    let groups = browser
        .client
        .execute(
            "return [...document.querySelectorAll('#pick-rule optgroup')].map(g => [g.label, g.children.length]);",
            vec![],
        )
        .await
        .expect("a script");
    let groups: Vec<(String, usize)> = serde_json::from_value(groups).expect("groups");
    assert_eq!(groups[0].0, "Built-in");
    assert_eq!(groups[1], ("Your rulesets".to_owned(), 1));
    browser.pick("#pick-rule", &own).await;
    // The Main Deck pile without its zone rule: its 40-card message goes.
    browser.pick("#pick-zone-main", "none").await;
    browser.click("form.rule-pickers button").await;
    browser.wait_for("#deck-issues").await;
    let mut whole = String::new();
    for _ in 0..100 {
        whole = browser.text("#deck-issues").await;
        if whole.contains("Not in <my> house.") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(whole.contains("Not in <my> house."), "{whole}");
    assert!(
        !whole.contains("Main Deck: The main deck must contain exactly 40 cards."),
        "{whole}"
    );
    assert_eq!(
        browser
            .count("section.pile[data-pile='main'] .pile-issues")
            .await,
        0
    );
    assert_eq!(
        browser.text("details.rules summary").await,
        "Rules: Standard · Never <b>legal</b>"
    );

    // A change to the deck keeps the rules: they are in the address.
    browser
        .click("section.pile[data-pile='main'] li a[aria-label^='One more']")
        .await;
    browser.wait_for("#deck-issues").await;
    let url = browser.client.current_url().await.expect("a url");
    let pairs: Vec<(String, String)> = url.query_pairs().into_owned().collect();
    assert!(
        pairs.contains(&("rule".to_owned(), own.clone())),
        "{pairs:?}"
    );
    assert!(
        pairs.contains(&("zone-main".to_owned(), "none".to_owned())),
        "{pairs:?}"
    );
    assert!(
        browser
            .text("#deck-issues")
            .await
            .contains("Not in <my> house.")
    );

    // Another visitor opening the same address sees no option for a ruleset not theirs, and
    // the rule cannot be read for them: the builder says so instead of showing the deck legal.
    let anonymous = reqwest::get(url.as_str())
        .await
        .expect("the page")
        .text()
        .await
        .expect("its text");
    assert!(!anonymous.contains("Your rulesets"));
    assert!(
        anonymous.contains("id=\"rules-failed\""),
        "a rule the visitor may not use is not passed over silently"
    );
    browser.screenshots("deck-builder-rules").await;
    browser.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_calculator_is_built_without_code_previewed_live_dropped_to_code_and_saved() {
    let platform = SamplePlatform::with_card_data(&["riftbound"]).await;
    let browser = Browser::start().await;
    let site = &platform.http;
    browser.enter(site, "signup", "builder").await;

    browser
        .go(&format!("{site}/settings/calculators?game=riftbound"))
        .await;
    let listed = browser.text("table.calculators tbody").await;
    assert!(
        listed.contains("Deck breakdown") && listed.contains("Default"),
        "{listed}"
    );
    browser.screenshots("calculators-settings").await;

    // The palette adds a curve; the preview draws it at once.
    browser.click("#new-calculator").await;
    browser.wait_for("#calculator-name").await;
    browser.fill("#calculator-name", "Curve check").await;
    browser.click("button[value='add:histogram']").await;
    browser.wait_for("li.widget-card").await;
    browser
        .wait_for("#preview figure.widget[data-kind='histogram'] svg.chart")
        .await;

    // Typing a title reruns the preview in place (no reload: the field keeps its text).
    browser.fill("#w0\\.label", "Energy <curve>").await;
    browser
        .wait_text("#preview figure.widget figcaption", "Energy <curve>")
        .await;

    // A stat, moved above the curve; a condition added to the curve's filter, then removed.
    browser.click("button[value='add:stat']").await;
    browser.wait_for("li.widget-card:nth-child(2)").await;
    browser.click("button[value='up:1']").await;
    browser
        .wait_text("li.widget-card:first-child h3", "1. Stat")
        .await;
    browser.click("button[value='cond:1:f']").await;
    browser.wait_for("#w1\\.f\\.c0\\.field").await;
    assert_eq!(browser.count(".condition").await, 1);
    browser.click("button[value='uncond:1:f:0']").await;
    assert_eq!(browser.wait_count(".condition", 0).await, 0);
    assert_eq!(
        browser.count("#preview figure.widget").await,
        2,
        "the preview shows both widgets"
    );
    browser.click("#compiled summary").await;
    assert!(
        browser
            .text("#compiled")
            .await
            .contains("@calculator-spec:v1")
    );
    browser.screenshots("calculator-builder").await;

    // Drop to code: the generated script; Back to builder works until the code is edited.
    browser.click("button[value='code']").await;
    browser.wait_for("#calculator-source").await;
    let generated = browser
        .client
        .find(Locator::Css("#calculator-source"))
        .await
        .expect("the editor")
        .prop("value")
        .await
        .expect("its value")
        .expect("a value");
    assert!(
        generated.starts_with("// @calculator-spec:v1"),
        "{generated}"
    );
    assert_eq!(browser.count("button[value='builder'][disabled]").await, 0);
    browser
        .fill("#calculator-source", &format!("{generated}\n// mine"))
        .await;
    browser.click("div.actions button[value='preview']").await;
    browser
        .wait_text(
            "#detached",
            "This script has been edited by hand, so it can no longer open in the builder.",
        )
        .await;
    assert_eq!(browser.count("button[value='builder'][disabled]").await, 1);
    browser.fill("#calculator-source", &generated).await;
    browser.click("div.actions button[value='preview']").await;
    for _ in 0..100 {
        if browser.count("#detached").await == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    browser.click("button[value='builder']").await;
    browser.wait_for("li.widget-card:nth-child(2)").await;
    assert_eq!(
        browser.text("li.widget-card:first-child h3").await,
        "1. Stat"
    );

    // Create: listed as Custom and Private; Edit reopens it in the builder.
    browser.click("#save-calculator").await;
    browser.wait_for("table.calculators").await;
    let row = browser
        .wait_for("table.calculators tbody tr:nth-child(2)")
        .await;
    assert!(
        row.contains("Curve check") && row.contains("Custom") && row.contains("Private"),
        "{row}"
    );
    browser
        .click("table.calculators a[aria-label='Edit Curve check']")
        .await;
    browser.wait_for("li.widget-card:nth-child(2)").await;
    let title = browser
        .client
        .find(Locator::Css("#w1\\.label"))
        .await
        .expect("the title")
        .prop("value")
        .await
        .expect("its value");
    assert_eq!(title.as_deref(), Some("Energy <curve>"));
    browser.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_profile_lists_what_its_owner_made_public_and_a_player_saves_a_copy_of_a_ruleset() {
    let platform = SamplePlatform::with_card_data(&["riftbound"]).await;
    let site = &platform.http;
    let api = format!("{site}/api/v1");
    let client = reqwest::Client::new();
    let token = crate::ownership::session(&client, &api, "author").await;
    for (what, body) in [
        (
            "rulesets",
            json!({"name": "Shared <rule>", "scope": "deck", "public": true,
                   "source": "export default function validateDeck(deck) {\n  return true;\n}"}),
        ),
        (
            "rulesets",
            json!({"name": "Private rule", "scope": "deck",
                   "source": "export default function validateDeck(deck) {\n  return true;\n}"}),
        ),
        (
            "calculators",
            json!({"name": "Shared counter", "public": true, "source": EVERY_WIDGET}),
        ),
    ] {
        let answer = client
            .post(format!("{api}/riftbound/{what}"))
            .bearer_auth(&token)
            .json(&body)
            .send()
            .await
            .expect("an answer");
        assert_eq!(answer.status(), 201, "{body}");
    }

    // Anyone reads the profile: the public ones, escaped, and no private one.
    let anonymous = reqwest::get(format!("{site}/users/AUTHOR"))
        .await
        .expect("the page")
        .text()
        .await
        .expect("its text");
    assert!(anonymous.contains("Shared &lt;rule&gt;"), "{anonymous}");
    assert!(anonymous.contains("Shared counter"));
    assert!(!anonymous.contains("Private rule"));
    assert!(!anonymous.contains("Save to my rulesets"));

    let browser = Browser::start().await;
    browser.enter(site, "signup", "reader").await;
    browser.go(&format!("{site}/users/author")).await;
    assert_eq!(browser.text("#rulesets-heading + h3").await, "Deck rules");
    browser.click("ul.public-rulesets details summary").await;
    assert!(
        browser
            .text("ul.public-rulesets details")
            .await
            .contains("validateDeck")
    );
    browser.screenshots("profile").await;
    browser
        .click("ul.public-rulesets button[aria-label='Save to my rulesets Shared <rule>']")
        .await;
    let row = browser.wait_for("table.rulesets tbody tr").await;
    assert!(
        row.contains("Shared <rule>") && row.contains("Downloaded"),
        "{row}"
    );
    browser.stop().await;
}

/// The element that has the focus, as a test reads it: its tag, id and accessible label.
async fn focused(browser: &Browser) -> String {
    let answer = browser
        .client
        .execute(
            "const e = document.activeElement; return e.tagName.toLowerCase() + '#' + e.id + ' ' + \
             (e.getAttribute('aria-label') || e.textContent.trim().slice(0, 40));",
            vec![],
        )
        .await
        .expect("a script");
    answer.as_str().unwrap_or_default().to_owned()
}

/// Presses `key` on the keyboard (wherever the focus is), as a person would.
async fn press(browser: &Browser, key: char) {
    use fantoccini::actions::{InputSource, KeyAction, KeyActions};
    let actions = KeyActions::new("keyboard".to_owned())
        .then(KeyAction::Down { value: key })
        .then(KeyAction::Up { value: key });
    browser
        .client
        .perform_actions(actions)
        .await
        .expect("a key press");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_deck_builder_works_by_keyboard_alone() {
    const TAB: char = '\u{E004}';
    const ENTER: char = '\u{E007}';
    let platform = SamplePlatform::with_card_data(&["riftbound"]).await;
    let browser = Browser::start().await;
    let site = &platform.http;
    let guide = crate::script_pools::support::spec_page("guide-deck-builder.md");
    let section = &guide[guide.find("### Riftbound").expect("the Riftbound section")..];
    let sample = text_blocks(section).remove(0);
    browser
        .go(&format!(
            "{site}/riftbound/deck-builder?import={}",
            url_escape(&sample)
        ))
        .await;
    browser.wait_for("#deck-issues").await;
    browser
        .client
        .execute("document.activeElement.blur(); return null;", vec![])
        .await
        .expect("a script");

    // Tab walks every control once, each showing where the focus is.
    let mut seen: Vec<String> = Vec::new();
    for _ in 0..400 {
        press(&browser, TAB).await;
        let now = focused(&browser).await;
        if now.starts_with("body#") {
            // Past the last control the focus leaves the page for a step.
            continue;
        }
        if seen.first() == Some(&now) {
            break;
        }
        let outline = browser
            .client
            .execute(
                "const s = getComputedStyle(document.activeElement); return s.outlineStyle !== 'none' && s.outlineWidth !== '0px';",
                vec![],
            )
            .await
            .expect("a script");
        assert_eq!(outline, json!(true), "no visible focus on {now}");
        seen.push(now);
    }
    let reached = |needle: &str| seen.iter().any(|each| each.contains(needle));
    for needle in [
        "Skip to content",
        "textarea#import",
        "input#q",
        "a#open-calculators",
        "Rules:",
        "One more ",
        "One less ",
        "a#share",
    ] {
        assert!(reached(needle), "Tab never reaches `{needle}`: {seen:#?}");
    }

    // Enter on "One more …" adds a copy; the focus stays on that control for the next press.
    let before = piles(&browser).await;
    let mut target = String::new();
    for _ in 0..400 {
        press(&browser, TAB).await;
        target = focused(&browser).await;
        if target.contains("One more ") {
            break;
        }
    }
    press(&browser, ENTER).await;
    browser.settled().await;
    for _ in 0..100 {
        if piles(&browser).await != before {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_ne!(piles(&browser).await, before, "Enter added a copy");
    assert_eq!(
        focused(&browser).await,
        target,
        "the focus stays where it was"
    );
    browser.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn templates_are_saved_from_an_empty_builder_switched_to_and_managed_in_settings() {
    let platform = SamplePlatform::with_card_data(&["riftbound"]).await;
    let site = &platform.http;
    let browser = Browser::start().await;
    browser.enter(site, "signup", "layouter").await;

    // Riftbound opens on the Constructed template.
    browser.go(&format!("{site}/riftbound/deck-builder")).await;
    assert_eq!(
        browser.text("details.templates summary").await,
        "Template: Constructed"
    );
    assert_eq!(piles(&browser).await.len(), 5);
    assert_eq!(browser.count(".piles.columns").await, 1, "in Pile View");
    browser.click("#pile-view").await;
    browser.wait_text("p.view-toggle strong", "off").await;
    assert_eq!(browser.count(".piles.columns").await, 0);
    browser.click("#pile-view").await;
    browser.wait_text("p.view-toggle strong", "on").await;

    // Save as Template (every pile empty), with the Main Deck's zone rule turned off.
    browser.click("details.rules summary").await;
    browser.pick("#pick-zone-main", "none").await;
    browser.click("form.rule-pickers button").await;
    browser.click("details.templates summary").await;
    browser.fill("#template-name", "No main <limit>").await;
    browser.click("#save-template button").await;
    browser
        .wait_text("details.templates summary", "Template: No main <limit>")
        .await;
    let url = browser.client.current_url().await.expect("a url");
    let template = url
        .query_pairs()
        .find(|(key, _)| key == "template")
        .map(|(_, value)| value.into_owned())
        .expect("the builder opens on it");

    // On it, the sample's 10-card main deck breaks no zone rule; on Constructed it does.
    let guide = crate::script_pools::support::spec_page("guide-deck-builder.md");
    let section = &guide[guide.find("### Riftbound").expect("the Riftbound section")..];
    let sample = text_blocks(section).remove(0);
    browser
        .go(&format!(
            "{site}/riftbound/deck-builder?template={template}&import={}",
            url_escape(&sample)
        ))
        .await;
    browser.wait_for("#deck-issues").await;
    assert_eq!(
        browser
            .count("section.pile[data-pile='main'] .pile-issues")
            .await,
        0,
        "the template's Main Deck has no zone rule"
    );
    browser.click("details.templates summary").await;
    browser
        .pick("#pick-template", "riftbound-constructed")
        .await;
    browser.click("details.templates form button").await;
    browser
        .wait_text("details.templates summary", "Template: Constructed")
        .await;
    assert!(
        piles(&browser)
            .await
            .iter()
            .all(|(_, cards)| cards.is_empty()),
        "switching replaces every pile, cards included"
    );

    // Settings: listed with the Turny one; renamed, made public, then deleted.
    browser
        .go(&format!("{site}/settings/templates?game=riftbound"))
        .await;
    let listed = browser.text("table.templates tbody").await;
    assert!(
        listed.contains("Constructed") && listed.contains("No main <limit>"),
        "{listed}"
    );
    browser.screenshots("templates").await;
    let row = format!("table.templates tr[data-id='{template}']");
    browser.fill(&format!("#rename-{template}"), "Loose").await;
    browser
        .click(&format!(
            "{row} button[aria-label='Rename No main <limit>']"
        ))
        .await;
    browser
        .wait_text(&format!("{row} td:first-child"), "Loose Private")
        .await;
    browser
        .click(&format!("{row} button[aria-label='Make public Loose']"))
        .await;
    browser
        .wait_text(&format!("{row} td:first-child"), "Loose Public")
        .await;
    browser
        .click(&format!("{row} button[aria-label='Delete Loose']"))
        .await;
    assert_eq!(browser.wait_count(&row, 0).await, 0);
    browser.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_pokemon_builder_reads_the_guides_code_and_list_as_the_same_deck() {
    let platform = SamplePlatform::with_card_data(&["pokemon"]).await;
    let browser = Browser::start().await;
    let site = &platform.http;
    let guide = crate::script_pools::support::spec_page("guide-deck-builder.md");
    let start = guide.find("### Pokémon TCG").expect("the Pokémon section");
    let end = guide.find("### Riftbound").expect("the Riftbound section");
    let samples = text_blocks(&guide[start..end]);
    assert_eq!(samples.len(), 2, "the guide's code and list");

    let mut seen = Vec::new();
    for sample in &samples {
        browser.go(&format!("{site}/pokemon/deck-builder")).await;
        browser.fill("#import", sample).await;
        browser.click("form.import button").await;
        browser.wait_for("section.pile[data-pile='main'] li").await;
        let mut shown = piles(&browser).await;
        for (_, cards) in &mut shown {
            cards.sort();
        }
        // The shared card data has no Mega Evolution promos (`30C`, `me55`): both formats say
        // so for the same two cards, line by line, and keep the rest.
        let skipped = browser.text("#skipped").await;
        assert_eq!(skipped.matches("card not found").count(), 2, "{skipped}");
        assert!(
            skipped.contains("66") && skipped.contains("128"),
            "{skipped}"
        );
        seen.push(shown);
    }
    assert_eq!(seen[0], seen[1], "the code and the list give the same deck");
    assert_eq!(seen[0].len(), 1, "Pokémon starts as a single deck");
    let copies: u32 = seen[0][0]
        .1
        .iter()
        .filter_map(|entry| {
            entry
                .rsplit(' ')
                .next()?
                .trim_end_matches('×')
                .parse::<u32>()
                .ok()
        })
        .sum();
    assert_eq!(copies, 12, "the guide's 20 cards but the two skipped 4-ofs");
    // A 12-card deck breaks the 60-card rule, said for the whole deck.
    let issues = browser.wait_for("#deck-issues").await;
    assert!(issues.contains("60"), "{issues}");
    // Share links to the PTCG1 code.
    let share = browser
        .client
        .find(Locator::Css("#share"))
        .await
        .expect("a share link")
        .attr("href")
        .await
        .expect("its address")
        .expect("an href");
    assert!(share.starts_with("/pokemon/decks/PTCG1."), "{share}");
    assert_eq!(
        browser.count("button[data-copy='deck-code']").await,
        0,
        "no separate deck code: the share code is the code"
    );
    browser.screenshots("pokemon-deck-builder").await;
    browser.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_settings_forms_apply_the_ownership_rule_to_every_caller() {
    use crate::ownership::{Callers, Who};
    /// The CSRF cookie of the browser's (64 hex digits, as the pages make them).
    const CSRF: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    let platform = SamplePlatform::start().await;
    let site = &platform.http;
    let api = format!("{site}/api/v1");
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("a client");
    let callers = Callers::make(&client, &api, "keeper").await;
    let made = |path: &'static str, body: serde_json::Value, pointer: &'static str| {
        let (client, api, owner) = (client.clone(), api.clone(), callers.owner.clone());
        async move {
            let answer = client
                .post(format!("{api}/riftbound/{path}"))
                .bearer_auth(&owner)
                .json(&body)
                .send()
                .await
                .expect("an answer");
            assert_eq!(answer.status(), 201, "{path}");
            let body: serde_json::Value = answer.json().await.expect("JSON");
            body.pointer(pointer)
                .and_then(|id| id.as_str())
                .expect("an id")
                .to_owned()
        }
    };
    let ruleset = made(
        "rulesets",
        json!({"name": "Mine", "scope": "deck",
               "source": "export default function validateDeck(deck) {\n  return true;\n}"}),
        "/ruleset/id",
    )
    .await;
    let calculator = made(
        "calculators",
        json!({"name": "Mine", "source": EVERY_WIDGET}),
        "/calculator/id",
    )
    .await;
    let private_calculator = made(
        "calculators",
        json!({"name": "Private", "source": EVERY_WIDGET}),
        "/calculator/id",
    )
    .await;
    let template = made(
        "templates",
        json!({"name": "Mine", "piles": [{"name": "Everything"}], "decksetRule": "riftbound-any-lineup"}),
        "/template/id",
    )
    .await;

    // A browser of each caller: the token in the session cookie, a CSRF cookie of its own,
    // and the CSRF token its forms carry (bound to its session, read from a page).
    let cookie_of = |who: Who| {
        let mut cookie = format!("turnier_csrf={CSRF}");
        if let Some(token) = callers.token(who) {
            cookie.push_str(&format!("; turnier_session={token}"));
        }
        cookie
    };
    let as_browser = |who: Who, request: reqwest::RequestBuilder| {
        request
            .header("cookie", cookie_of(who))
            .header("accept", "text/html")
    };
    let mut tokens = Vec::new();
    for who in [
        Who::Owner,
        Who::Other,
        Who::Anonymous,
        Who::ReadOnly,
        Who::Revoked,
    ] {
        tokens.push((who, form_token(&client, site, &cookie_of(who)).await));
    }
    let csrf = |who: Who| -> &str {
        tokens
            .iter()
            .find(|(of, _)| *of == who)
            .map(|(_, token)| token.as_str())
            .expect("a token of every caller")
    };
    // Owner: done (back to the list); another account: the resource is not theirs to see;
    // anonymous and a revoked token: sent to sign in; a read-only token: refused.
    let matrix = [
        (Who::Other, 404),
        (Who::Anonymous, 303),
        (Who::ReadOnly, 403),
        (Who::Revoked, 303),
        (Who::Owner, 303),
    ];
    for (path, id) in [
        ("rulesets", &ruleset),
        ("calculators", &calculator),
        ("templates", &template),
    ] {
        for (who, status) in matrix {
            let answer = as_browser(
                who,
                client.post(format!("{site}/settings/{path}/{id}")).form(&[
                    ("csrf", csrf(who)),
                    ("game", "riftbound"),
                    ("action", "public"),
                ]),
            )
            .send()
            .await
            .expect("an answer");
            let got = answer.status().as_u16();
            let location = answer
                .headers()
                .get("location")
                .and_then(|to| to.to_str().ok())
                .unwrap_or_default()
                .to_owned();
            let page = answer.text().await.unwrap_or_default();
            assert_eq!(got, status, "make {path} public as {who:?}: {page}");
            if status == 303 {
                let to = location;
                let expected = if who == Who::Owner {
                    "/settings/"
                } else {
                    "/signin"
                };
                assert!(to.starts_with(expected), "{path} as {who:?} goes to {to}");
            }
        }
    }
    // Reading a private calculator in its editor: the owner and their read-only token only.
    for (who, status) in [
        (Who::Owner, 200),
        (Who::ReadOnly, 200),
        (Who::Other, 404),
        (Who::Anonymous, 303),
        (Who::Revoked, 303),
    ] {
        let answer = as_browser(
            who,
            client.get(format!(
                "{site}/settings/calculators/edit?game=riftbound&id={private_calculator}"
            )),
        )
        .send()
        .await
        .expect("an answer");
        assert_eq!(
            answer.status().as_u16(),
            status,
            "open the editor as {who:?}"
        );
    }
    // A tournament's console: everyone may read the tournament, only its organizer runs it
    // (another account is refused, not sent away).
    let tournament = made(
        "tournaments",
        json!({"name": "Owned", "stages": [{"format": "swiss"}]}),
        "/tournament/id",
    )
    .await;
    for (who, read, act) in [
        (Who::Owner, 200, 303),
        (Who::ReadOnly, 200, 403),
        (Who::Other, 403, 403),
        (Who::Anonymous, 303, 303),
        (Who::Revoked, 303, 303),
    ] {
        let manage = format!("{site}/tournaments/{tournament}/manage");
        for (page, form) in [
            (
                "manage",
                &[("csrf", csrf(who)), ("action", "closeRegistration")][..],
            ),
            (
                "deck-settings",
                &[
                    ("csrf", csrf(who)),
                    ("op", "save"),
                    ("decks_on", "on"),
                    ("decks", "2"),
                ][..],
            ),
        ] {
            let url = format!("{site}/tournaments/{tournament}/{page}");
            let answer = as_browser(who, client.get(&url))
                .send()
                .await
                .expect("an answer");
            assert_eq!(answer.status().as_u16(), read, "open {page} as {who:?}");
            let answer = as_browser(who, client.post(&url).form(form))
                .send()
                .await
                .expect("an answer");
            let got = answer.status().as_u16();
            let location = answer
                .headers()
                .get("location")
                .and_then(|to| to.to_str().ok())
                .unwrap_or_default()
                .to_owned();
            assert_eq!(got, act, "post {page} as {who:?}");
            if act == 303 {
                let expected = if who == Who::Owner {
                    manage.trim_start_matches(site.as_str())
                } else {
                    "/signin"
                };
                assert!(location.starts_with(expected), "{who:?} goes to {location}");
            }
        }
    }
    let open = get_json(&client, &format!("{api}/tournaments/{tournament}")).await;
    assert_eq!(
        open["tournament"]["registrationOpen"], false,
        "the owner closed it"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn multi_deck_checks_a_lineup_with_the_deck_set_rule_and_saves_it_as_a_deck_set() {
    let platform = SamplePlatform::with_card_data(&["lor"]).await;
    let browser = Browser::start().await;
    let site = &platform.http;
    browser.enter(site, "signup", "captain").await;
    let guide = crate::script_pools::support::spec_page("guide-deck-builder.md");
    let section = &guide[guide
        .find("### Legends of Runeterra")
        .expect("the LoR section")..];
    let code = text_blocks(section).remove(0);
    browser
        .go(&format!(
            "{site}/lor/deck-builder?deck={}",
            url_escape(code.trim())
        ))
        .await;
    browser.wait_for("section.pile[data-pile='main'] li").await;
    let single = piles(&browser).await;

    // Multi deck: the deck becomes the lineup's first, with an empty second beside it.
    browser.click("#multi-deck").await;
    browser.wait_for("section.pile[data-pile='deck-1']").await;
    let lineup = piles(&browser).await;
    assert_eq!(lineup.len(), 2, "{lineup:?}");
    assert_eq!(lineup[0].1, single[0].1, "the first deck is the deck");
    assert!(lineup[1].1.is_empty());

    // The same deck again as the second: the deck set rule (Riot lock) refuses the lineup,
    // its messages without a deck's prefix.
    browser.fill("#import", &code).await;
    browser.click("form.import button").await;
    browser.wait_for("#deck-issues").await;
    let lineup = piles(&browser).await;
    assert_eq!(lineup[1].1, lineup[0].1, "the import filled the empty deck");
    let issues = browser.text("#deck-issues").await;
    assert!(issues.contains("Warnings for the lineup"), "{issues}");
    let lines = browser
        .client
        .execute(
            "return [...document.querySelectorAll('#deck-issues li')].map(li => li.textContent);",
            vec![],
        )
        .await
        .expect("a script");
    let lines: Vec<String> = serde_json::from_value(lines).expect("texts");
    assert!(
        lines.iter().any(|line| !line.starts_with("Deck ")),
        "the deck set rule's own message: {lines:?}"
    );
    let url = browser.client.current_url().await.expect("a url");
    assert!(
        url.query_pairs()
            .any(|(key, value)| key == "lineup" && value.contains('|')),
        "{url}"
    );

    // One more copy in Deck 2 changes Deck 2 alone.
    browser
        .click("section.pile[data-pile='deck-1'] li a[aria-label^='One more']")
        .await;
    browser.wait_for("#deck-issues").await;
    let changed = piles(&browser).await;
    assert_eq!(changed[0].1, lineup[0].1);
    assert_ne!(changed[1].1, lineup[1].1);
    browser.screenshots("multi-deck").await;

    // A Multi deck template opens as a lineup of as many empty decks, with its deck set rule.
    let api = format!("{site}/api/v1");
    let client = reqwest::Client::new();
    let token = crate::ownership::session(&client, &api, "templater").await;
    let answer = client
        .post(format!("{api}/lor/templates"))
        .bearer_auth(&token)
        .json(&json!({
            "name": "Best of three", "layout": "multi-deck", "public": true,
            "piles": [{"name": "Deck 1"}, {"name": "Deck 2"}, {"name": "Deck 3"}],
            "decksetRule": "lor-riot-lock",
        }))
        .send()
        .await
        .expect("an answer");
    assert_eq!(answer.status(), 201);
    let body: serde_json::Value = answer.json().await.expect("JSON");
    let template = body["template"]["id"].as_str().expect("an id").to_owned();
    let page = reqwest::get(format!("{site}/lor/deck-builder?template={template}"))
        .await
        .expect("the page")
        .text()
        .await
        .expect("its text");
    assert!(page.contains("Open it in Multi deck"), "{page}");
    assert!(
        page.contains("lineup=%7C%7C&amp;setrule=lor-riot-lock"),
        "three empty decks and the template's deck set rule"
    );

    // Saved as a deck set, with the warnings it still has.
    browser.fill("#lineup-name", "Bo2 <test>").await;
    browser.click("#save-lineup button").await;
    assert_eq!(
        browser.wait_for("#saved").await,
        "Saved on your account as a deck set."
    );
    browser.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_player_registers_on_the_tournament_page_and_sees_pairings_and_live_standings() {
    let platform = SamplePlatform::start().await;
    let site = &platform.http;
    let api = format!("{site}/api/v1");
    let client = reqwest::Client::new();
    let organizer = crate::ownership::session(&client, &api, "host").await;
    let post = |path: String, body: serde_json::Value| post_ok(&client, &organizer, path, body);
    let created = post(
        format!("{api}/riftbound/tournaments"),
        json!({"name": "Store <night>", "stages": [{"format": "swiss", "settings": {"rounds": 3}}]}),
    )
    .await;
    let id = created["tournament"]["id"]
        .as_str()
        .expect("an id")
        .to_owned();
    for n in 1..=6 {
        post(
            format!("{api}/tournaments/{id}/registrations"),
            json!({"displayName": format!("Guest {n}")}),
        )
        .await;
    }
    // A rival with an account signs up through the API.
    let rival = crate::ownership::session(&client, &api, "rival").await;
    let answer = client
        .post(format!("{api}/tournaments/{id}/registrations"))
        .bearer_auth(&rival)
        .send()
        .await
        .expect("an answer");
    assert_eq!(answer.status(), 201);

    // A player finds it under Upcoming and registers on its page.
    let browser = Browser::start().await;
    browser.enter(site, "signup", "walkin").await;
    browser.go(&format!("{site}/riftbound/tournaments")).await;
    let upcoming = browser
        .text("section[aria-labelledby='state-registration']")
        .await;
    assert!(upcoming.contains("Store <night>"), "{upcoming}");
    browser.click("ul.tournaments a").await;
    browser.wait_for("#registration-count").await;
    assert!(browser.text("ol.stages").await.contains("Swiss"));
    browser
        .click("section[aria-labelledby='registration-heading'] button")
        .await;
    browser
        .wait_text("#my-registration", "You are registered.")
        .await;
    assert!(
        browser
            .text("#registration-count")
            .await
            .starts_with("8 registered")
    );
    browser.screenshots("tournament").await;

    // The organizer starts and pairs (walkin against rival on the first table, by hand): four
    // tables, every player's name on them.
    post(format!("{api}/tournaments/{id}:start"), json!({})).await;
    let listed: serde_json::Value = client
        .get(format!("{api}/tournaments/{id}/registrations"))
        .send()
        .await
        .expect("an answer")
        .json()
        .await
        .expect("JSON");
    let registration = |name: &str| -> String {
        listed["registrations"]
            .as_array()
            .expect("registrations")
            .iter()
            .find(|each| each["displayName"] == name)
            .and_then(|each| each["id"].as_str())
            .expect("registered")
            .to_owned()
    };
    let pairings: Vec<serde_json::Value> = [
        ("walkin", "rival"),
        ("Guest 1", "Guest 2"),
        ("Guest 3", "Guest 4"),
        ("Guest 5", "Guest 6"),
    ]
    .iter()
    .map(|(a, b)| json!({"players": [registration(a), registration(b)]}))
    .collect();
    let round = post(
        format!("{api}/tournaments/{id}/rounds"),
        json!({"pairings": pairings}),
    )
    .await;
    browser
        .go(&format!("{site}/tournaments/{id}/pairings"))
        .await;
    assert_eq!(browser.count("table.pairings tbody tr").await, 4);
    assert!(browser.text("table.pairings").await.contains("walkin"));
    browser.screenshots("pairings").await;

    // The player's page shows their table; when the rival reports through the API, the page
    // asks the player to confirm, live; confirming decides it.
    browser.go(&format!("{site}/tournaments/{id}")).await;
    let table = browser.wait_for("#my-table").await;
    assert!(table.contains("against rival"), "{table}");
    let ours = round["round"]["matches"]
        .as_array()
        .expect("matches")
        .iter()
        .find(|played| played["players"][0] == registration("walkin").as_str())
        .expect("our match")
        .clone();
    let ours_id = ours["id"].as_str().expect("an id").to_owned();
    let answer = client
        .post(format!("{api}/tournaments/{id}/matches/{ours_id}:report"))
        .bearer_auth(&rival)
        .json(&json!({"games": [0, 2]}))
        .send()
        .await
        .expect("an answer");
    assert_eq!(answer.status(), 200);
    let prompt = browser.wait_for("#confirm").await;
    assert!(
        prompt.contains("rival reported: you 0 – 2 rival"),
        "{prompt}"
    );
    browser.screenshots("my-match").await;
    browser.click("#confirm button").await;
    let decided = browser.wait_for("#decided").await;
    assert!(decided.contains("confirmed"), "{decided}");

    // Standings follow the events stream: results reported through the API show up in the
    // open page without a reload.
    browser
        .go(&format!("{site}/tournaments/{id}/standings"))
        .await;
    browser
        .client
        .execute("window.turnierKept = 1; return null;", vec![])
        .await
        .expect("a script");
    let before = browser.text("main").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    for played in round["round"]["matches"].as_array().expect("matches") {
        let match_id = played["id"].as_str().expect("an id");
        if match_id == ours_id {
            continue;
        }
        post(
            format!("{api}/tournaments/{id}/matches/{match_id}:report"),
            json!({"games": [2, 0]}),
        )
        .await;
    }
    let mut now = before.clone();
    for _ in 0..100 {
        now = browser.text("main").await;
        if now.contains("1–0–0") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(now.contains("1–0–0"), "the standings updated live: {now}");
    let kept = browser
        .client
        .execute("return window.turnierKept === 1;", vec![])
        .await
        .expect("a script");
    assert_eq!(kept, json!(true), "without a reload");
    let meanings = browser
        .client
        .execute(
            "return [...document.querySelectorAll('table.standings th abbr')].map(a => a.title);",
            vec![],
        )
        .await
        .expect("a script");
    let meanings: Vec<String> = serde_json::from_value(meanings).expect("titles");
    assert!(
        !meanings.is_empty() && meanings.iter().all(|meaning| meaning.ends_with('.')),
        "{meanings:?}"
    );
    browser.screenshots("standings").await;
    browser.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_organizer_runs_the_event_from_the_console_and_prints_the_pairings() {
    let platform = SamplePlatform::start().await;
    let site = &platform.http;
    let api = format!("{site}/api/v1");
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("a client");
    let browser = Browser::start().await;
    browser.enter(site, "signup", "director").await;
    // Created in the browser: Swiss with the handbook's round count for 8, the fold pairing
    // style, and a top 4; players bring one deck, and Pikachu ex is banned, found by search.
    browser.go(&format!("{site}/pokemon/tournaments")).await;
    browser.click("#new-tournament").await;
    browser.fill("#tournament-name", "Friday <league>").await;
    browser.fill("#max", "8").await;
    browser.click("#round-suggestion button").await;
    browser.wait_text("#round-suggestion strong", "3").await;
    assert_eq!(
        browser.value("#s0-rounds").await,
        "3",
        "Apply put the suggestion in"
    );
    // Every setting of the game's defaults is there to change (the guide's Pokémon column).
    assert_eq!(browser.value("#s0-bye-handling").await, "full_points");
    assert_eq!(browser.value("#s0-points-draw").await, "1");
    assert_eq!(
        browser.count("select[name='s0.tiebreakers']").await,
        3,
        "OMW%, OOMW% and a place to add one"
    );
    browser.pick("#s0-pairing-style", "fold").await;
    browser.pick("#cut", "4").await;
    browser.click("button[value='top_cut']").await;
    browser.wait_for("#stage-2").await;
    assert_eq!(browser.value("#s1-format").await, "single_elimination");
    assert_eq!(browser.value("#r0-high").await, "4");
    assert_eq!(
        browser.value("#s0-pairing-style").await,
        "fold",
        "kept across the redraw"
    );
    browser
        .client
        .find(Locator::Css("input[name='decks_on']"))
        .await
        .expect("the deck settings' switch")
        .click()
        .await
        .expect("clicked");
    browser.fill("#q", "pikachu").await;
    browser.click("button[value='find']").await;
    browser.wait_for("#found li").await;
    browser.click("#found li button").await;
    browser
        .wait_for("#banned-cards li input[name='banned']")
        .await;
    let banned = browser.text("#banned-cards li").await;
    assert!(
        banned.starts_with("Pikachu ex"),
        "named, not by id: {banned}"
    );
    browser.screenshots("tournament-create").await;
    browser
        .click("#create-tournament button[value='create']")
        .await;
    browser.wait_for("#registrations-heading").await;
    let url = browser.client.current_url().await.expect("a url");
    let id = url
        .path_segments()
        .and_then(|mut segments| segments.nth(1))
        .expect("the tournament's id")
        .to_owned();
    let read = |path: String| {
        let client = &client;
        async move { get_json(client, &path).await }
    };
    let created = read(format!("{api}/tournaments/{id}")).await;
    let tournament = &created["tournament"];
    assert_eq!(tournament["name"], "Friday <league>");
    assert_eq!(tournament["stages"][0]["settings"]["rounds"], 3);
    assert_eq!(tournament["stages"][0]["settings"]["pairing_style"], "fold");
    assert_eq!(tournament["stages"][1]["format"], "single_elimination");
    assert_eq!(
        tournament["advancement"][0],
        json!({"fromStage": 1, "placements": [1, 4], "action": "advance", "toStage": 2})
    );
    assert_eq!(tournament["maxParticipants"], 8);
    assert_eq!(tournament["deckSettings"]["decksToBring"], 1);
    assert_eq!(
        tournament["deckSettings"]["bannedCards"]
            .as_array()
            .map(Vec::len),
        Some(1)
    );

    // Eight players register and submit their lineups through the API; the console shows
    // each verdict as the service wrote it.
    let mut players = Vec::new();
    for n in 1..=8 {
        let name = format!("player{n:02}");
        let token = crate::ownership::session(&client, &api, &name).await;
        let registered = post_ok(
            &client,
            &token,
            format!("{api}/tournaments/{id}/registrations"),
            json!({}),
        )
        .await;
        let registration = registered["registration"]["id"]
            .as_str()
            .expect("an id")
            .to_owned();
        let answer = client
            .put(format!(
                "{api}/tournaments/{id}/registrations/{registration}/lineup"
            ))
            .bearer_auth(&token)
            .json(
                &json!({"decks": [format!("Pokémon: 4\n4 Pikachu ex SVP 106\n# deck of {name}")]}),
            )
            .send()
            .await
            .expect("an answer");
        assert!(answer.status().is_success(), "{}", answer.status());
        players.push((name, token, registration));
    }
    browser.go(&format!("{site}/tournaments/{id}/manage")).await;
    assert_eq!(browser.count("table.registrations tbody tr").await, 8);
    for _ in 0..100 {
        let pending = browser.count("td.lineup .verdict.pending").await;
        if pending == 0 && browser.count("td.lineup .verdict").await == 8 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        browser.go(&format!("{site}/tournaments/{id}/manage")).await;
    }
    let verdicts = browser
        .text("table.registrations tbody tr:first-child td.lineup")
        .await;
    assert!(verdicts.starts_with("Rejected"), "{verdicts}");
    browser
        .click("table.registrations tbody tr:first-child td.lineup details summary")
        .await;
    let issues = browser
        .text("table.registrations tbody tr:first-child td.lineup details ul")
        .await;
    assert!(issues.contains("is banned in this tournament."), "{issues}");

    // The deck settings change from the console: the ban is lifted.
    browser.click("#deck-settings-link").await;
    browser.wait_for("#deck-settings-form").await;
    assert_eq!(browser.value("#decks").await, "1");
    assert!(
        browser
            .text("#banned-cards li")
            .await
            .starts_with("Pikachu ex")
    );
    browser.click("#banned-cards li button").await;
    browser.wait_count("#banned-cards li", 0).await;
    browser
        .click("#deck-settings-form button[value='save']")
        .await;
    browser.wait_for("#registrations-heading").await;
    let saved = read(format!("{api}/tournaments/{id}")).await;
    assert_eq!(
        saved["tournament"]["deckSettings"]["bannedCards"],
        json!([])
    );

    // The first player sits at table 4 whatever the pairing.
    let (_, _, first) = &players[0];
    browser.fill(&format!("#table-{first}"), "4").await;
    browser
        .click(&format!("span.fix-table:has(#table-{first}) button"))
        .await;
    let fixed = |listed: &serde_json::Value| {
        listed["registrations"]
            .as_array()
            .and_then(|all| all.iter().find(|one| one["id"] == first.as_str()))
            .map_or(serde_json::Value::Null, |one| one["fixedTable"].clone())
    };
    let listed = read_until(
        &client,
        &format!("{api}/tournaments/{id}/registrations"),
        |listed| fixed(listed) == 4,
    )
    .await;
    assert_eq!(fixed(&listed), 4, "the first player's fixed table");
    browser.go(&format!("{site}/tournaments/{id}/manage")).await;
    assert_eq!(browser.value(&format!("#table-{first}")).await, "4");
    // The event is full: a guest added by name waits for a place.
    browser.fill("#guest-name", "Late Larry").await;
    browser.click("form:has(#guest-name) button").await;
    browser
        .wait_text("#registrations-heading", "Registrations (9)")
        .await;
    let larry = browser
        .text("table.registrations tbody tr:last-child")
        .await;
    assert!(
        larry.contains("Late Larry") && larry.contains("Waitlisted"),
        "{larry}"
    );

    browser.click("form:has(input[value='start']) button").await;
    browser.wait_for("input[value='pair']").await;
    // Pair the next round: four tables, each with a result to enter.
    browser.click("form:has(input[value='pair']) button").await;
    browser.wait_for("table.console-matches").await;
    assert_eq!(browser.count("table.console-matches tbody tr").await, 4);
    let round = read(format!("{api}/tournaments/{id}/rounds/1")).await;
    let matches = round["round"]["matches"]
        .as_array()
        .expect("matches")
        .clone();
    let at_four = matches
        .iter()
        .find(|played| played["table"] == 4)
        .expect("a table 4");
    assert!(
        at_four["players"]
            .as_array()
            .expect("players")
            .iter()
            .any(|player| player == first.as_str()),
        "the fixed table: {at_four}"
    );
    // The timer runs; the first row's table gets five more minutes than the others.
    browser
        .click("form:has(input[value='startTimer']) button")
        .await;
    browser
        .wait_for("form:has(input[value='pauseTimer'])")
        .await;
    let extended: u64 = browser
        .text("table.console-matches tbody tr:first-child td:first-child")
        .await
        .parse()
        .expect("a table number");
    let other = if extended == 1 { 2 } else { 1 };
    browser
        .pick(
            "table.console-matches tbody tr:first-child span.extend select",
            "5",
        )
        .await;
    browser
        .click("table.console-matches tbody tr:first-child span.extend button")
        .await;
    let gap = |round: &serde_json::Value| {
        let left = |table: u64| {
            round["round"]["matches"]
                .as_array()
                .and_then(|matches| matches.iter().find(|played| played["table"] == table))
                .and_then(|played| played["timeLeftMs"].as_i64())
                .expect("time left")
        };
        left(extended) - left(other)
    };
    let round = read_until(
        &client,
        &format!("{api}/tournaments/{id}/rounds/1"),
        |round| gap(round) > 4 * 60_000,
    )
    .await;
    let gap = gap(&round);
    assert!(
        gap > 4 * 60_000,
        "table {extended} has {gap} ms more than table {other}"
    );
    browser.go(&format!("{site}/tournaments/{id}/manage")).await;
    // What the running stage may still change: repeats allowed, 45-minute rounds.
    browser.click("details.stage-settings summary").await;
    browser
        .client
        .find(Locator::Css(
            "#stage-form input[name='prevent_repeat_matchups']",
        ))
        .await
        .expect("the checkbox")
        .click()
        .await
        .expect("unchecked");
    browser.fill("#stage-round-minutes", "45").await;
    browser.click("#stage-form button").await;
    let changed = read_until(&client, &format!("{api}/tournaments/{id}"), |changed| {
        changed["tournament"]["stages"][0]["settings"]["round_minutes"] == 45
    })
    .await;
    let settings = &changed["tournament"]["stages"][0]["settings"];
    assert_eq!(settings["prevent_repeat_matchups"], false);
    assert_eq!(settings["round_minutes"], 45);
    assert_eq!(settings["pairing_style"], "fold", "left as it was");
    browser.go(&format!("{site}/tournaments/{id}/manage")).await;

    // Pairing again before the round's results are in: the console says why not.
    browser.click("form:has(input[value='pair']) button").await;
    let refused = browser.wait_for("#console-error").await;
    assert!(!refused.is_empty(), "the service's reason");
    browser.screenshots("console").await;
    browser
        .pick(
            "table.console-matches tbody tr:first-child span.enter select",
            "2",
        )
        .await;
    browser
        .click("table.console-matches tbody tr:first-child span.enter button")
        .await;
    browser
        .wait_contains(
            "table.console-matches tbody tr:first-child td:nth-child(3)",
            "final",
        )
        .await;

    // Print views: every table, and every player by name in order.
    browser
        .go(&format!("{site}/tournaments/{id}/pairings/print?by=table"))
        .await;
    assert_eq!(browser.count("table.print-page tbody tr").await, 4);
    browser
        .go(&format!("{site}/tournaments/{id}/pairings/print?by=name"))
        .await;
    let names = browser
        .client
        .execute(
            "return [...document.querySelectorAll('table.print-page tbody tr td:first-child')].map(c => c.textContent);",
            vec![],
        )
        .await
        .expect("a script");
    let names: Vec<String> = serde_json::from_value(names).expect("names");
    let expected: Vec<String> = (1..=8).map(|n| format!("player{n:02}")).collect();
    assert_eq!(names, expected);
    // The standings for the wall: every player, with the stage's tiebreakers by name.
    browser
        .go(&format!("{site}/tournaments/{id}/standings/print"))
        .await;
    assert_eq!(browser.count("table.print-page tbody tr").await, 8);
    let headers = browser.text("table.print-page thead").await;
    assert!(
        headers.contains("OMW%") && headers.contains("OOMW%"),
        "{headers}"
    );

    // Nobody else manages it: another account is refused, a visitor sent to sign in.
    let other = crate::ownership::session(&client, &api, "bystander").await;
    let refused = client
        .get(format!("{site}/tournaments/{id}/manage"))
        .header("cookie", format!("turnier_session={other}"))
        .send()
        .await
        .expect("an answer");
    assert_eq!(refused.status(), 403);
    let anonymous = client
        .get(format!("{site}/tournaments/{id}/manage"))
        .send()
        .await
        .expect("an answer");
    assert_eq!(anonymous.status(), 303);
    browser.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_bracket_of_a_top_cut_is_drawn_after_advancing() {
    let platform = SamplePlatform::start().await;
    let site = &platform.http;
    let api = format!("{site}/api/v1");
    let client = reqwest::Client::new();
    let organizer = crate::ownership::session(&client, &api, "cutter").await;
    let call = |path: String, body: serde_json::Value| post_ok(&client, &organizer, path, body);
    let created = call(
        format!("{api}/lor/tournaments"),
        json!({
            "name": "Swiss and top 4",
            "stages": [{"format": "swiss", "settings": {"rounds": 2}}, {"format": "single_elimination"}],
            "advancement": [{"fromStage": 1, "placements": [1, 4], "action": "advance", "toStage": 2}],
        }),
    )
    .await;
    let id = created["tournament"]["id"]
        .as_str()
        .expect("an id")
        .to_owned();
    for n in 1..=8 {
        call(
            format!("{api}/tournaments/{id}/registrations"),
            json!({"displayName": format!("Seat {n}")}),
        )
        .await;
    }
    call(format!("{api}/tournaments/{id}:start"), json!({})).await;
    let decide = |round: serde_json::Value| {
        let call = &call;
        let api = &api;
        let id = &id;
        async move {
            for played in round["round"]["matches"].as_array().expect("matches") {
                if played["bye"] == true {
                    continue;
                }
                let match_id = played["id"].as_str().expect("an id");
                call(
                    format!("{api}/tournaments/{id}/matches/{match_id}:report"),
                    json!({"games": [2, 1]}),
                )
                .await;
            }
        }
    };
    for _ in 0..2 {
        let round = call(format!("{api}/tournaments/{id}/rounds"), json!({})).await;
        decide(round).await;
    }
    let browser = Browser::start().await;
    browser
        .go(&format!("{site}/tournaments/{id}/bracket"))
        .await;
    assert!(browser.text("main").await.contains("Not paired yet"));

    call(format!("{api}/tournaments/{id}:advance"), json!({})).await;
    let semifinals = call(format!("{api}/tournaments/{id}/rounds"), json!({})).await;
    browser
        .go(&format!("{site}/tournaments/{id}/bracket"))
        .await;
    assert_eq!(
        browser.count("svg.bracket g.match").await,
        2,
        "the semifinals"
    );
    decide(semifinals).await;
    call(format!("{api}/tournaments/{id}/rounds"), json!({})).await;
    browser
        .go(&format!("{site}/tournaments/{id}/bracket"))
        .await;
    assert_eq!(
        browser.count("svg.bracket g.match").await,
        3,
        "and the final"
    );
    assert_eq!(browser.count("svg.bracket path.link").await, 2);
    assert_eq!(
        browser.count("svg.bracket text.winner").await,
        2,
        "both semifinal winners"
    );
    browser.screenshots("bracket").await;
    browser.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_player_submits_a_lineup_sees_it_checked_live_and_saves_the_tournaments_custom_rule() {
    let platform = SamplePlatform::with_card_data(&["lor"]).await;
    let site = &platform.http;
    let api = format!("{site}/api/v1");
    let client = reqwest::Client::new();
    let organizer = crate::ownership::session(&client, &api, "judge").await;
    let answer = client
        .post(format!("{api}/lor/rulesets"))
        .bearer_auth(&organizer)
        .json(&json!({"name": "Never", "scope": "deck", "public": true,
            "source": "export default function validateDeck(deck) {\n  return { valid: false, issues: [{ code: \"no\", message: \"Not <this> deck.\" }] };\n}"}))
        .send()
        .await
        .expect("an answer");
    assert_eq!(answer.status(), 201);
    let body: serde_json::Value = answer.json().await.expect("JSON");
    let never = body["ruleset"]["id"].as_str().expect("an id").to_owned();
    let answer = client
        .post(format!("{api}/lor/tournaments"))
        .bearer_auth(&organizer)
        .json(&json!({"name": "Decks night", "stages": [{"format": "swiss", "settings": {"rounds": 3}}]}))
        .send()
        .await
        .expect("an answer");
    let body: serde_json::Value = answer.json().await.expect("JSON");
    let id = body["tournament"]["id"].as_str().expect("an id").to_owned();
    let answer = client
        .patch(format!("{api}/tournaments/{id}"))
        .bearer_auth(&organizer)
        .json(&json!({"deckSettings": {"decksToBring": 1, "rules": {"card": "lor-eternal", "deck": never}}}))
        .send()
        .await
        .expect("an answer");
    assert_eq!(answer.status(), 200);

    let browser = Browser::start().await;
    browser.enter(site, "signup", "pilot").await;
    browser.go(&format!("{site}/tournaments/{id}")).await;
    // The Rules: the built-in card rule, the organizer's custom deck rule marked Unverified code.
    let deck_rule = browser.text("article.rule[data-scope='deck'] h3").await;
    assert!(
        deck_rule.contains("Never") && deck_rule.contains("Unverified code"),
        "{deck_rule}"
    );
    assert!(
        browser
            .text("article.rule[data-scope='card'] h3")
            .await
            .contains("Built-in")
    );
    browser
        .click("section[aria-labelledby='registration-heading'] button")
        .await;
    browser
        .wait_text("#my-registration", "You are registered.")
        .await;

    // One box per deck: the guide's LoR code; the verdict arrives without a reload.
    let guide = crate::script_pools::support::spec_page("guide-deck-builder.md");
    let section = &guide[guide
        .find("### Legends of Runeterra")
        .expect("the LoR section")..];
    let code = text_blocks(section).remove(0);
    browser.fill("#lineup-deck-0", code.trim()).await;
    browser.click("#lineup form button").await;
    let mut state = String::new();
    for _ in 0..150 {
        state = browser.wait_for("#lineup-state").await;
        if !state.starts_with("Pending") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(state.starts_with("Rejected"), "{state}");
    let issues = browser.text("#lineup-issues").await;
    assert!(issues.contains("Not <this> deck."), "{issues}");
    browser.screenshots("lineup").await;

    // Add to saved rulesets: a read-only copy of the pinned version in the player's settings.
    browser
        .click("article.rule[data-scope='deck'] form button")
        .await;
    let row = browser.wait_for("table.rulesets tbody tr").await;
    assert!(row.contains("Never") && row.contains("Downloaded"), "{row}");
    browser.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn players_check_in_and_drop_the_deadline_locks_lineups_and_the_organizer_settles_a_dispute_and_finishes()
 {
    // Webhooks may reach this machine (the console adds one).
    let platform = SamplePlatform::start_with(&[("TURNIER_WEBHOOK_ALLOW_PRIVATE", "true")]).await;
    let site = &platform.http;
    let api = format!("{site}/api/v1");
    let client = reqwest::Client::new();
    let organizer = crate::ownership::session(&client, &api, "arbiter").await;
    let call = |path: String, token: String, body: serde_json::Value| {
        let client = &client;
        async move { post_ok(client, &token, path, body).await }
    };
    let created = call(
        format!("{api}/lor/tournaments"),
        organizer.clone(),
        json!({"name": "Check-in night", "checkIn": true,
               "stages": [{"format": "swiss", "settings": {"rounds": 1}}]}),
    )
    .await;
    let id = created["tournament"]["id"]
        .as_str()
        .expect("an id")
        .to_owned();
    // Lineups were due before the event: the deadline has passed.
    let answer = client
        .patch(format!("{api}/tournaments/{id}"))
        .bearer_auth(&organizer)
        .json(&json!({"deckSettings": {"decksToBring": 1, "deadline": "2020-01-01T00:00:00Z"}}))
        .send()
        .await
        .expect("an answer");
    assert_eq!(answer.status(), 200);
    let mut registrations = Vec::new();
    let mut tokens = Vec::new();
    for name in ["ada", "bob", "cyd"] {
        let token = crate::ownership::session(&client, &api, name).await;
        let registered = call(
            format!("{api}/tournaments/{id}/registrations"),
            token.clone(),
            json!({}),
        )
        .await;
        registrations.push(
            registered["registration"]["id"]
                .as_str()
                .expect("an id")
                .to_owned(),
        );
        tokens.push(token);
    }

    // Ada: the lineup is locked and says when it was due; she checks in.
    let browser = Browser::start().await;
    browser.enter(site, "signin", "ada").await;
    let page = format!("{site}/tournaments/{id}");
    browser.go(&page).await;
    // The stage's settings in the guide's words.
    let settings = browser.text("ol.stages dl.settings").await;
    for said in [
        "Number of rounds",
        "Bye handling",
        "No byes",
        "Random within score groups",
        "Buchholz",
    ] {
        assert!(settings.contains(said), "{said}: {settings}");
    }
    let due = browser.text("#lineup-deadline").await;
    assert!(due.contains("2020-01-01 00:00 UTC"), "{due}");
    assert!(browser.text("#lineup-locked").await.contains("locked"));
    assert_eq!(browser.count("#lineup form").await, 0);
    browser
        .click("section[aria-labelledby='registration-heading'] form:has(input[value='checkIn']) button")
        .await;
    browser
        .wait_text("#my-registration", "You are checked in.")
        .await;
    // The organizer unlocks her lineup: the form is back.
    call(
        format!(
            "{api}/tournaments/{id}/registrations/{}/lineup:unlock",
            registrations[0]
        ),
        organizer.clone(),
        json!({}),
    )
    .await;
    browser.go(&page).await;
    assert_eq!(browser.count("#lineup-locked").await, 0);
    assert_eq!(browser.count("#lineup form textarea").await, 1);

    // Bob and Cyd check in through the API; the event starts; Cyd drops from her page.
    for at in 1..3 {
        call(
            format!(
                "{api}/tournaments/{id}/registrations/{}:checkIn",
                registrations[at]
            ),
            tokens[at].clone(),
            json!({}),
        )
        .await;
    }
    call(
        format!("{api}/tournaments/{id}:start"),
        organizer.clone(),
        json!({}),
    )
    .await;
    browser
        .client
        .delete_all_cookies()
        .await
        .expect("signed out");
    browser.enter(site, "signin", "cyd").await;
    browser.go(&page).await;
    browser
        .click(
            "section[aria-labelledby='registration-heading'] form:has(input[value='drop']) button",
        )
        .await;
    browser
        .wait_text("#my-registration", "You are dropped.")
        .await;

    // Ada and Bob are paired and both say they won: the console's disputes queue has it, and
    // the organizer's result settles it.
    let round = call(
        format!("{api}/tournaments/{id}/rounds"),
        organizer.clone(),
        json!({}),
    )
    .await;
    let played = round["round"]["matches"]
        .as_array()
        .and_then(|matches| matches.iter().find(|played| played["bye"] != true))
        .expect("Ada against Bob")
        .clone();
    let match_id = played["id"].as_str().expect("an id");
    let first = played["players"][0].as_str().expect("a player");
    for (at, registration) in registrations.iter().take(2).enumerate() {
        let mine_first = registration == first;
        let games = if mine_first { [2, 0] } else { [0, 2] };
        call(
            format!("{api}/tournaments/{id}/matches/{match_id}:report"),
            tokens[at].clone(),
            json!({"games": games}),
        )
        .await;
    }
    browser
        .client
        .delete_all_cookies()
        .await
        .expect("signed out");
    browser.enter(site, "signin", "arbiter").await;
    browser.go(&format!("{site}/tournaments/{id}/manage")).await;
    let disputes = browser.text("#disputes").await;
    assert!(
        disputes.contains("Disputes (1)") && disputes.contains("reported different results"),
        "{disputes}"
    );
    browser.screenshots("disputes").await;
    browser
        .pick("#disputes form.enter select[name='games0']", "2")
        .await;
    browser
        .pick("#disputes form.enter select[name='games1']", "1")
        .await;
    browser.click("#disputes form.enter button").await;
    assert_eq!(browser.wait_count("#disputes", 0).await, 0, "settled");
    let round = get_json(&client, &format!("{api}/tournaments/{id}/rounds/1")).await;
    let settled = round["round"]["matches"]
        .as_array()
        .and_then(|matches| matches.iter().find(|played| played["id"] == match_id))
        .expect("the match");
    assert_eq!(settled["result"]["games"], json!([2, 1]));
    assert_eq!(settled["result"]["state"], "final");

    // The only round is played: pairing another is refused on the console, Finish ends the
    // event.
    browser.click("form:has(input[value='pair']) button").await;
    let refused = browser.wait_for("#console-error").await;
    assert!(!refused.is_empty(), "the service's reason");
    browser
        .click("form:has(input[value='advance']) button")
        .await;
    browser
        .wait_contains(".tournament > p.help", "finished")
        .await;
    // Its stage, exported for the offline tool from the console's link.
    let export = browser
        .client
        .find(Locator::Css("#exports a"))
        .await
        .expect("an export link")
        .attr("href")
        .await
        .expect("its address")
        .expect("an href");
    let exported = get_json(&client, &format!("{site}{export}")).await;
    assert!(exported["event"].is_object(), "{exported}");

    // A webhook added in the console: its secret shown once, then listed, then removed.
    browser
        .fill("#webhook-url", "http://127.0.0.1:9/turnier")
        .await;
    browser.click("#webhooks form.search button").await;
    browser.wait_for("#webhook-secret").await;
    let secret = browser.value("#webhook-secret").await;
    assert!(secret.starts_with("whsec_"), "{secret}");
    browser.click("main a.button").await;
    let listed = browser.wait_for("#webhooks ul li").await;
    assert!(listed.contains("http://127.0.0.1:9/turnier"), "{listed}");
    assert!(
        !browser.text("main").await.contains(&secret),
        "shown only once"
    );
    browser.click("#webhooks ul li form button").await;
    assert_eq!(browser.wait_count("#webhooks ul li", 0).await, 0);
    browser.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_free_for_all_lobby_is_shown_to_its_players_and_its_finishing_order_entered_in_the_console()
 {
    let platform = SamplePlatform::start().await;
    let site = &platform.http;
    let api = format!("{site}/api/v1");
    let client = reqwest::Client::new();
    let organizer = crate::ownership::session(&client, &api, "podmaster").await;
    let call = |path: String, body: serde_json::Value| post_ok(&client, &organizer, path, body);
    let created = call(
        format!("{api}/riftbound/tournaments"),
        json!({"name": "Pod night", "stages": [{"format": "cumulative_points"}]}),
    )
    .await;
    let id = created["tournament"]["id"]
        .as_str()
        .expect("an id")
        .to_owned();
    // The organizer plays too, with three guests: one lobby of four.
    call(format!("{api}/tournaments/{id}/registrations"), json!({})).await;
    for name in ["Ana", "Ben", "Cam"] {
        call(
            format!("{api}/tournaments/{id}/registrations"),
            json!({"displayName": name}),
        )
        .await;
    }
    call(format!("{api}/tournaments/{id}:start"), json!({})).await;
    call(format!("{api}/tournaments/{id}/rounds"), json!({})).await;

    let browser = Browser::start().await;
    browser.enter(site, "signin", "podmaster").await;
    browser.go(&format!("{site}/tournaments/{id}")).await;
    let table = browser.text("#my-table").await;
    assert!(
        table.contains("a lobby with") && table.contains("Ana") && table.contains("Cam"),
        "{table}"
    );
    browser.go(&format!("{site}/tournaments/{id}/manage")).await;
    assert_eq!(browser.count("span.lobby select").await, 4);
    browser.screenshots("console-lobby").await;
    browser
        .pick("span.lobby select[name^='finish0-']", "2")
        .await;
    browser
        .pick("span.lobby select[name^='finish1-']", "1")
        .await;
    browser.click("span.lobby button").await;
    let result = browser
        .wait_contains(
            "table.console-matches tbody tr:first-child td:nth-child(3)",
            "final",
        )
        .await;
    assert!(
        result.starts_with("1st ") && result.contains("2nd ") && result.ends_with("· final"),
        "{result}"
    );
    browser
        .go(&format!("{site}/tournaments/{id}/pairings"))
        .await;
    assert!(
        browser
            .text("table.pairings thead")
            .await
            .contains("Opponents")
    );
    let row = browser.text("table.pairings tbody tr").await;
    assert!(
        row.contains("1st") && row.matches(", ").count() >= 2,
        "{row}"
    );
    browser.stop().await;
}
