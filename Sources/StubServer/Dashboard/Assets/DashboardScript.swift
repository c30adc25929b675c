extension DashboardAssets {
    /// `/__admin/ui/dashboard.js`: listens to `/__admin/ui/events` (server-sent events) and
    /// fetches `/__admin/ui/state` when the stubs, scenarios or configuration change. Every
    /// value from a request is set as text, never as HTML.
    static let script = #"""
        "use strict";
        (() => {
          const token = new URLSearchParams(location.search).get("token");
          const authHeaders = token ? { Authorization: "Bearer " + token } : {};
          const maxRows = 500;
          const $ = (id) => document.getElementById(id);
          const stubHits = new Map();     // stub id → its hits element
          let requestCount = 0;
          let violatingCount = 0;

          function el(tag, className, text) {
            const node = document.createElement(tag);
            if (className) node.className = className;
            if (text !== undefined && text !== null) node.textContent = String(text);
            return node;
          }

          // MARK: requests

          function clock(iso) {
            const date = new Date(iso);
            return isNaN(date) ? "" : date.toLocaleTimeString([], { hour12: false }) + "." + String(date.getMilliseconds()).padStart(3, "0");
          }

          function requestRow(request, fresh) {
            const unmatched = !request.stub;
            const violations = Array.isArray(request.contractViolations) ? request.contractViolations : [];
            const row = el("li", "request" + (request.rejection ? " refused" : unmatched ? " unmatched" : "") + (violations.length ? " violates" : "") + (fresh ? " fresh" : ""));
            row.dataset.sequence = request.sequence;
            const line = el("div", "request-line");
            line.append(
              el("span", "time", clock(request.time)),
              el("span", "method", request.method || "-"),
              el("span", "target", request.uri + (request.query ? "?" + request.query : "")),
              el("span", "status", request.status),
              el("span", "answer", request.stub ? "→ " + request.stub : request.rejection ? "refused: " + request.rejection : "no match"),
              el("span", "duration", (request.durationMs || 0).toFixed(1) + " ms"));
            line.querySelector(".target").title = line.querySelector(".target").textContent;
            if (violations.length) line.insertBefore(el("span", "contract", "✗ contract " + violations.length), line.querySelector(".answer"));
            row.append(line);
            if (violations.length) {
              // What the API's OpenAPI document says about this exchange (start --openapi).
              const box = el("div", "contract-violations");
              box.append(el("div", "contract-head", violations.length === 1 ? "breaks the API contract:" : "breaks the API contract in " + violations.length + " ways:"));
              for (const violation of violations) {
                const item = el("div", "violation");
                item.append(el("span", "side", violation.side + " " + violation.location + ": "), document.createTextNode(String(violation.message)));
                box.append(item);
              }
              row.append(box);
            }
            const misses = request.nearMisses || (request.nearMiss ? [request.nearMiss] : []);
            if (unmatched && misses.length) {
              const list = el("div", "near-misses");
              misses.forEach((miss, rank) => {
                const box = el("div", "near-miss");
                const head = el("div", "near-miss-head", rank === 0 ? "closest stub " : ["", "2nd", "3rd"][rank] + " closest ");
                head.append(el("b", null, miss.stub));
                box.append(head);
                for (const difference of miss.differences || []) box.append(el("div", "difference", difference));
                list.append(box);
              });
              row.append(list);
            }
            const details = el("details", "exchange");
            details.append(el("summary", null, "headers and body"));
            const headers = (request.headers || []).map((h) => h.name + ": " + h.value).join("\n");
            const body = request.body ? "\n\n" + request.body + (request.bodyTruncated ? "\n… (" + request.bodySize + " bytes in all)" : "") : "";
            details.append(el("pre", null, headers + body));
            row.append(details);
            return row;
          }

          function addRequest(request, fresh) {
            const list = $("requests");
            // Newest first. Requests answered on different event loops may arrive out of order.
            const row = requestRow(request, fresh);
            let next = list.firstElementChild;
            while (next && Number(next.dataset.sequence) > request.sequence) next = next.nextElementSibling;
            list.insertBefore(row, next);
            row.hidden = filteredOut(row);
            while (list.children.length > maxRows) list.lastElementChild.remove();
            requestCount += 1;
            $("request-count").textContent = requestCount;
            if (row.classList.contains("violates")) {
              violatingCount += 1;
              $("violation-count").textContent = violatingCount;
              $("contract-filter").hidden = false;
            }
            $("no-requests").hidden = true;
            if (fresh && request.stub) countHit(request.stub);
          }

          function clearRequests() {
            $("requests").replaceChildren();
            requestCount = 0;
            violatingCount = 0;
            $("request-count").textContent = "0";
            $("violation-count").textContent = "0";
            $("no-requests").hidden = false;
          }

          function filteredOut(row) {
            return ($("only-unmatched").checked && !row.classList.contains("unmatched"))
              || ($("only-violations").checked && !row.classList.contains("violates"));
          }

          function applyFilters() {
            for (const row of $("requests").children) row.hidden = filteredOut(row);
          }

          $("only-unmatched").addEventListener("change", (event) => {
            $("requests").classList.toggle("only-unmatched", event.target.checked);
            applyFilters();
          });
          $("only-violations").addEventListener("change", applyFilters);

          // MARK: stubs, scenarios, reloads

          function routeText(request) {
            if (!request) return "any request (catch-all)";
            const uri = request.uri;
            let path = typeof uri === "string" ? uri : uri && typeof uri === "object" ? Object.entries(uri).map(([k, v]) => k + " " + v).join(", ") : "any path";
            const method = typeof request.method === "string" ? request.method.toUpperCase() : "ANY";
            const extras = Object.keys(request).filter((key) => key !== "uri" && key !== "method");
            return method + " " + path + (extras.length ? "  + " + extras.join(", ") : "");
          }

          function countHit(id) {
            const hits = stubHits.get(id);
            if (!hits) return;
            const count = Number(hits.dataset.count || 0) + 1;
            hits.dataset.count = count;
            hits.textContent = count + (count === 1 ? " hit" : " hits");
            hits.classList.add("hit");
            const stub = hits.parentElement;
            stub.classList.remove("pulse");
            void stub.offsetWidth;
            stub.classList.add("pulse");
          }

          function renderState(state) {
            $("server").textContent = "port " + state.port + " · v" + state.version;
            const files = $("stubs");
            files.replaceChildren();
            stubHits.clear();
            let total = 0;
            for (const file of state.files) {
              const box = el("div", "file");
              box.append(el("div", "file-name", file.file === "admin" ? "added through the admin API" : file.file));
              for (const stub of file.stubs) {
                total += 1;
                const row = el("div", "stub");
                row.title = stub.id + (stub.response ? " → " + stub.response : "");
                const route = el("span", "stub-route", routeText(stub.request));
                if (stub.description) route.append(el("span", "description", "  " + stub.description));
                const hits = el("span", "hits" + (stub.hits ? " hit" : ""), stub.hits + (stub.hits === 1 ? " hit" : " hits"));
                hits.dataset.count = stub.hits;
                stubHits.set(stub.id, hits);
                row.append(el("span", "stub-index", stub.index === null ? "" : "#" + stub.index), route, hits);
                box.append(row);
              }
              files.append(box);
            }
            $("stub-count").textContent = total;
            const scenarios = $("scenarios");
            scenarios.replaceChildren();
            for (const scenario of state.scenarios) {
              const row = el("tr");
              row.append(el("td", null, scenario.name), el("td", null, scenario.state));
              scenarios.append(row);
            }
            $("no-scenarios").hidden = state.scenarios.length > 0;
            renderReload(state.reload);
            if (state.contract) {
              $("contract-filter").hidden = false;
              $("contract-filter").title = "requests and stub responses checked against " + state.contract;
            }
          }

          function renderReload(reload) {
            const broken = reload && !reload.ok;
            $("reload-error").hidden = !broken;
            $("reload-problems").textContent = broken ? reload.problems.join("\n") : "";
          }

          let stateTimer = null;
          function refreshState() {
            clearTimeout(stateTimer);
            stateTimer = setTimeout(async () => {
              try {
                const response = await fetch("/__admin/ui/state", { headers: authHeaders, cache: "no-store" });
                if (response.ok) renderState(await response.json());
              } catch (error) { /* the feed reports the connection */ }
            }, 50);
          }

          let scenarioTimer = null;
          function refreshScenariosSoon() {
            if ($("scenarios").children.length === 0) return;
            clearTimeout(scenarioTimer);
            scenarioTimer = setTimeout(refreshState, 250);
          }

          // MARK: the feed

          function connect() {
            const source = new EventSource("/__admin/ui/events" + (token ? "?token=" + encodeURIComponent(token) : ""));
            const status = $("connection");
            source.addEventListener("open", () => {
              status.dataset.state = "live";
              status.textContent = "live";
              refreshState();
            });
            source.addEventListener("error", () => {
              status.dataset.state = "lost";
              status.textContent = "reconnecting…";
            });
            source.addEventListener("request", (event) => {
              const request = JSON.parse(event.data);
              if (seen.has(request.sequence)) return;  // replayed after a reconnect
              if (seen.size > 10 * maxRows) seen.clear();
              seen.add(request.sequence);
              addRequest(request, initialised);
              if (request.stub) refreshScenariosSoon();
            });
            source.addEventListener("reload", (event) => { renderReload(JSON.parse(event.data)); refreshState(); });
            source.addEventListener("stubs", refreshState);
            source.addEventListener("scenarios", refreshState);
            source.addEventListener("reset", () => { clearRequests(); refreshState(); });
          }

          const seen = new Set();
          let initialised = false;
          connect();
          setTimeout(() => { initialised = true; }, 300);
        })();
        """#
}
