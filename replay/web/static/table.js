// The table page: the confirm step on the page itself, the clock, the tile keys.
// Without this script the page is a plain form with a confirm page; nothing here decides anything:
// what an entry pays and what the clock says come from the server (/check, /clock).
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // The page opens again without a connection (a service worker keeps the last copy of the pages
  // it opened); browsers allow one on a secure context only: HTTPS, or localhost.
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js").then(function () { return navigator.serviceWorker.ready; })
      .then(function (registration) {
        // This page and its files, kept at once (the worker keeps the pages opened after it started).
        var files = [location.href].concat([].map.call(document.querySelectorAll("link[rel=stylesheet], script[src]"),
          function (node) { return node.href || node.src; }));
        if (registration.active) registration.active.postMessage({keep: files});
      }).catch(function () {});
  }

  // The clock counts down from the server's remaining_seconds, from the moment it was received
  // (never from the phone's own clock), and takes the server's word again on every answer.
  var clock = document.getElementById("clock");
  var clockBase = 0, clockLeft = null, clockRunning = false;
  // "12:34 left" in the page's language, from the page's JSON island of words (read here: the clock
  // counts down before the rest of the script has read the island, and on a page with no form).
  var clockIsland = document.getElementById("table-words");
  var clockLeftWords = (clockIsland && JSON.parse(clockIsland.textContent).clockLeft) || "%(clock)s left";

  function setClock(data) {
    if (!clock) return;
    if (data) {
      clock.textContent = data.text;
      clock.classList.toggle("up", !!data.time_up);
      clockLeft = data.remaining_seconds;
      clockRunning = !!data.running;
    } else {
      var left = clock.getAttribute("data-remaining");
      clockLeft = left === "" ? null : parseInt(left, 10);
      clockRunning = clock.getAttribute("data-running") === "yes";
    }
    clockBase = performance.now();
    tick();
  }

  function tick() {
    if (!clock || !clockRunning || clockLeft === null) return;
    var left = Math.max(0, Math.round(clockLeft - (performance.now() - clockBase) / 1000));
    if (left <= 0) {
      clockRunning = false;
      syncClock();  // the server says what time up means under the rules
      return;
    }
    var m = Math.floor(left / 60), s = left % 60;
    clock.textContent = clockLeftWords.split("%(clock)s").join(m + ":" + (s < 10 ? "0" : "") + s);
  }

  function syncClock() {
    if (!clock) return;
    fetch(clock.getAttribute("data-url"), {credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data) setClock(data); })
      .catch(function () {});
  }

  if (clock) {
    setClock(null);
    setInterval(tick, 1000);
    setInterval(syncClock, 60000);
    document.addEventListener("visibilitychange", function () { if (!document.hidden) syncClock(); });
  }

  var form = document.getElementById("entry");
  if (!form) return;
  var record = document.getElementById("record");
  var lines = document.getElementById("confirm-lines");
  var typed = document.getElementById("typed-value");
  var seq = 0, timer = null, sending = false;

  // The page's words in its language (the template's, from the catalogue): the attributes of the
  // Record button, and the outbox's and confirm step's sentences in a JSON island (text, never markup).
  var island = document.getElementById("table-words");
  var said = island ? JSON.parse(island.textContent) : {};
  // A sentence of the island with its places filled ("%(what)s"), or the English given.
  function say(name, english, values) {
    var text = said[name] || english;
    Object.keys(values || {}).forEach(function (k) { text = text.split("%(" + k + ")s").join(String(values[k])); });
    return text;
  }
  var words = {
    record: record.getAttribute("data-record-text") || "Record",
    offline: record.getAttribute("data-offline-text") ||
      "No connection to the server: recording keeps this entry on this phone and sends it when the connection is back.",
    tiles: record.getAttribute("data-tiles-text") || "From the tiles:",
    pays: record.getAttribute("data-pays") || "%(payer)s pays %(payee)s %(amount)s",
    puts: record.getAttribute("data-puts") || "%(payer)s puts %(amount)s on the table",
    gives: record.getAttribute("data-gives") || "The table gives %(payee)s %(amount)s",
    none: record.getAttribute("data-no-payments") || "no payments",
    reasons: JSON.parse(record.getAttribute("data-reasons") || "{}")
  };

  // One payment worded from the service's values (payment_data), as _payments.html words it.
  function payment(row) {
    var amount = row.parts.map(function (p) {
      var reason = p.reason ? (words.reasons[p.reason] || p.reason) : "";
      return p.amount.toLocaleString("en-US") + (reason ? " " + reason : "");
    }).join(" + ");
    var sentence = row.payee === null ? words.puts : row.payer === null ? words.gives : words.pays;
    return sentence.replace("%(payer)s", row.payer || "").replace("%(payee)s", row.payee || "").replace("%(amount)s", amount);
  }
  record.textContent = words.record;
  record.disabled = true;
  record.setAttribute("formaction", form.getAttribute("data-record"));

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  function line(text, cls) {
    var p = document.createElement("p");
    p.textContent = text;  // text, never markup
    if (cls) p.className = cls;
    lines.appendChild(p);
  }

  function show(ok, data) {
    clear(lines);
    if (!ok) {
      line(data.error || say("cannot", "This entry cannot be recorded."), "error");
      record.disabled = true;
      return;
    }
    if (data.tiles) {
      var tiles = data.tiles;
      var yaku = tiles.yaku.map(function (y) { return y.name + " " + y.han; }).join(", ");
      line(words.tiles + " " + tiles.tiles_value + (yaku ? " (" + yaku + ")" : ""));
      if (tiles.warning) line(tiles.warning, "warning");
      fill(tiles.choice);
    }
    if (data.entries && data.entries.length) {
      data.entries.forEach(function (e) {
        if (e.title) line(e.title);
        e.payments.forEach(function (row) { line(payment(row)); });
        if (e.title && !e.payments.length) line(words.none);
      });
    } else {
      data.lines.forEach(function (text) { line(text); });
    }
    if (data.ends) line(say("ends", "Recording this ends the match (%(how)s).", {how: data.ends_in_words}), "ends");
    if (data.clock) setClock(data.clock.limit_minutes === null ? null : data.clock);
    record.disabled = false;
  }

  // A value the tiles give fills the value buttons when none was tapped (or the tiles filled it).
  function fill(choice) {
    if (!choice) return;
    var chosen = form.querySelector('input[name="value"]:checked');
    if (chosen && !chosen.hasAttribute("data-from-tiles")) return;
    if (typed && typed.value) return;
    var button = form.querySelector('input[name="value"][value="' + CSS.escape(choice) + '"]');
    if (!button) return;
    if (chosen) chosen.removeAttribute("data-from-tiles");
    button.checked = true;
    button.setAttribute("data-from-tiles", "yes");
  }

  // The outbox: entries kept on this phone (IndexedDB), in order, each with the hand it was entered
  // for and its own client key, shown as not yet sent until the server answers. The first is
  // entered for the hand the page shows (expect); each after it for the hand after the one before
  // it (after: that entry's client key), which only the server works out. An entry the server
  // refuses (another phone recorded that hand: 409; a bad field: 400) is kept and shown to the
  // table as not recorded until someone dismisses it: never recorded twice, never lost.
  var outboxNode = document.getElementById("outbox");
  var matchBase = form.getAttribute("data-record");
  var waiting = [], refusedEntries = [], lastSent = null, flushing = false, settledSome = false;
  var outbox = null;

  function request(r) {
    return new Promise(function (resolve, reject) {
      r.onsuccess = function () { resolve(r.result); };
      r.onerror = function () { reject(r.error); };
    });
  }

  function openOutbox() {
    if (!window.indexedDB) return Promise.reject(new Error("no IndexedDB"));
    var opening = indexedDB.open("honba-table", 1);
    opening.onupgradeneeded = function () {
      var db = opening.result;
      db.createObjectStore("waiting", {keyPath: "id", autoIncrement: true}).createIndex("match", "match");
      db.createObjectStore("refused", {keyPath: "id", autoIncrement: true}).createIndex("match", "match");
    };
    return request(opening);
  }

  function store(name, mode) { return outbox.transaction(name, mode || "readonly").objectStore(name); }

  function load() {
    return Promise.all([
      request(store("waiting").index("match").getAll(matchBase)),
      request(store("refused").index("match").getAll(matchBase))
    ]).then(function (found) {
      waiting = found[0].sort(function (a, b) { return a.id - b.id; });
      refusedEntries = found[1].sort(function (a, b) { return a.id - b.id; });
      render();
    });
  }

  function newKey() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);  // crypto.randomUUID needs a secure context; this does not
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  // What was tapped, in words, for the list of entries not yet sent (the server says what it pays).
  function described(fields) {
    var kind = fields.get("kind") || "win";
    var all = function (name) { return fields.getAll(name).filter(Boolean).join(", "); };
    var riichi = all("riichi") ? say("riichi", "; riichi: %(players)s", {players: all("riichi")}) : "";
    if (kind === "win") {
      var from = fields.get("discarder");
      var winner = fields.get("winner") || "?", value = fields.get("value") || "";
      return (from ? say("ron", "%(winner)s ron on %(discarder)s %(value)s", {winner: winner, discarder: from, value: value})
                   : say("tsumo", "%(winner)s tsumo %(value)s", {winner: winner, value: value})) + riichi;
    }
    if (kind === "draw") return say("draw", "exhaustive draw, ready: %(players)s", {players: all("ready") || say("nobody", "nobody")}) + riichi;
    if (kind === "abort") return say("abort", "abortive draw: %(kind)s", {kind: (fields.get("abort") || "?").replace(/_/g, " ")}) + riichi;
    if (kind === "penalty") return say("penalty", "penalty: %(player)s %(amount)s", {player: fields.get("player") || "?", amount: fields.get("amount") || ""});
    return kind;
  }

  function keep(fields) {
    if (!outbox) return Promise.reject(new Error("no outbox"));
    var before = waiting.length ? waiting[waiting.length - 1].key : lastSent;
    fields.set("client_key", newKey());
    if (before) { fields.set("after", before); fields.set("expect", ""); }
    var entry = {
      match: matchBase, key: fields.get("client_key"), hand: before ? null : fields.get("expect"),
      what: described(fields), body: new URLSearchParams(fields).toString()
    };
    return request(store("waiting", "readwrite").add(entry)).then(function (id) {
      entry.id = id;
      waiting.push(entry);
      render();
    });
  }

  function settle(entry, refusal) {
    var t = outbox.transaction(["waiting", "refused"], "readwrite");
    t.objectStore("waiting").delete(entry.id);
    if (refusal) t.objectStore("refused").add({match: matchBase, what: entry.what, hand: entry.hand, error: refusal});
    return new Promise(function (resolve) { t.oncomplete = resolve; t.onerror = resolve; });
  }

  // Send what waits, in order, one at a time; stop at the first that gets no answer (offline, the
  // server down) and try again when the connection is back.
  function send() {
    if (flushing || !outbox) return;
    if (!waiting.length) {
      if (settledSome) {
        // The table as it now stands, what was refused shown on it: opened again at its top (as the
        // form's post and redirect did), not scrolled to where the last tap was.
        history.scrollRestoration = "manual";
        location.replace(location.href.split("#")[0]);
      }
      return;
    }
    flushing = true;
    var entry = waiting[0];
    fetch(matchBase, {method: "POST", body: new URLSearchParams(entry.body), credentials: "same-origin",
                      headers: {"Accept": "application/json"}})
      .then(function (r) {
        if (r.status >= 500) throw new Error("server " + r.status);
        return r.json().catch(function () { return {error: say("answered", "The server answered %(status)s.", {status: r.status})}; })
          .then(function (data) { return {ok: r.ok, data: data}; });
      })
      .then(function (res) {
        return settle(entry, res.ok ? null : (res.data.error || say("notRecorded", "not recorded"))).then(function () {
          waiting.shift();
          // After a refusal the next entry (none waiting) is the page's hand again, once reloaded.
          lastSent = res.ok ? entry.key : null;
          settledSome = true;
          flushing = false;
          return load().then(send);
        });
      }, function () {
        flushing = false;
        render(say("unsent", "Not sent yet: no connection to the server. Kept on this phone; sent when the connection is back."));
      });
  }

  function render(note) {
    if (!outboxNode) return;
    clear(outboxNode);
    outboxNode.hidden = !(waiting.length || refusedEntries.length || note);
    refusedEntries.forEach(function (entry) {
      var p = document.createElement("p");
      p.className = "error refused";
      p.setAttribute("role", "alert");
      p.textContent = entry.hand
        ? say("refusedAt", "Not recorded: %(what)s (entered at %(hand)s). %(error)s.", {what: entry.what, hand: entry.hand, error: entry.error})
        : say("refused", "Not recorded: %(what)s. %(error)s.", {what: entry.what, error: entry.error});
      var dismiss = document.createElement("button");
      dismiss.type = "button";
      dismiss.className = "secondary";
      dismiss.textContent = say("seen", "Seen");
      dismiss.addEventListener("click", function () {
        request(store("refused", "readwrite").delete(entry.id)).then(load);
      });
      p.appendChild(document.createTextNode(" "));
      p.appendChild(dismiss);
      outboxNode.appendChild(p);
    });
    if (waiting.length) {
      var title = document.createElement("p");
      title.className = "warning";
      title.textContent = say("waiting", "Not yet sent (kept on this phone, sent in this order):");
      outboxNode.appendChild(title);
      var list = document.createElement("ol");
      list.className = "waiting";
      waiting.forEach(function (entry) {
        var item = document.createElement("li");
        item.textContent = entry.hand ? say("at", "%(hand)s: %(what)s", {hand: entry.hand, what: entry.what})
                                : say("then", "then: %(what)s", {what: entry.what});
        list.appendChild(item);
      });
      outboxNode.appendChild(list);
    }
    if (note) {
      var said = document.createElement("p");
      said.className = "muted";
      said.textContent = note;
      outboxNode.appendChild(said);
    }
  }

  openOutbox().then(function (db) {
    outbox = db;
    return load().then(send);
  }).catch(function () { outbox = null; });
  addEventListener("online", send);
  setInterval(send, 5000);

  function check() {
    var mine = ++seq;
    // Behind entries not yet sent, the server's confirm step would be of the table before them.
    if (waiting.length) {
      clear(lines);
      line(waiting.length === 1
        ? say("behindOne", "Kept behind 1 entry not yet sent: the payments show once they are recorded.")
        : say("behind", "Kept behind %(count)s entries not yet sent: the payments show once they are recorded.", {count: waiting.length}), "warning");
      record.disabled = false;
      return;
    }
    var body = new URLSearchParams(new FormData(form));
    // Asked as JSON: a refusal (a link issued again since, a bad field) comes back in words to show.
    fetch(form.getAttribute("data-check"), {method: "POST", body: body, credentials: "same-origin",
                                           headers: {"Accept": "application/json"}})
      .then(function (r) {
        return r.json().then(function (data) { return {ok: r.ok, data: data}; },
                             function () { return {ok: false, data: {error: say("noAnswer", "The server did not answer (%(status)s): try again.", {status: r.status})}}; });
      })
      .then(function (res) { if (mine === seq) show(res.ok, res.data); })
      .catch(function () { if (mine === seq) offline(); });
  }

  // No answer to the confirm step: the entry can still be kept on the phone and sent later.
  function offline() {
    clear(lines);
    line(words.offline, "warning");
    record.disabled = false;
  }

  function changed(event) {
    var target = event.target;
    if (target === typed) {
      // A value typed replaces the buttons' (it has the entry's name only while it holds text).
      if (typed.value) {
        typed.setAttribute("name", "value");
        var chosen = form.querySelector('input[type="radio"][name="value"]:checked');
        if (chosen) chosen.checked = false;
      } else {
        typed.removeAttribute("name");
      }
    } else if (target.name === "value" && target.type === "radio") {
      target.removeAttribute("data-from-tiles");
      if (typed) { typed.value = ""; typed.removeAttribute("name"); }
    }
    record.disabled = true;
    // An answer still on its way is about the entry before this change: it must neither fill the
    // value nor enable Record in the pause before the page asks again (a tap then recorded the old one).
    seq++;
    clearTimeout(timer);
    timer = setTimeout(check, event.type === "input" ? 250 : 0);
  }

  // A second winner on the same discard from the same buttons (double ron in six taps: winner, from,
  // value, the second winner's "won", its value, Record). Once a ron has its winner, discarder and
  // value, a tap on another seat's "won" makes that seat the second winner (the More panel's winner2)
  // and the value buttons then give its value (value2); a tap on the second winner again takes it
  // back. The fields sent are the ones the form has without scripts: the server decides the rest.
  var second = {winner: null, value: null};

  function secondField(name, value) {
    return form.querySelector('input[name="' + name + '"][value="' + CSS.escape(value) + '"]');
  }

  function markSecond() {
    form.querySelectorAll("label.pick.second").forEach(function (l) { l.classList.remove("second"); });
    if (!second.winner) return;
    var won = secondField("winner", second.winner);
    if (won) won.closest("label").classList.add("second");
    if (second.value) {
      var value = secondField("value", second.value);
      if (value) value.closest("label").classList.add("second");
    }
  }

  function setSecond(winner, value) {
    second = {winner: winner, value: winner ? value : null};
    var none = secondField("winner2", "");
    var pick = winner ? secondField("winner2", winner) : none;
    if (pick) pick.checked = true;
    var text = form.querySelector('input[name="value2"]');
    if (text) text.value = second.value || "";
    markSecond();
  }

  function ronReady() {
    var discarder = form.querySelector('input[name="discarder"]:checked');
    return form.querySelector('input[name="winner"]:checked') && discarder && discarder.value &&
      form.querySelector('input[name="value"][type="radio"]:checked');
  }

  form.addEventListener("click", function (event) {
    var label = event.target.closest("label.pick");
    var input = label && label.querySelector("input");
    if (!input || input.type !== "radio") return;
    if (input.name === "winner" && !input.checked && (second.winner === input.value || (!second.winner && ronReady()))) {
      event.preventDefault();
      setSecond(second.winner === input.value ? null : input.value, null);
      changed({target: form, type: "change"});
    } else if (input.name === "value" && second.winner) {
      event.preventDefault();
      setSecond(second.winner, input.value);
      changed({target: form, type: "change"});
    } else if (input.name === "discarder" && !input.value && second.winner) {
      setSecond(null, null);  // self-drawn: one winner only
    }
  }, true);
  // The More panel's own second-winner fields, when used, are the ones in force.
  form.addEventListener("input", function (event) {
    if (event.target.name === "win_tile") event.target.removeAttribute("data-auto");  // typed: it stays
  });
  form.addEventListener("change", function (event) {
    if (event.target.name === "winner2" || event.target.name === "value2") {
      second = {winner: null, value: null};
      markSecond();
    }
  });

  if (typed && typed.value) typed.setAttribute("name", "value");
  // Buttons and choices answer on change; text on input (its change comes again on blur, when the
  // Record button is tapped, and must not take the confirm step away under the finger).
  function typing(target) { return target.type !== "radio" && target.type !== "checkbox" && target.tagName !== "SELECT"; }
  form.addEventListener("change", function (event) { if (!typing(event.target)) changed(event); });
  form.addEventListener("input", function (event) { if (typing(event.target)) changed(event); });
  form.addEventListener("submit", function (event) {
    if (sending) { event.preventDefault(); return; }
    // Recording (not the confirm step's "Show payments" of a page without the script's answer yet)
    // goes through the phone's outbox: kept first, then sent in order.
    if (!outbox || event.submitter !== record || record.getAttribute("formaction") !== form.getAttribute("data-record")) {
      sending = true;  // a second tap sends nothing more (the client key would record once anyway)
      return;
    }
    event.preventDefault();
    sending = true;
    keep(new FormData(form)).then(function () {
      sending = false;
      form.reset();
      if (typed) typed.removeAttribute("name");
      record.disabled = true;
      clear(lines);
      send();
    }, function () {
      // The phone would not keep it (storage refused): sent as a plain form, as without the outbox.
      sending = true;
      form.setAttribute("action", form.getAttribute("data-record"));
      form.submit();
    });
  });
  // After an error the page comes back with the form as sent: show its confirm step at once.
  if (form.querySelector('input[name="winner"]:checked, input[name="kind"]:checked:not([value="win"])')) check();

  // Under riichi rules (the only ones with a tiles panel) the tile keys are shown at once, below
  // the buttons, so that a hand by tiles is the winner, the discarder, 14 tiles and Record from the
  // first hand on (issue 33: at most 17 taps); a phone that closed the panel finds it closed at the
  // next hand (kept on the phone), and the other entries' buttons stand above it, untouched.
  var tilesPanel = document.getElementById("tiles");
  if (tilesPanel) {
    var closed = false;
    try {
      closed = localStorage.getItem("honba.tiles") === "closed";
    } catch (e) { /* storage refused: the panel shows open */ }
    if (!closed) tilesPanel.open = true;
    tilesPanel.addEventListener("toggle", function () {
      try { localStorage.setItem("honba.tiles", tilesPanel.open ? "open" : "closed"); } catch (e) { /* as above */ }
    });
  }

  // The tile keys type into the tile field last used (the hand by default), in the compact notation.
  var keys = document.getElementById("tile-keys");
  if (keys) {
    var field = form.querySelector('input[name="hand"]');
    form.addEventListener("focusin", function (event) {
      if (event.target.classList.contains("tiles-in")) field = event.target;
    });
    keys.addEventListener("click", function (event) {
      var key = event.target.closest("button[data-tile]");
      if (!key || !field) return;
      var tile = key.getAttribute("data-tile"), text = field.value.replace(/\s+$/, "");
      if (tile === "") {
        text = text.replace(/\d([mpsz])$/, "$1").replace(/(^|[^0-9])[mpsz]$/, "$1");
      } else if (text.slice(-1) === tile.slice(-1) && /\d$/.test(text.slice(-2, -1))) {
        text = text.slice(0, -1) + tile;  // 12m + 3m = 123m
      } else {
        text = text + tile;
      }
      field.value = text;
      // A tile tapped into the hand is the winning tile too (the last one tapped, the usual order),
      // unless a winning tile was typed: the hand by tiles is 14 taps and Record.
      var winTile = form.querySelector('input[name="win_tile"]');
      if (winTile && field.name === "hand" && (!winTile.value || winTile.hasAttribute("data-auto"))) {
        winTile.value = tile;
        winTile.setAttribute("data-auto", "yes");
        if (!tile) winTile.removeAttribute("data-auto");
      }
      field.dispatchEvent(new Event("input", {bubbles: true}));
    });
  }
})();
