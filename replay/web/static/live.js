// Live standings: the server sends the standings section again whenever a hand is recorded.
(function () {
  var live = document.getElementById("live");
  if (!live) return;
  var picked = null;  // the player whose line is picked out in the chart, kept across updates

  function pick(svg, id) {
    picked = id;
    svg.classList.toggle("picking", id !== null);
    var groups = svg.querySelectorAll('g[id^="player-"]');
    for (var i = 0; i < groups.length; i++) {
      var own = id !== null && (groups[i].id === id || groups[i].id === id + "-name");
      groups[i].classList.toggle("picked", own);
    }
  }

  function lineOf(target) {
    var group = target.closest ? target.closest('g[id^="player-"]') : null;
    return group ? group.id.replace(/-name$/, "") : null;
  }

  function chart() {
    return live.querySelector("figure.chart svg");
  }

  // A tap (or a click) on a line or its name picks it out; again, or elsewhere in the chart, lets go.
  live.addEventListener("click", function (event) {
    var svg = chart();
    if (!svg || !svg.contains(event.target)) {
      var row = event.target.closest ? event.target.closest("tr[data-player]") : null;
      if (svg && row) {
        var rows = live.querySelectorAll("#standings-table tr[data-player]");
        var index = Array.prototype.indexOf.call(rows, row);
        var id = "player-" + index;
        pick(svg, picked === id ? null : id);
      }
      return;
    }
    var id = lineOf(event.target);
    pick(svg, id === null || id === picked ? null : id);
  });
  live.addEventListener("mouseover", function (event) {
    var svg = chart();
    if (svg && svg.contains(event.target) && picked === null) {
      var id = lineOf(event.target);
      if (id !== null) { pick(svg, id); picked = null; }
    }
  });
  live.addEventListener("mouseout", function (event) {
    var svg = chart();
    if (svg && picked === null && svg.contains(event.target)) pick(svg, null);
  });

  if (!window.EventSource) return;
  var source = new EventSource(live.getAttribute("data-events"));
  source.addEventListener("standings", function (event) {
    var data = JSON.parse(event.data);
    live.innerHTML = data.html;  // rendered and escaped by the server's templates
    live.setAttribute("data-position", data.position);
    var svg = chart();
    if (svg && picked !== null) pick(svg, picked);
  });
})();
