// Live standings: the server sends the standings section again whenever a hand is recorded.
(function () {
  var live = document.getElementById("live");
  if (!live || !window.EventSource) return;
  var source = new EventSource(live.getAttribute("data-events"));
  source.addEventListener("standings", function (event) {
    var data = JSON.parse(event.data);
    live.innerHTML = data.html;  // rendered and escaped by the server's templates
    live.setAttribute("data-position", data.position);
  });
})();
