extension DashboardAssets {
    /// `/__admin/ui/dashboard.css`
    static let stylesheet = #"""
        :root {
          --bg: #f6f7f9; --panel: #ffffff; --text: #1d2330; --muted: #6b7385; --line: #e3e6eb;
          --ok: #1f8a4c; --ok-bg: #e6f5ec; --miss: #c0392b; --miss-bg: #fdecea; --warn: #9a6700; --warn-bg: #fff6db;
          --accent: #3b5bdb; --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace;
        }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--text); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
        header { display: flex; align-items: baseline; gap: 12px; padding: 12px 20px; background: #1d2330; color: #fff; }
        header h1 { margin: 0; font-size: 17px; font-weight: 600; letter-spacing: .2px; }
        header .muted { color: #aab2c5; }
        .connection { margin-left: auto; font-size: 12px; padding: 2px 10px; border-radius: 10px; background: #39414f; color: #d4d9e3; }
        .connection[data-state="live"] { background: #1f8a4c; color: #fff; }
        .connection[data-state="lost"] { background: #c0392b; color: #fff; }
        h2 { margin: 0 0 10px; font-size: 13px; font-weight: 600; text-transform: uppercase; letter-spacing: .6px; color: var(--muted); }
        .count { display: inline-block; min-width: 20px; padding: 0 6px; border-radius: 9px; background: var(--line); color: var(--text); font-size: 11px; text-align: center; }
        main { display: grid; grid-template-columns: minmax(0, 1fr) 380px; gap: 20px; padding: 20px; align-items: start; }
        @media (max-width: 900px) { main { grid-template-columns: 1fr; } }
        section.requests, aside section { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 14px 16px; }
        main > * { min-width: 0; }
        aside { display: grid; grid-template-columns: minmax(0, 1fr); gap: 20px; min-width: 0; }
        .section-head { display: flex; align-items: baseline; justify-content: space-between; }
        .filter { color: var(--muted); font-size: 12px; user-select: none; }
        .empty { color: var(--muted); margin: 6px 0; }
        .request-list { list-style: none; margin: 0; padding: 0; }
        .request { border-top: 1px solid var(--line); padding: 8px 0; }
        .request:first-child { border-top: 0; }
        .request-line { display: flex; align-items: baseline; gap: 10px; min-width: 0; }
        .time { color: var(--muted); font: 12px var(--mono); flex: none; }
        .method { font: 600 12px var(--mono); flex: none; width: 56px; }
        .target { font: 13px var(--mono); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; flex: 1; }
        .status { font: 600 12px var(--mono); padding: 1px 7px; border-radius: 4px; flex: none; background: var(--ok-bg); color: var(--ok); }
        .request.unmatched .status, .request.refused .status { background: var(--miss-bg); color: var(--miss); }
        .answer { font: 12px var(--mono); color: var(--muted); flex: none; max-width: 40%; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .request.unmatched .answer { color: var(--miss); }
        .duration { color: var(--muted); font-size: 12px; flex: none; width: 56px; text-align: right; }
        .request.fresh { animation: flash 1.2s ease-out; }
        @keyframes flash { from { background: #eef2ff; } to { background: transparent; } }
        .near-misses { margin: 8px 0 2px 66px; display: grid; gap: 6px; }
        .near-miss { border-left: 3px solid var(--warn); background: var(--warn-bg); border-radius: 0 6px 6px 0; padding: 6px 10px; }
        .near-miss:first-child { border-left-color: var(--miss); background: var(--miss-bg); }
        .near-miss-head { font-size: 12px; color: var(--muted); }
        .near-miss-head b { color: var(--text); font: 600 12px var(--mono); }
        .difference { font: 12px var(--mono); white-space: pre-wrap; word-break: break-word; }
        .difference::before { content: "✗ "; color: var(--miss); }
        .filters { display: flex; gap: 14px; }
        .count.violations { background: var(--miss-bg); color: var(--miss); }
        .contract { font: 600 11px var(--mono); flex: none; padding: 1px 6px; border-radius: 4px; background: var(--miss-bg); color: var(--miss); }
        .contract-violations { margin: 6px 0 2px 66px; border-left: 3px solid var(--miss); padding: 4px 10px; background: var(--miss-bg); border-radius: 0 6px 6px 0; }
        .contract-head { font-size: 12px; color: var(--muted); }
        .violation { font: 12px var(--mono); white-space: pre-wrap; word-break: break-word; }
        .violation .side { font-weight: 600; }
        details.exchange { margin: 4px 0 0 66px; }
        details.exchange summary { cursor: pointer; color: var(--muted); font-size: 12px; }
        details.exchange pre { margin: 6px 0 0; padding: 8px; background: var(--bg); border-radius: 6px; font: 12px var(--mono); white-space: pre-wrap; word-break: break-word; max-height: 240px; overflow: auto; }
        .file { margin-bottom: 12px; }
        .file:last-child { margin-bottom: 0; }
        .file-name { font: 600 12px var(--mono); color: var(--accent); margin-bottom: 4px; word-break: break-all; }
        .stub { display: flex; gap: 8px; align-items: baseline; padding: 3px 0; border-top: 1px dashed var(--line); }
        .stub:first-of-type { border-top: 0; }
        .stub-index { color: var(--muted); font: 11px var(--mono); width: 26px; flex: none; }
        .stub-route { font: 12px var(--mono); flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .stub-route .description { font-family: system-ui, sans-serif; color: var(--muted); }
        .hits { font: 600 11px var(--mono); color: var(--muted); flex: none; }
        .hits.hit { color: var(--ok); }
        .stub.pulse { animation: flash 1.2s ease-out; }
        .scenarios { width: 100%; border-collapse: collapse; font-size: 13px; }
        .scenarios td { padding: 3px 0; border-top: 1px dashed var(--line); }
        .scenarios tr:first-child td { border-top: 0; }
        .scenarios td:last-child { text-align: right; font: 12px var(--mono); }
        .reload-error { margin: 20px 20px 0; background: var(--miss-bg); border: 1px solid #f3b6ae; border-radius: 8px; padding: 12px 16px; }
        .reload-error h2 { color: var(--miss); text-transform: none; letter-spacing: 0; font-size: 14px; }
        .reload-error pre { margin: 0; font: 12px var(--mono); white-space: pre-wrap; word-break: break-word; }
        """#
}
