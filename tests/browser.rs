//! The HTML report looked at in a real browser: headless Chromium renders a
//! `chariot analyse --format html` page, and the screenshot must be a real
//! picture of the page, not a blank one. Without Chromium the test says so
//! and passes (`make browser-test` installs Chromium and runs it).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The first Chromium found on the PATH.
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
        .find(|p| p.is_file())
}

/// Renders `page` to `png` at 1000 × 1400 pixels; false if Chromium failed
/// or took more than a minute.
fn screenshot(browser: &Path, page: &Path, png: &Path) -> bool {
    let _ = std::fs::remove_file(png);
    let profile = std::env::temp_dir().join(format!("chariot-browser-profile-{}", std::process::id()));
    let mut child = Command::new(browser)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1000,1400"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", page.display()))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start Chromium");
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(60) {
        if let Ok(Some(status)) = child.try_wait() {
            let _ = std::fs::remove_dir_all(&profile);
            return status.success() && png.exists();
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    let _ = child.wait();
    false
}

/// The width and height a PNG file's header gives.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n") && &bytes[12..16] == b"IHDR", "a PNG file");
    let be = |i: usize| u32::from_be_bytes(bytes[i..i + 4].try_into().unwrap());
    (be(16), be(20))
}

#[test]
fn the_html_report_renders_in_chromium() {
    let Some(browser) = chromium() else {
        eprintln!("skipped: no Chromium on the PATH (make browser-test installs it and runs this test)");
        return;
    };
    let dir = std::env::temp_dir().join(format!("chariot-browser-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let games = dir.join("games.txt");
    std::fs::write(&games, "startpos moves a0a1 h9g7 a1b1 b7b1 h2e2 b9c7 i0i1 a9b9\n").unwrap();
    let page = dir.join("report.html");
    let status = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(["analyse", "--depth", "4", "--out"])
        .args([&page, &games])
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let blank = dir.join("blank.html");
    std::fs::write(&blank, "<!DOCTYPE html><html><body></body></html>\n").unwrap();
    let (shot, blank_shot) = (dir.join("report.png"), dir.join("blank.png"));
    assert!(screenshot(&browser, &page, &shot), "Chromium rendered the report");
    assert!(screenshot(&browser, &blank, &blank_shot), "Chromium rendered a blank page");
    let (report, empty) = (std::fs::read(&shot).unwrap(), std::fs::read(&blank_shot).unwrap());
    assert_eq!(png_size(&report), (1000, 1400));
    assert_eq!(png_size(&empty), (1000, 1400));
    // A blank page compresses to almost nothing; text, a graph and boards do not.
    assert!(
        report.len() > 20_000 && report.len() > 10 * empty.len(),
        "the report's screenshot ({} bytes) is no blank page ({} bytes)",
        report.len(),
        empty.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
