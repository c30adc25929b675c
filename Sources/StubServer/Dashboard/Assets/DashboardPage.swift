extension DashboardAssets {
    /// `/__admin/ui`: the page's skeleton; `dashboard.js` fills it from the feed and the state.
    static let page = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>stubserver dashboard</title>
        <link rel="icon" href="/__admin/ui/favicon.ico">
        <link rel="stylesheet" href="/__admin/ui/dashboard.css">
        <script src="/__admin/ui/dashboard.js" defer></script>
        </head>
        <body>
        <header>
          <h1>stubserver</h1>
          <span id="server" class="muted"></span>
          <span id="connection" class="connection" data-state="connecting">connecting…</span>
        </header>
        <section id="reload-error" class="reload-error" hidden>
          <h2>The last edit is broken — still serving the last good configuration</h2>
          <pre id="reload-problems"></pre>
        </section>
        <main>
          <section class="requests">
            <div class="section-head">
              <h2>Requests <span id="request-count" class="count">0</span></h2>
              <span class="filters">
                <label class="filter contract-filter" id="contract-filter" hidden><input type="checkbox" id="only-violations"> only contract violations <span id="violation-count" class="count violations">0</span></label>
                <label class="filter"><input type="checkbox" id="only-unmatched"> only unmatched</label>
              </span>
            </div>
            <p id="no-requests" class="empty">No requests yet. Send one to this server and it shows here at once.</p>
            <ol id="requests" class="request-list"></ol>
          </section>
          <aside>
            <section>
              <h2>Stubs <span id="stub-count" class="count">0</span></h2>
              <div id="stubs"></div>
            </section>
            <section>
              <h2>Scenarios</h2>
              <p id="no-scenarios" class="empty">No stub uses a scenario.</p>
              <table id="scenarios" class="scenarios"></table>
            </section>
          </aside>
        </main>
        </body>
        </html>
        """#
}
