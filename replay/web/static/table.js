// The table page: the confirm step on the page itself, the clock, the tile keys.
// Without this script the page is a plain form with a confirm page; nothing here decides anything:
// what an entry pays and what the clock says come from the server (/check, /clock).
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // The clock counts down from the server's remaining_seconds, from the moment it was received
  // (never from the phone's own clock), and takes the server's word again on every answer.
  var clock = document.getElementById("clock");
  var clockBase = 0, clockLeft = null, clockRunning = false;

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
    clock.textContent = m + ":" + (s < 10 ? "0" : "") + s + " left";
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

  // The page's words in its language (the template's, from the catalogue).
  var words = {
    record: record.getAttribute("data-record-text") || "Record",
    offline: record.getAttribute("data-offline-text") || "No connection to the server: try again.",
    tiles: record.getAttribute("data-tiles-text") || "From the tiles:"
  };
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
      line(data.error || "This entry cannot be recorded.", "error");
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
    data.lines.forEach(function (text) { line(text); });
    if (data.ends) line("Recording this ends the match (" + data.ends_in_words + ").", "ends");
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

  function check() {
    var mine = ++seq;
    var body = new URLSearchParams(new FormData(form));
    // Asked as JSON: a refusal (a link issued again since, a bad field) comes back in words to show.
    fetch(form.getAttribute("data-check"), {method: "POST", body: body, credentials: "same-origin",
                                           headers: {"Accept": "application/json"}})
      .then(function (r) {
        return r.json().then(function (data) { return {ok: r.ok, data: data}; },
                             function () { return {ok: false, data: {error: "The server did not answer (" + r.status + "): try again."}}; });
      })
      .then(function (res) { if (mine === seq) show(res.ok, res.data); })
      .catch(function () { if (mine === seq) show(false, {error: words.offline}); });
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
    sending = true;  // a second tap sends nothing more (the client key would record once anyway)
  });
  // After an error the page comes back with the form as sent: show its confirm step at once.
  if (form.querySelector('input[name="winner"]:checked, input[name="kind"]:checked:not([value="win"])')) check();

  // A table that enters its hands by tiles keeps the tiles panel open from one hand to the next
  // (on this phone): a hand by tiles is then the winner, the discarder, 14 tiles and Record.
  var tilesPanel = document.getElementById("tiles");
  if (tilesPanel) {
    try {
      if (localStorage.getItem("honba.tiles") === "open") tilesPanel.open = true;
    } catch (e) { /* storage refused: the panel opens with a tap */ }
    tilesPanel.addEventListener("toggle", function () {
      try { localStorage.setItem("honba.tiles", tilesPanel.open ? "open" : ""); } catch (e) { /* as above */ }
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
