/// The HTML report's stylesheet and script, inlined into every report (one self-contained file
/// that works offline from `file://`). The page's Content-Security-Policy allows exactly these
/// two texts by their SHA-256 hashes, computed when the page is rendered. The script sets no HTML:
/// it only shows and hides what the page already holds.
enum HTMLReportAssets {
    static let stylesheet = #"""
        :root {
          --bg: #f6f7f9; --panel: #fff; --text: #1d2330; --muted: #6b7385; --line: #e3e6eb;
          --ok: #1f8a4c; --ok-bg: #e6f5ec; --bad: #c0392b; --bad-bg: #fdecea; --warn: #9a6700; --warn-bg: #fff6db;
          --skip: #5b6477; --skip-bg: #eceef2; --accent: #3b5bdb;
          --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", "Noto Sans Mono CJK JP", monospace;
        }
        * { box-sizing: border-box; }
        [hidden] { display: none !important; }
        body { margin: 0; background: var(--bg); color: var(--text); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
        header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 12px; padding: 12px 20px; background: #1d2330; color: #fff; }
        header h1 { margin: 0; font-size: 17px; font-weight: 600; }
        header .muted { color: #aab2c5; }
        .filters { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; gap: 8px 20px; align-items: center; padding: 8px 20px; background: var(--panel); border-bottom: 1px solid var(--line); }
        .filter-group { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
        .filter-label { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .5px; }
        .filters label { user-select: none; font-size: 13px; }
        .tag-button { font: 12px var(--mono); border: 1px solid var(--line); background: var(--bg); color: var(--text); border-radius: 10px; padding: 1px 8px; cursor: pointer; }
        .tag-button[aria-pressed="true"] { background: var(--accent); border-color: var(--accent); color: #fff; }
        #shown { margin-left: auto; color: var(--muted); font-size: 13px; }
        main { padding: 16px 20px 40px; display: grid; gap: 16px; }
        .feature, .gallery { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; min-width: 0; }
        .feature h2, .gallery h2 { margin: 0 0 4px; font-size: 16px; }
        .narrative { margin: 4px 0; color: var(--muted); white-space: pre-wrap; }
        .meta { color: var(--muted); font-size: 12px; margin: 2px 0 8px; }
        .path { margin: 12px 0 4px; font-size: 13px; color: var(--muted); font-weight: 600; }
        .tag { font: 12px var(--mono); color: var(--accent); margin-left: 4px; }
        .scenario { border-top: 1px solid var(--line); padding: 6px 0; }
        .scenario > summary { cursor: pointer; display: flex; flex-wrap: wrap; gap: 6px; align-items: baseline; }
        .title { font-weight: 600; }
        .badge { font: 600 11px var(--mono); padding: 1px 7px; border-radius: 4px; text-transform: uppercase; }
        .badge.passed { background: var(--ok-bg); color: var(--ok); }
        .badge.failed { background: var(--bad-bg); color: var(--bad); }
        .badge.pending { background: var(--warn-bg); color: var(--warn); }
        .badge.skipped { background: var(--skip-bg); color: var(--skip); }
        .duration { color: var(--muted); font-size: 12px; margin-left: auto; }
        .reason, .example { margin: 4px 0 4px 22px; color: var(--muted); }
        .steps { list-style: none; margin: 4px 0; padding: 0 0 0 22px; }
        .step { padding: 1px 0; }
        .step .mark { display: inline-block; width: 18px; font-weight: 700; }
        .step.passed .mark { color: var(--ok); }
        .step.failed .mark { color: var(--bad); }
        .step.skipped { color: var(--muted); }
        .step .keyword { font-weight: 600; }
        .step .bg { color: var(--muted); font-size: 12px; }
        .depth-1 { margin-left: 20px; } .depth-2 { margin-left: 40px; } .depth-3 { margin-left: 60px; }
        pre { font: 12px/1.35 var(--mono); margin: 4px 0; }
        .failure { background: var(--bad-bg); border-left: 3px solid var(--bad); padding: 6px 10px; white-space: pre-wrap; overflow-wrap: anywhere; }
        .where { color: var(--muted); font-size: 12px; }
        .doc-string { background: var(--bg); border: 1px solid var(--line); padding: 6px 10px; white-space: pre-wrap; }
        .data-table { border-collapse: collapse; margin: 4px 0; font: 12px var(--mono); }
        .data-table th, .data-table td { border: 1px solid var(--line); padding: 2px 8px; text-align: left; }
        .data-table th { background: var(--bg); }
        .snapshot-links { margin: 4px 0 4px 22px; font-size: 13px; }
        .snapshot-links a { color: var(--accent); }
        .snapshot-links .bad { color: var(--bad); }
        .gallery-head { display: flex; gap: 16px; align-items: baseline; flex-wrap: wrap; }
        .legend { color: var(--muted); font-size: 12px; }
        .screen { border-top: 1px solid var(--line); padding: 10px 0; }
        .screen h3 { margin: 0 0 2px; font: 600 14px var(--mono); }
        .screen.has-failure h3 { color: var(--bad); }
        .grid-scroll { overflow-x: auto; }
        .matrix { border-collapse: separate; border-spacing: 6px; }
        .matrix th { font: 12px var(--mono); color: var(--muted); text-align: left; vertical-align: bottom; white-space: nowrap; }
        .matrix tbody th { vertical-align: top; padding-top: 8px; }
        .cell { vertical-align: top; padding: 4px; border: 1px solid var(--line); border-radius: 4px; background: #fff; }
        .cell[dir="rtl"] { text-align: right; }
        .cell.fail { border: 2px solid var(--bad); background: var(--bad-bg); }
        .cell.recorded { border: 2px solid var(--warn); background: var(--warn-bg); }
        .cell.empty { border-style: dashed; color: var(--muted); text-align: center; }
        .cell-label { font: 11px var(--mono); color: var(--muted); margin-bottom: 2px; }
        .cell.fail .cell-label, .cell.recorded .cell-label { color: var(--text); font-weight: 600; }
        .text-screen { font: 11px/1.2 var(--mono); margin: 0; white-space: pre; text-align: left; display: inline-block; }
        .summary-line { font: 11px var(--mono); color: var(--bad); white-space: pre-wrap; max-width: 110ch; margin: 2px 0 4px; }
        .side-by-side { display: flex; gap: 8px; align-items: flex-start; }
        .side-title { font: 600 11px var(--mono); color: var(--muted); }
        .side .ln { display: block; min-height: 1.2em; }
        .side .ln.changed { background: #fff1c2; }
        .side .ln.removed { background: #ffd7d5; }
        .side .ln.added { background: #d3f5df; }
        .side .ln.gap { background: repeating-linear-gradient(45deg, #eee, #eee 4px, #f8f8f8 4px, #f8f8f8 8px); }
        .inv { background: #ffb3ad; color: #8a1c12; border-radius: 2px; }
        .trail { background: #ffd37a; color: #8a5a00; }
        .gallery.only-failing .screen:not(.has-failure), .gallery.only-failing .matrix tbody tr:not(.has-failure),
        .gallery.only-failing .cell:not(.fail):not(.recorded) .text-screen { display: none; }
        .plain-snapshots { margin: 4px 0; padding: 0; list-style: none; }
        .plain-snapshots li { margin: 6px 0; }
        .scenario, .screen, .cell { scroll-margin-top: 56px; }
        :target { outline: 3px solid var(--accent); outline-offset: 2px; }
        """#

    static let script = #"""
        "use strict";
        (() => {
          const scenarios = [...document.querySelectorAll(".scenario")];
          const statusBoxes = [...document.querySelectorAll("#status-filter input")];
          const tagButtons = [...document.querySelectorAll("#tag-filter button")];
          const shown = document.getElementById("shown");

          // A scenario shows when its status is ticked and, if any tag is picked, it has one of them.
          function apply() {
            const statuses = new Set(statusBoxes.filter((box) => box.checked).map((box) => box.dataset.status));
            const tags = tagButtons.filter((button) => button.getAttribute("aria-pressed") === "true").map((button) => button.dataset.tag);
            let visible = 0;
            for (const scenario of scenarios) {
              const own = scenario.dataset.tags ? scenario.dataset.tags.split(" ") : [];
              const show = statuses.has(scenario.dataset.status) && (tags.length === 0 || tags.some((tag) => own.includes(tag)));
              scenario.hidden = !show;
              if (show) visible += 1;
            }
            for (const group of document.querySelectorAll(".path-group, .feature")) {
              group.hidden = !group.querySelector(".scenario:not([hidden])");
            }
            shown.textContent = visible + " of " + scenarios.length + " scenarios shown";
          }

          statusBoxes.forEach((box) => box.addEventListener("change", apply));
          tagButtons.forEach((button) => button.addEventListener("click", () => {
            button.setAttribute("aria-pressed", button.getAttribute("aria-pressed") === "true" ? "false" : "true");
            apply();
          }));

          const onlyFailing = document.getElementById("only-failing-cells");
          if (onlyFailing) {
            onlyFailing.addEventListener("change", () => document.getElementById("gallery").classList.toggle("only-failing", onlyFailing.checked));
          }

          // Following a link to a scenario opens it, even when a filter hid it.
          function reveal() {
            const target = location.hash.length > 1 ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
            if (!target) return;
            const scenario = target.closest(".scenario");
            if (scenario) {
              scenario.hidden = false;
              scenario.open = true;
              for (let group = scenario.parentElement; group; group = group.parentElement) group.hidden = false;
            }
          }
          window.addEventListener("hashchange", reveal);
          apply();
          reveal();
        })();
        """#
}
