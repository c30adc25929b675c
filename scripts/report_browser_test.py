"""The spec report's half of scripts/browser-test.py (which imports it; standard library only).

Writes two reports with the already built test binary (`swift test --skip-build`):
  .build/browser/specs-report/report.html    the sample's specs (Specs/, every language and device)
  .build/browser/gallery-report/report.html  the report gallery fixture: a receipt screen with one
                                             deliberately changed cell (references in a scratch folder)
then opens each from file:// in headless chromium and checks that the page runs under its
Content-Security-Policy, that the status and tag filters change which scenarios are visible, and
that the gallery shows the failing cell with its side-by-side diff. Screenshots:
.build/browser/report.png and .build/browser/gallery.png.
"""
import json, os, shutil, subprocess, tempfile, time, urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, ".build", "browser")


def write_report(swift, name, arguments, environment):
    """Runs the built tests into .build/browser/<name>; returns the report's path (the run's output goes to <name>.log)."""
    folder = os.path.join(OUT, name)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(OUT, exist_ok=True)
    env = {key: value for key, value in os.environ.items() if not key.startswith(("BDD_", "TEXT_SNAPSHOT_"))}
    env.update(environment)
    env["BDD_REPORT_DIR"] = folder
    log = os.path.join(OUT, name + ".log")
    started = time.monotonic()
    with open(log, "w") as output:
        status = subprocess.call([swift, "test", "--skip-build"] + arguments, cwd=ROOT, env=env,
                                 stdout=output, stderr=subprocess.STDOUT)
    path = os.path.join(folder, "report.html")
    size = os.path.getsize(path) if os.path.exists(path) else 0
    print(f"  {name}: swift test exited {status} in {time.monotonic() - started:.1f} s; "
          f"report.html {size:,} bytes (log {os.path.relpath(log, ROOT)})")
    return path, status


def visible_scenarios(cdp):
    """Scenarios actually laid out on the page (the `hidden` attribute and the CSS both count)."""
    return cdp.evaluate("""[...document.querySelectorAll('.scenario')].filter(s => s.getClientRects().length > 0)
        .map(s => ({status: s.dataset.status, tags: s.dataset.tags.split(' ')}))""")


def open_page(cdp, path):
    cdp.events.clear()
    cdp.call("Page.navigate", url="file://" + path)
    ready, _ = cdp.wait_for("document.readyState === 'complete' && !!document.getElementById('shown')", 20)
    # A policy that blocked the page's own script or style is reported on the console.
    blocked = [event for event in cdp.events if "Content Security Policy" in json.dumps(event)]
    return bool(ready), blocked


def sample_report_checks(cdp, check, path):
    ready, blocked = open_page(cdp, path)
    check(ready, "the sample's report opens from file://")
    check(not blocked, f"its own style and script run under its Content-Security-Policy ({len(blocked)} blocked)")
    total = cdp.evaluate("document.querySelectorAll('.scenario').length")
    shown = cdp.evaluate("document.getElementById('shown').textContent")
    check(total > 0 and shown == f"{total} of {total} scenarios shown", f"every scenario shows at first ({shown!r})")
    statuses = cdp.evaluate("[...document.querySelectorAll('.scenario')].map(s => s.dataset.status)")

    # Status: untick "passed"; only the other scenarios stay visible.
    cdp.evaluate("document.querySelector('#status-filter input[data-status=passed]').click()")
    visible = visible_scenarios(cdp)
    expected = len([status for status in statuses if status != "passed"])
    check(len(visible) == expected and all(s["status"] != "passed" for s in visible),
          f"unticking 'passed' hides the {statuses.count('passed')} passed scenarios ({len(visible)} of {total} visible)")
    cdp.evaluate("document.querySelector('#status-filter input[data-status=passed]').click()")
    check(len(visible_scenarios(cdp)) == total, "ticking it again shows them again")

    # Tag: pick the tag that selects the fewest scenarios (but some), then a second one (any of them).
    tags = cdp.evaluate("""[...document.querySelectorAll('#tag-filter button')].map(b => b.dataset.tag)""") or []
    counts = {tag: len([1 for tags_ in cdp.evaluate("[...document.querySelectorAll('.scenario')].map(s => s.dataset.tags)")
                        if tag in tags_.split(" ")]) for tag in tags}
    candidates = sorted((count, tag) for tag, count in counts.items() if 0 < count < total)
    check(bool(candidates), f"the sample has tags to filter by ({', '.join('@' + t for t in tags)})")
    if candidates:
        count, tag = candidates[0]
        cdp.evaluate(f"document.querySelector('#tag-filter button[data-tag={json.dumps(tag)}]').click()")
        visible = visible_scenarios(cdp)
        check(len(visible) == count and all(tag in s["tags"] for s in visible),
              f"picking @{tag} shows just its {count} scenarios ({len(visible)} visible)")
        features = cdp.evaluate("[...document.querySelectorAll('.feature')].filter(f => f.getClientRects().length > 0).length")
        check(features < cdp.evaluate("document.querySelectorAll('.feature').length"), f"features without such a scenario hide ({features} shown)")
        cdp.call("Emulation.setDeviceMetricsOverride", width=1280, height=900, deviceScaleFactor=1, mobile=False)
        cdp.evaluate("window.scrollTo(0, 0)")
        shot = cdp.screenshot("report.png", whole_page=False)
        print(f"  screenshot: {os.path.relpath(shot, ROOT)} (filtered by @{tag})")
        cdp.evaluate(f"document.querySelector('#tag-filter button[data-tag={json.dumps(tag)}]').click()")
        check(len(visible_scenarios(cdp)) == total, "unpicking the tag shows every scenario again")
    cells = cdp.evaluate("document.querySelectorAll('#gallery td.cell').length")
    failing = cdp.evaluate("document.querySelectorAll('#gallery td.cell.fail').length")
    screens = cdp.evaluate("document.querySelectorAll('#gallery .screen').length")
    check(cells > 0 and failing == 0, f"the sample's gallery shows {cells} cells of {screens} screens, none failing")
    # TextScreen already laid the right-to-left screen out (rows swapped, text right-aligned): the cell
    # is marked dir=rtl, and its text must still show column for column, the frame's `│` at the left.
    rtl = cdp.evaluate("""(() => { const pre = document.querySelector('#gallery td.cell[dir=rtl][lang=ar] pre');
        if (!pre) return null;
        const text = pre.firstChild, start = text.textContent.indexOf('\\n') + 1, range = document.createRange();
        range.setStart(text, start); range.setEnd(text, start + 1);
        return {first: text.textContent[start], offset: range.getBoundingClientRect().left - pre.getBoundingClientRect().left}; })()""")
    check(bool(rtl) and rtl["first"] == "│" and abs(rtl["offset"]) < 2,
          f"an Arabic cell (dir=rtl) keeps the screen's columns: its frame starts at the left ({rtl})")


