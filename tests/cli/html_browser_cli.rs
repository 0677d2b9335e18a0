//! The `--html` pages in a real browser: headless Chromium (`/usr/bin/chromium`, or the one
//! the `CHROMIUM` environment variable names) takes a screenshot of each page, which must be
//! a PNG of the window's size and not blank (the status badge's colour shows the inline style
//! applied), and dumps the DOM it built, which must hold the numbers of the run's JSON (or
//! CSV). Without a browser the test says it is skipped and passes, except under `CI`, where a
//! missing browser fails it.

use crate::bin::TempDir;
use crate::html_support::make_pages;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Where the browser is looked for when `CHROMIUM` is not set.
const DEFAULT_CHROMIUM: &str = "/usr/bin/chromium";
/// A browser run taking longer than this is killed and the test fails.
const TIMEOUT: Duration = Duration::from_secs(60);
/// The window.
const WIDTH: u32 = 1200;
const HEIGHT: u32 = 1600;

/// The browser, or `None` (after saying so) when there is none outside CI.
fn chromium() -> Option<PathBuf> {
    let path =
        std::env::var_os("CHROMIUM").map_or_else(|| PathBuf::from(DEFAULT_CHROMIUM), PathBuf::from);
    if path.is_file() {
        return Some(path);
    }
    if std::env::var_os("CI").is_some() {
        panic!(
            "no chromium at {}: CI runs the browser test (install the `chromium` package or set CHROMIUM)",
            path.display()
        );
    }
    eprintln!("skipped: no chromium at {}", path.display());
    None
}

/// Run the browser on `page` with `mode` (`--screenshot=...` or `--dump-dom`) and a fresh
/// profile in `scratch`; its standard output. Killed (with the processes it started) after
/// [`TIMEOUT`].
fn browse(browser: &Path, scratch: &Path, tag: &str, mode: &str, page: &Path) -> String {
    let profile = scratch.join(format!("profile-{tag}"));
    let out_path = scratch.join(format!("{tag}.out"));
    let err_path = scratch.join(format!("{tag}.err"));
    let mut command = Command::new(browser);
    command
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--window-size={WIDTH},{HEIGHT}"))
        .arg(mode)
        .arg(format!("file://{}", page.display()))
        .env("HOME", scratch)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = command.spawn().expect("the browser starts");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > TIMEOUT {
            // The browser and its helper processes share its process group.
            #[cfg(unix)]
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "{tag}: the browser ran more than {} s: {}",
                TIMEOUT.as_secs(),
                std::fs::read_to_string(&err_path).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(
        status.success(),
        "{tag}: the browser failed ({status}): {}",
        std::fs::read_to_string(&err_path).unwrap_or_default()
    );
    std::fs::read_to_string(&out_path).unwrap()
}

#[test]
fn the_pages_render_in_a_headless_browser_with_their_numbers() {
    let Some(browser) = chromium() else {
        return;
    };
    let dir = TempDir::new("html-browser");
    let started = Instant::now();
    for made in make_pages(&dir) {
        let what = made.sub;
        let page = made.page.canonicalize().unwrap();
        let png = dir.path().join(format!("{what}.png"));
        let mode = format!("--screenshot={}", png.display());
        browse(&browser, dir.path(), &format!("{what}-shot"), &mode, &page);
        let bytes = std::fs::read(&png).unwrap_or_else(|e| panic!("{what}: no screenshot: {e}"));
        assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "{what}: not a PNG");
        let image = resvg::tiny_skia::Pixmap::decode_png(&bytes).unwrap();
        assert_eq!((image.width(), image.height()), (WIDTH, HEIGHT), "{what}");
        let pixels = image.pixels();
        let inked = pixels
            .iter()
            .filter(|p| p.red().min(p.green()).min(p.blue()) < 200)
            .count();
        assert!(
            inked > pixels.len() / 100,
            "{what}: the screenshot is blank ({inked} of {} pixels inked)",
            pixels.len()
        );
        // The status badge: saturated green, amber or red from the inline style sheet.
        let badge = pixels
            .iter()
            .filter(|p| {
                let (r, g, b) = (p.red() as i32, p.green() as i32, p.blue() as i32);
                (g - b > 60 && g > r) || (r - b > 80 && r - g > 60)
            })
            .count();
        assert!(
            badge > 500,
            "{what}: no coloured status badge ({badge} pixels)"
        );

        let dom = browse(
            &browser,
            dir.path(),
            &format!("{what}-dom"),
            "--dump-dom",
            &page,
        );
        assert!(
            dom.contains("<svg") || what == "estimate" || what == "verify",
            "{what}"
        );
        assert!(
            dom.contains(&made.status),
            "{what}: no status {}",
            made.status
        );
        for token in &made.tokens {
            assert!(
                dom.contains(&format!(">{token}<")),
                "{what}: the browser's DOM lacks {token}"
            );
        }
    }
    eprintln!(
        "browser test: 10 runs in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