def gallery_checks(cdp, check, path):
    ready, blocked = open_page(cdp, path)
    check(ready and not blocked, "the gallery fixture's report opens from file:// under its policy")
    failing = cdp.evaluate("""[...document.querySelectorAll('#gallery td.cell.fail')].filter(c => c.getClientRects().length > 0)
        .map(c => ({id: c.id, lang: c.lang, label: c.querySelector('.cell-label').textContent,
                   sides: c.querySelectorAll('.side').length,
                   hints: [...c.querySelectorAll('.inv')].map(i => i.title),
                   changed: c.querySelectorAll('.ln.changed').length,
                   border: getComputedStyle(c).borderTopColor}))""")
    check(len(failing) == 1, f"the gallery shows one failing cell ({[f['label'] for f in failing]})")
    if failing:
        cell = failing[0]
        check(cell["lang"] == "en" and "phone4inch" in cell["label"], f"it is the changed combination ({cell['label']!r})")
        check(cell["sides"] == 2 and cell["changed"] == 2, "its reference and actual text show side by side, the changed line marked on both")
        check("U+202F NARROW NO-BREAK SPACE" in cell["hints"], f"the invisible difference is shown and named ({cell['hints']})")
        check(cell["border"] == "rgb(192, 57, 43)", f"the cell is highlighted ({cell['border']})")
        cdp.evaluate(f"document.querySelector('.snapshot-links a.bad[href=\"#{cell['id']}\"]').click()")
        target, _ = cdp.wait_for(f"location.hash === '#{cell['id']}' && document.querySelector(':target')?.id", 3)
        check(target == cell["id"], "the scenario's link leads to the failing cell")
    others = cdp.evaluate("document.querySelectorAll('#gallery td.cell:not(.fail)').length")
    check(others == 11, f"the other 11 combinations show as passing cells ({others})")
    cdp.evaluate("document.getElementById('only-failing-cells').click()")
    shown = cdp.evaluate("[...document.querySelectorAll('#gallery td.cell pre')].filter(p => p.getClientRects().length > 0).length")
    check(shown == 2, f"'only failing' leaves just the failing cell's two texts ({shown})")
    cdp.evaluate("document.getElementById('only-failing-cells').click()")
    cdp.call("Emulation.setDeviceMetricsOverride", width=1280, height=1000, deviceScaleFactor=1, mobile=False)
    cdp.evaluate("document.querySelector('#gallery .screen.has-failure').scrollIntoView()")
    shot = cdp.screenshot("gallery.png", whole_page=False)
    print(f"  screenshot: {os.path.relpath(shot, ROOT)}")


def run(args, CDP, check, find_chromium, start_chromium):
    print("report: writing the sample's report and the gallery fixture's report with the built tests")
    sample, _ = write_report(args.swift, "specs-report", ["--filter", r"^Specs\."], {})
    gallery, _ = write_report(args.swift, "gallery-report", ["--filter", r"TextSnapshotTests\.ReportGalleryFixtureFeature"], {
        "TEXT_SNAPSHOT_GALLERY_FIXTURE": "1",
        "TEXT_SNAPSHOT_GALLERY_DIR": os.path.join(OUT, "gallery-snapshots"),
        "TEXT_SNAPSHOT_ARTIFACTS": os.path.join(OUT, "gallery-artifacts"),
    })
    check(os.path.exists(sample), "the sample's specs wrote report.html")
    check(os.path.exists(gallery), "the gallery fixture wrote report.html (its changed cell fails that run on purpose)")
    if not (os.path.exists(sample) and os.path.exists(gallery)):
        return
    work = tempfile.mkdtemp(prefix="report-test-")
    browser, devtools = start_chromium(find_chromium(args.chromium), os.path.join(work, "profile"))
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{devtools}/json/list", timeout=10) as response:
            page = next(target for target in json.load(response) if target["type"] == "page")
        cdp = CDP(page["webSocketDebuggerUrl"])
        cdp.call("Page.enable")
        cdp.call("Runtime.enable")
        cdp.call("Log.enable")
        print(f"report at file://{sample}")
        sample_report_checks(cdp, check, sample)
        print(f"gallery at file://{gallery}")
        gallery_checks(cdp, check, gallery)
    finally:
        browser.terminate()
        try:
            browser.wait(timeout=10)
        except subprocess.TimeoutExpired:
            browser.kill()
        shutil.rmtree(work, ignore_errors=True)
